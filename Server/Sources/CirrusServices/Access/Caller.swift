/// Who is making a request, as the services see it: resolved by the HTTP layer from keys and session.
public struct Caller: Sendable, Hashable {
    /// Whether the request was made with the master key (from a header or a signature, never a body).
    public var isMaster: Bool
    /// The logged-in user, if any.
    public var userId: String?
    /// The names of the roles the user holds, inherited ones included.
    public var roleNames: [String]
    /// The session token the user was identified by.
    public var sessionToken: String?

    public init(isMaster: Bool, userId: String? = nil, roleNames: [String] = [], sessionToken: String? = nil) {
        self.isMaster = isMaster
        self.userId = userId
        self.roleNames = roleNames
        self.sessionToken = sessionToken
    }

    /// Every ACL key that grants this caller rights: `*`, the user id and `role:<name>` for each role.
    public var principals: [String] {
        ["*"] + (userId.map { [$0] } ?? []) + roleNames.map { "role:" + $0 }
    }

    /// The ACL principals whose read grants this caller holds, for ``CirrusStorage/StorageQuery/readers``: `nil`
    /// for the master key (no restriction).
    public var readers: [String]? {
        isMaster ? nil : principals
    }

    /// The ACL principals whose write grants this caller holds; `nil` for the master key.
    public var writers: [String]? {
        isMaster ? nil : principals
    }

    /// Whether this caller is the logged-in user `userId` (the master key is no user).
    public func isUser(_ id: String) -> Bool {
        userId == id
    }

    /// A client with the app key and no session.
    public static let anonymous = Caller(isMaster: false)
    /// The master key.
    public static let master = Caller(isMaster: true)
}
