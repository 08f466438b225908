import CirrusModel

/// An access control list: who may read and write an object. Sent as `{"*":{"read":true},"<user id>":{…},
/// "role:<name>":{…}}`.
public final class LCACL: LCValue, @unchecked Sendable {
    private let lock = Lock()
    private var entries: [String: Permission]

    /// A kind of access.
    public struct Permission: OptionSet, Sendable, Hashable {
        public let rawValue: Int

        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        public static let read = Permission(rawValue: 1)
        public static let write = Permission(rawValue: 2)
    }

    /// An empty list: nobody but the master key may read or write.
    public init() {
        entries = [:]
    }

    init(entries: [String: Permission]) {
        self.entries = entries
    }

    /// The key of a user's entry.
    public static func accessKey(forUserID userID: String) -> String { userID }

    /// The key of a role's entry.
    public static func accessKey(forRoleName roleName: String) -> String { "role:" + roleName }

    /// The key of the public entry.
    public static let publicAccessKey = "*"

    /// Allows or denies `permission` to a user, a role, or (neither given) everyone.
    public func setAccess(_ permission: Permission, allowed: Bool, forUserID userID: String? = nil, forRoleName roleName: String? = nil) {
        let key = Self.key(userID: userID, roleName: roleName)
        lock.withLock {
            var current = entries[key] ?? []
            if allowed { current.formUnion(permission) } else { current.subtract(permission) }
            entries[key] = current.isEmpty ? nil : current
        }
    }

    /// Whether a user, a role, or (neither given) everyone has all of `permission`.
    public func getAccess(_ permission: Permission, forUserID userID: String? = nil, forRoleName roleName: String? = nil) -> Bool {
        let key = Self.key(userID: userID, roleName: roleName)
        return lock.withLock { entries[key]?.isSuperset(of: permission) ?? false }
    }

    /// The entries by key (`*`, a user id, `role:<name>`).
    public var value: [String: Permission] { lock.withLock { entries } }

    private static func key(userID: String?, roleName: String?) -> String {
        if let userID { return accessKey(forUserID: userID) }
        if let roleName { return accessKey(forRoleName: roleName) }
        return publicAccessKey
    }

    public var description: String {
        value.sorted { $0.key < $1.key }.map { key, permission in
            "\(key): " + [permission.contains(.read) ? "read" : nil, permission.contains(.write) ? "write" : nil]
                .compactMap { $0 }.joined(separator: "+")
        }.joined(separator: ", ")
    }
}
