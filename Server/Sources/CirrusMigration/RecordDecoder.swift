import CirrusModel
import Crypto

/// Reads one exported row of a source (LeanCloud, Parse or Bmob) into a ``DecodedRecord``: the objectId kept (or,
/// for Bmob console exports that have none, derived from the row so that a re-run finds the same one), the dates in
/// the source's format (Bmob's `2011-08-20 02:06:57` is Beijing time, as Cirrus's Bmob dialect reads it), a user's
/// password hash and token moved out of the fields, and the server-internal fields of Parse dropped.
struct RecordDecoder {
    let source: MigrationSource

    /// Minutes east of UTC of dates written without a zone.
    var defaultOffsetMinutes: Int { source == .bmob ? 480 : 0 }

    var idStyle: ObjectID.Style { source == .leancloud ? .hex24 : .alphanumeric10 }

    /// Fields Parse Server keeps for itself; never data.
    static let parseInternalFields: Set<String> = [
        "_email_verify_token", "_email_verify_token_expires_at", "_perishable_token", "_perishable_token_expires_at",
        "_failed_login_count", "_account_lockout_expires_at", "_password_history", "_password_changed_at", "_rperm", "_wperm",
        "_acl", "_tombstone", "_session_token",
    ]

    func decode(_ row: [String: JSON], className: String, line: Int) throws(APIError) -> DecodedRecord {
        var fields = row
        let objectId: String
        switch fields.removeValue(forKey: "objectId") {
        case .string(let id)?:
            guard ObjectID.isAcceptable(id) else { throw APIError(.missingObjectId, "Invalid objectId '\(id)'.") }
            objectId = id
        case nil, .null?:
            objectId = Self.derivedId(className: className, row: row, line: line, style: idStyle)
        default:
            throw APIError(.missingObjectId, "The objectId must be a string.")
        }
        let createdAt = try date(fields.removeValue(forKey: "createdAt"), field: "createdAt")
        let updatedAt = try date(fields.removeValue(forKey: "updatedAt"), field: "updatedAt")
        let acl = fields.removeValue(forKey: "ACL").flatMap { $0.isNull ? nil : $0 }
        fields["className"] = nil
        fields[WireType.key] = nil
        for name in Self.parseInternalFields { fields[name] = nil }
        var record = DecodedRecord(
            className: className, objectId: objectId, createdAt: createdAt ?? updatedAt ?? Timestamp.now(),
            updatedAt: updatedAt ?? createdAt ?? Timestamp.now(), acl: acl, fields: [:]
        )
        if className == "_User" { try takeCredentials(&fields, into: &record) }
        if className == "_Installation" {
            for key in DeviceIdentifier.fields { if case .string(let id)? = fields[key] { fields[key] = .string(DeviceIdentifier.canonical(id)) } }
        }
        record.fields = fields
        return record
    }

    /// A built-in date: a bare string (ISO 8601, or Bmob's spaced form) or a Date object.
    func date(_ value: JSON?, field: String) throws(APIError) -> Timestamp? {
        guard let value, !value.isNull else { return nil }
        let text: String?
        if case .object(let members) = value, members.isTyped(.date) { text = members["iso"]?.stringValue } else { text = value.stringValue }
        guard let text, let timestamp = Timestamp(parsing: text, defaultOffsetMinutes: defaultOffsetMinutes) else {
            throw APIError(.invalidParameter, "Invalid \(field) '\(JSONWriter.string(value))': expected an ISO 8601 date.")
        }
        return timestamp
    }

    /// Moves a user's password and session token out of the fields.
    private func takeCredentials(_ fields: inout [String: JSON], into record: inout DecodedRecord) throws(APIError) {
        let password = fields.removeValue(forKey: "password")
        let salt = fields.removeValue(forKey: "salt")
        let bcrypt = fields.removeValue(forKey: "bcryptPassword") ?? fields.removeValue(forKey: "_hashed_password")
        fields["_hashed_password"] = nil
        let scrypt = fields.removeValue(forKey: "scryptPassword")
        if let token = fields.removeValue(forKey: "sessionToken")?.stringValue, !token.isEmpty { record.sessionToken = token }
        if let text = scrypt?.stringValue, !text.isEmpty {
            guard text.hasPrefix("$scrypt$") else { throw APIError(.invalidParameter, "scryptPassword must be a $scrypt$ string.") }
            record.storedPassword = text
        } else if let text = bcrypt?.stringValue, !text.isEmpty {
            guard ["$2a$", "$2b$", "$2y$"].contains(where: text.hasPrefix) else {
                throw APIError(.invalidParameter, "bcryptPassword must be a bcrypt string ($2a$, $2b$ or $2y$).")
            }
            record.storedPassword = text
        } else if let saltText = salt?.stringValue, !saltText.isEmpty {
            // LeanCloud's export: an empty hash is a user without a password (SMS sign-up): password log-in fails.
            if let hash = password?.stringValue, !hash.isEmpty {
                guard !saltText.contains("$"), !hash.contains("$") else { throw APIError(.invalidParameter, "Invalid password hash or salt.") }
                record.storedPassword = "$leancloud$\(saltText)$\(hash)"
            }
        } else if let text = password?.stringValue, !text.isEmpty {
            record.plainPassword = text
        }
    }

    /// The objectId of a row exported without one: a digest of its class, position and content, so that running the
    /// same import again derives the same id and skips the row.
    static func derivedId(className: String, row: [String: JSON], line: Int, style: ObjectID.Style) -> String {
        let text = className + "\n" + String(line) + "\n" + JSONWriter.string(.object(row))
        let digest = Array(SHA256.hash(data: Array(text.utf8)))
        switch style {
        case .hex24:
            return digest.prefix(12).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        case .alphanumeric10:
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
            return String(digest.prefix(10).map { alphabet[Int($0) % alphabet.count] })
        }
    }
}
