/// A role (`_Role`): a named group of users and roles that ACLs grant access to.
open class LCRole: LCObject, @unchecked Sendable {
    open override class func objectClassName() -> String { "_Role" }

    /// A new role named `name`; roles need an ACL (``LCObject/ACL``) to be saved.
    public convenience init(application: LCApplication = .default, name: String) {
        self.init(application: application)
        try? set("name", value: name)
    }

    /// The role's name.
    public var name: LCString? { self.get("name") as? LCString }

    /// The users of the role.
    public var users: LCRelation { relationForKey("users") }

    /// The roles whose users have this role too.
    public var roles: LCRelation { relationForKey("roles") }
}
