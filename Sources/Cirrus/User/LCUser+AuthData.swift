import CirrusModel
import Foundation

extension LCUser {
    /// A third-party platform of ``logIn(authData:platform:)``.
    public enum AuthDataPlatform: Sendable, Hashable, ExpressibleByStringLiteral {
        case qq
        case weibo
        case weixin
        /// Sign in with Apple (`lc_apple`).
        case apple
        /// An anonymous user (``LCUser/logInAnonymously(application:)``).
        case anonymous
        /// Any other platform, by the key its data is stored under.
        case custom(String)

        /// `.custom(key)`, so that `platform: "github"` reads as in the LeanCloud guide.
        public init(stringLiteral key: String) {
            self = .custom(key)
        }

        /// The key under `authData`.
        public var key: String {
            switch self {
            case .qq: "qq"
            case .weibo: "weibo"
            case .weixin: "weixin"
            case .apple: "lc_apple"
            case .anonymous: "anonymous"
            case .custom(let key): key
            }
        }
    }

    /// Options of a third-party log-in.
    public struct AuthDataOptions: OptionSet, Sendable {
        public let rawValue: Int

        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// Fail with `LCError` 211 instead of signing up when no user is linked to the account (`failOnNotExist`).
        public static let failOnNotExist = AuthDataOptions(rawValue: 1)
        /// The account is the main account of its UnionID (`main_account`): other platforms' accounts with the same
        /// UnionID log in to this user (seed 001, "接入 UnionID 体系").
        public static let mainAccount = AuthDataOptions(rawValue: 2)
    }

    /// Logs in with a third-party account (`POST /1.1/users {"authData":{platform: data}}`), signing up a new user the
    /// first time (unless ``AuthDataOptions/failOnNotExist``; ``isNew`` then says so); this user takes the reply and
    /// becomes the current user.
    /// - Parameters:
    ///   - authData: the platform's data (`uid`, `access_token`, …) as strings, numbers, booleans, arrays and
    ///     dictionaries.
    ///   - unionID: the account's UnionID (`unionid`), with `unionIDPlatform` the platform it belongs to (`platform`):
    ///     accounts of one UnionID on different platforms are one user.
    public func logIn(
        authData: [String: Any], platform: AuthDataPlatform, unionID: String? = nil, unionIDPlatform: AuthDataPlatform? = nil,
        options: AuthDataOptions = []
    ) async throws {
        try await logIn(json: try Self.json(authData, unionID: unionID, unionIDPlatform: unionIDPlatform, options: options), platform: platform, options: options)
    }

    /// Logs in as a new anonymous user (`authData.anonymous.id`, a random UUID); the user becomes the current user.
    /// Setting a username and password later and saving turns it into an ordinary user.
    public static func logInAnonymously(application: LCApplication = .default) async throws -> LCUser {
        let user = LCUser(application: application)
        try await user.logIn(json: ["id": .string(UUID().uuidString.lowercased())], platform: .anonymous, options: [])
        return user
    }

    /// Whether the user logged in anonymously and has no username and password of its own yet.
    public var isAnonymous: Bool {
        authData?.value[AuthDataPlatform.anonymous.key] != nil
    }

    /// Links a third-party account to this saved user (`PUT /1.1/users/<id> {"authData.<platform>": data}`), with its
    /// UnionID as ``logIn(authData:platform:unionID:unionIDPlatform:options:)`` takes it.
    public func associate(
        authData: [String: Any], platform: AuthDataPlatform, unionID: String? = nil, unionIDPlatform: AuthDataPlatform? = nil,
        options: AuthDataOptions = []
    ) async throws {
        try await link(platform, try Self.json(authData, unionID: unionID, unionIDPlatform: unionIDPlatform, options: options))
    }

    /// A platform's data with its UnionID fields: `unionid`, `platform` and `main_account`.
    static func json(_ authData: [String: Any], unionID: String?, unionIDPlatform: AuthDataPlatform?, options: AuthDataOptions) throws -> JSON {
        guard case .object(var members) = try json(authData) else { return try json(authData) }
        if let unionID { members["unionid"] = .string(unionID) }
        if let unionIDPlatform { members["platform"] = .string(unionIDPlatform.key) }
        if options.contains(.mainAccount) { members["main_account"] = true }
        return .object(members)
    }

    /// Unlinks a third-party account from this saved user (`{"authData.<platform>":{"__op":"Delete"}}`).
    public func disassociate(authData platform: AuthDataPlatform) async throws {
        try await link(platform, nil)
    }

    func logIn(json: JSON, platform: AuthDataPlatform, options: AuthDataOptions) async throws {
        let operations = takeOperations()
        var body = LCObject.body(operations).objectValue ?? [:]
        body["authData"] = .object([platform.key: json])
        let query: [(String, String)] = options.contains(.failOnNotExist) ? [("failOnNotExist", "true")] : []
        let reply: (json: JSON, status: Int)
        do {
            reply = try await RESTClient(application: application).reply("POST", "/users", query: query, body: .object(body), session: .token(nil))
        } catch {
            restoreOperations(operations)
            throw error
        }
        var members = reply.json.objectValue ?? [:]
        if members["authData"] == nil { members["authData"] = .object([platform.key: json]) }
        merge(members, decoder: ObjectDecoder(application: application))
        didSaveFields()
        isNew = reply.status == 201
        application.currentUser = self
    }

    /// Sets (or, for `nil`, deletes) the platform's entry of `authData` on the server, then locally.
    func link(_ platform: AuthDataPlatform, _ data: JSON?) async throws {
        let path = try BatchRequest.requirePath(self)
        let body: JSON = .object(["authData." + platform.key: data ?? ["__op": "Delete"]])
        let reply = try await RESTClient(application: application).send("PUT", path, body: body, session: sessionForWrites)
        let decoder = ObjectDecoder(application: application)
        merge(reply.objectValue ?? [:], decoder: decoder)
        var linked = authData?.value ?? [:]
        linked[platform.key] = data.map(decoder.value)
        lock.withLock { state.properties["authData"] = LCDictionary(values: linked) }
        application.persistCurrentUser(ifItIs: self)
    }

    /// A dictionary of plain Swift values as JSON.
    /// - Throws: `LCError` for a value that has no JSON form.
    static func json(_ value: Any) throws -> JSON {
        switch value {
        case let convertible as any LCValueConvertible: return ValueCoder.encode(convertible.lcValue)
        case let dictionary as [String: Any]: return .object(try dictionary.mapValues(json))
        case let array as [Any]: return .array(try array.map(json))
        default: throw LCError(code: .invalidType, reason: "\(type(of: value)) has no JSON form.")
        }
    }

    /// The roles the user holds directly (`_Role` objects whose `users` relation holds it).
    public func getRoles() async throws -> [LCRole] {
        let query = LCQuery(application: application, className: LCRole.objectClassName())
        query.whereKey("users", .equalTo(self))
        return try await query.find().compactMap { $0 as? LCRole }
    }
}
