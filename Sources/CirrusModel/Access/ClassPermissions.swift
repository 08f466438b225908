/// Who may do what to a class, above the objects' ACLs: LeanCloud's class permissions.
///
/// Each operation is granted to everyone, to logged-in users, or to listed users and roles; an empty list means
/// nobody but the master key. An operation without a rule is open to everyone, which is LeanCloud's default for
/// classes created by the API.
public struct ClassPermissions: Sendable, Hashable {
    /// The operations a class permission controls.
    public enum Operation: String, Sendable, Hashable, CaseIterable {
        case get, find, create, update, delete
        /// Creating fields the class does not have yet.
        case addFields = "add_fields"
    }

    /// Who an operation is granted to.
    public struct Rule: Sendable, Hashable {
        public var everyone: Bool
        /// Any logged-in user (LeanCloud's `onlySignInUsers`, Parse's `requiresAuthentication`).
        public var signedIn: Bool
        public var users: Set<String>
        public var roles: Set<String>

        public init(everyone: Bool = false, signedIn: Bool = false, users: Set<String> = [], roles: Set<String> = []) {
            self.everyone = everyone
            self.signedIn = signedIn
            self.users = users
            self.roles = roles
        }

        public static let everyone = Rule(everyone: true)
        public static let nobody = Rule()

        /// Whether a caller with this user id and these role names is granted the operation.
        public func grants(userId: String?, roleNames: [String]) -> Bool {
            if everyone { return true }
            guard let userId else { return false }
            return signedIn || users.contains(userId) || roleNames.contains(where: roles.contains)
        }
    }

    public var rules: [Operation: Rule]

    public init(_ rules: [Operation: Rule] = [:]) {
        self.rules = rules
    }

    /// The rule of an operation; everyone when none is set.
    public func rule(for operation: Operation) -> Rule {
        rules[operation] ?? .everyone
    }

    /// The defaults of system classes the seeds state: `_User` find is off (seed 000 L918–925), `_File` delete
    /// is off (seed 000 L629).
    public static func defaults(for className: String) -> ClassPermissions {
        switch className {
        case "_User": ClassPermissions([.find: .nobody])
        case "_File": ClassPermissions([.delete: .nobody])
        // LeanCloud: a device's installation is fetched and saved by id; listing and deleting them is the master's.
        case "_Installation": ClassPermissions([.find: .nobody, .delete: .nobody])
        // The follow graph and statuses are written by their own endpoints (`/users/<id>/friendship/<target>`,
        // `/statuses`), which keep the two directions and the inboxes together; clients read them as any class.
        case "_Follower", "_Followee", "_Status": ClassPermissions([.create: .nobody, .update: .nobody, .delete: .nobody])
        // A friend request is made, accepted and declined by its endpoints; either side may delete it (its ACL).
        case "_FriendshipRequest": ClassPermissions([.create: .nobody, .update: .nobody])
        default: ClassPermissions()
        }
    }
}

/// What a class records about one field beyond its type: LeanCloud's column flags.
public struct FieldOptions: Sendable, Hashable {
    /// Clients may not change the field (the master key may); LeanCloud's `read_only`, error 117.
    public var readOnly: Bool
    /// Clients never see the field; LeanCloud's `hidden`.
    public var hidden: Bool
    /// A personal field of `_User` (`email`, `mobilePhoneNumber`) that every client may see and query, not only the
    /// user it belongs to (see ``ClassSchema/privateFields``).
    public var exposed: Bool
    /// Every object must have a value (not null) for the field: a create without one, or an update that removes it, is
    /// refused (LeanCloud's "required" column, error 113).
    public var required: Bool
    /// The value a create without the field gets (LeanCloud's column default; Parse's `defaultValue`).
    public var defaultValue: JSON?

    public init(readOnly: Bool = false, hidden: Bool = false, exposed: Bool = false, required: Bool = false, defaultValue: JSON? = nil) {
        self.readOnly = readOnly
        self.hidden = hidden
        self.exposed = exposed
        self.required = required
        self.defaultValue = defaultValue
    }

    public var isDefault: Bool { !readOnly && !hidden && !exposed && !required && defaultValue == nil }
}
