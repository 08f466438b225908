import CirrusModel

/// One exported object, normalised from its source's conventions, before validation: the built-in columns apart,
/// the password and session token of a user apart, every other field still in the REST encoding.
struct DecodedRecord {
    var className: String
    var objectId: String
    var createdAt: Timestamp
    var updatedAt: Timestamp
    /// The ACL as exported; `nil` when the row has none (stored as none: public read and write, LeanCloud's default).
    var acl: JSON?
    /// Every other field, in the REST encoding.
    var fields: [String: JSON]
    /// A user's password in the store's text form (`$leancloud$…`, a bcrypt string, `$scrypt$…`).
    var storedPassword: String?
    /// A user's password given in clear (an import file written by hand), hashed like a sign-up.
    var plainPassword: String?
    /// A user's stable session token.
    var sessionToken: String?
}
