/// An object's access control list: who may read and who may write it.
///
/// Keys are `*` (everyone), a user objectId, or `role:<name>`; LeanCloud stores other keys as given,
/// so any string is kept. An object without an ACL is readable and writable by everyone.
public struct ACL: Sendable, Hashable {
    /// The rights of one entry.
    public struct Rights: Sendable, Hashable {
        public var read: Bool
        public var write: Bool

        public init(read: Bool = false, write: Bool = false) {
            self.read = read
            self.write = write
        }
    }

    public var entries: [String: Rights]

    /// A right an entry grants.
    public enum Right: String, Sendable {
        case read, write
    }

    /// Whether an ACL as stored (`nil`: none, so everyone's) grants `right` to one of `principals` (`*`, a user id,
    /// `role:<name>`): the rule the SQL predicate of every read and write applies, for an object in memory.
    public static func grants(_ right: Right, in stored: JSON?, to principals: [String]) -> Bool {
        guard let stored else { return true }
        guard case .object(let entries) = stored else { return false }
        return principals.contains { entries[$0]?.objectValue?[right.rawValue]?.boolValue == true }
    }

    public init(entries: [String: Rights] = [:]) {
        self.entries = entries
    }

    /// Everyone may read and write: LeanCloud's default ACL.
    public static let publicReadWrite = ACL(entries: ["*": Rights(read: true, write: true)])

    /// Decodes `{"*":{"read":true},"<id>":{"read":true,"write":true}}`.
    /// - Throws: ``APIError`` with reason ``APIError/Reason/invalidACL``.
    public init(wire json: JSON) throws(APIError) {
        guard case .object(let members) = json else { throw ACL.invalid("an ACL must be a JSON object") }
        var entries: [String: Rights] = [:]
        for (key, value) in members {
            guard !key.isEmpty, case .object(let flags) = value else {
                throw ACL.invalid("the entry '\(key)' must be an object such as {\"read\":true}")
            }
            var rights = Rights()
            for (flag, setting) in flags {
                guard let enabled = setting.boolValue else { throw ACL.invalid("'\(flag)' of '\(key)' must be a boolean") }
                switch flag {
                case "read": rights.read = enabled
                case "write": rights.write = enabled
                default: throw ACL.invalid("unknown permission '\(flag)' for '\(key)'")
                }
            }
            entries[key] = rights
        }
        self.entries = entries
    }

    /// The wire form; entries with no rights are written as `{}` only if they were given that way.
    public var wire: JSON {
        .object(entries.mapValues { rights in
            var flags: [String: JSON] = [:]
            if rights.read { flags["read"] = true }
            if rights.write { flags["write"] = true }
            return .object(flags)
        })
    }

    private static func invalid(_ detail: String) -> APIError {
        APIError(.invalidACL, "Invalid ACL: \(detail).")
    }
}
