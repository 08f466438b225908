import CirrusModel
public import Foundation

extension LCUser {
    /// Whether this user holds a session token: it signed up, logged in, or is the current user (seed 002: users read
    /// by queries are not authenticated, and the server refuses their saves). ``isAuthenticated(sessionToken:)`` asks
    /// the server whether a token still works.
    public var isAuthenticated: Bool { sessionToken != nil }

    /// Asks the server whether `sessionToken` (by default the user's own) is a working session of this user
    /// (`GET /1.1/users/me`; seed 001: `isAuthenticatedWithSessionToken:callback:`).
    /// - Returns: `false` for a token the server does not know (211) or one of another user.
    /// - Throws: `LCError` for other failures (the network, the server).
    public func isAuthenticated(sessionToken: String? = nil) async throws -> Bool {
        guard let token = sessionToken ?? self.sessionToken?.value else { return false }
        do {
            let reply = try await RESTClient(application: application).send("GET", "/users/me", session: .token(token))
            return reply["objectId"]?.stringValue.map { $0 == objectId?.value } ?? false
        } catch let error as LCError where error.code == LCError.ServerErrorCode.userNotFound.rawValue || error.code == 403 {
            return false
        }
    }

    /// Makes ``LCApplication/currentUser`` never `nil` (`[LCUser enableAutomaticUser]`, seed 002): without a logged-in
    /// user it is a new anonymous user, made on the device with no request, created on the server by its first save
    /// or by the first save of an object pointing to it (it then has a session token and is kept across launches).
    public static func enableAutomaticUser(application: LCApplication = .default) {
        application.isAutomaticUserEnabled = true
    }

    /// A new anonymous user that the server creates when it is saved (`authData.anonymous.id`, a random UUID).
    static func automatic(application: LCApplication) -> LCUser {
        let user = LCUser(application: application)
        try? user.set("authData", value: LCDictionary(values: [
            AuthDataPlatform.anonymous.key: LCDictionary(values: ["id": LCString(UUID().uuidString.lowercased())]),
        ]))
        return user
    }
}

// The completion-handler and blocking forms of the server's token check.
extension LCUser {
    /// Asks the server whether `sessionToken` works for this user; `completion` gets `.success(object: true/false)` on
    /// `completionQueue` (`isAuthenticatedWithSessionToken:callback:`).
    @discardableResult
    public func isAuthenticated(
        sessionToken: String? = nil, completionQueue: DispatchQueue = .main, completion: @escaping (LCValueResult<Bool>) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await self.isAuthenticated(sessionToken: sessionToken) }
    }

    /// Asks the server whether `sessionToken` works for this user, blocking the calling thread.
    public func isAuthenticated(sessionToken: String? = nil) -> LCValueResult<Bool> {
        Call.wait { try await self.isAuthenticated(sessionToken: sessionToken) }
    }
}
