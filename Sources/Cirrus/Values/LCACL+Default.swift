extension LCACL {
    /// Sets the ACL that new objects of `application` get when they are saved without one
    /// (`[LCACL setDefaultACL:acl withAccessForCurrentUser:YES]`): a copy of `acl`, and with
    /// `withAccessForCurrentUser` read and write access for the user logged in when the object is saved. `nil` turns
    /// it off. Users, installations and files keep the server's defaults.
    public static func setDefault(_ acl: LCACL?, withAccessForCurrentUser: Bool, application: LCApplication = .default) {
        application.defaultACL = acl.map { LCApplication.DefaultACL(acl: LCACL(entries: $0.value), withAccessForCurrentUser: withAccessForCurrentUser) }
    }

    /// The default ACL of `application` as a new object saved now would get it, or `nil` when there is none.
    public static func `default`(application: LCApplication = .default) -> LCACL? {
        application.defaultACL?.acl(for: application.currentUser)
    }
}

extension LCApplication {
    /// The ACL of ``LCACL/setDefault(_:withAccessForCurrentUser:application:)``.
    struct DefaultACL: @unchecked Sendable {
        /// Never changed after it is made (a copy of the app's).
        let acl: LCACL
        let withAccessForCurrentUser: Bool

        /// A new copy for one object, with `user`'s access when asked for.
        func acl(for user: LCUser?) -> LCACL {
            let copy = LCACL(entries: acl.value)
            if withAccessForCurrentUser, let id = user?.objectId?.value {
                copy.setAccess([.read, .write], allowed: true, forUserID: id)
            }
            return copy
        }
    }
}
