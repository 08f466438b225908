/// Who is making a request, as the services see it: resolved by the HTTP layer from keys and session.
package struct Caller: Sendable, Hashable {
    /// Whether the request was made with the master key (from a header or a signature, never a body).
    package var isMaster: Bool
    /// The logged-in user, if any.
    package var userId: String?
    /// The names of the roles the user holds, inherited ones included.
    package var roleNames: [String]
    /// The session token the user was identified by.
    package var sessionToken: String?
    /// Whether the request carried the app's hook key (`X-LC-Hook-Key`), as the cloud-code engine's own requests do:
    /// it may skip hooks (`__ignore_hooks`), and gives no other rights.
    package var holdsHookKey = false
    /// A read-only master (the web console's viewers, like Parse's read-only master key): reads what the master key
    /// reads, but never a credential (a user's session token, an export's archive), and writes nothing.
    package var isReadOnly = false

    package init(isMaster: Bool, userId: String? = nil, roleNames: [String] = [], sessionToken: String? = nil) {
        self.isMaster = isMaster
        self.userId = userId
        self.roleNames = roleNames
        self.sessionToken = sessionToken
    }

    /// Every ACL key that grants this caller rights: `*`, the user id and `role:<name>` for each role.
    package var principals: [String] {
        ["*"] + (userId.map { [$0] } ?? []) + roleNames.map { "role:" + $0 }
    }

    /// The ACL principals whose read grants this caller holds, for ``CirrusStorage/StorageQuery/readers``: `nil`
    /// for the master key (no restriction).
    package var readers: [String]? {
        isMaster ? nil : principals
    }

    /// The ACL principals whose write grants this caller holds; `nil` for the master key.
    package var writers: [String]? {
        isMaster ? nil : principals
    }

    /// Whether this caller is the logged-in user `userId` (the master key is no user).
    package func isUser(_ id: String) -> Bool {
        userId == id
    }

    /// A client with the app key and no session.
    package static let anonymous = Caller(isMaster: false)
    /// The master key.
    package static let master = Caller(isMaster: true)
}
