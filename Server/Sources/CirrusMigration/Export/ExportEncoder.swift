package import CirrusModel
package import CirrusStorage
import CirrusServices

/// Writes stored objects as export lines: LeanCloud's REST encoding, as the LeanCloud dialect returns objects with
/// the master key (stored documents already use it: files as `{"__type":"File","id"}`, dates, pointers, bytes and
/// geo points as stored), plus the built-in keys, Relation descriptors and an `ACL` always present.
package enum ExportEncoder {
    /// One object; `nil` ACLs (public read and write) are written as `{"*":{"read":true,"write":true}}`.
    package static func encode(_ object: StoredObject, relationFields: [String: String]) -> [String: JSON] {
        var members = object.fields
        for (field, target) in relationFields where members[field] == nil {
            members[field] = .relation(to: target)
        }
        members["objectId"] = .string(object.objectId)
        members["createdAt"] = .string(object.createdAt.iso8601)
        members["updatedAt"] = .string(object.updatedAt.iso8601)
        members["ACL"] = object.acl ?? ACL.publicReadWrite.wire
        return members
    }

    /// The relation fields of a class and their target classes; a role's `users` and `roles` even when unrecorded.
    package static func relationFields(of schema: ClassSchema) -> [String: String] {
        var fields: [String: String] = [:]
        for (name, target) in schema.relationFields { fields[name] = target }
        if schema.className == "_Role" {
            if fields["users"] == nil { fields["users"] = "_User" }
            if fields["roles"] == nil { fields["roles"] = "_Role" }
        }
        return fields
    }

    /// The columns a `_User` line carries for its stored password: `password` + `salt` for LeanCloud's SHA-512 form,
    /// `bcryptPassword` for bcrypt, `scryptPassword` for Cirrus's own. Nothing for no password or an unknown form.
    package static func passwordColumns(_ stored: String?) -> [String: JSON] {
        guard let stored else { return [:] }
        if stored.hasPrefix("$scrypt$") { return ["scryptPassword": .string(stored)] }
        // Malformed bcrypt text too (it never matches, but an export keeps what the store holds).
        if stored.hasPrefix("$2a$") || stored.hasPrefix("$2b$") || stored.hasPrefix("$2y$") { return ["bcryptPassword": .string(stored)] }
        if case .leanCloud(let hash, let salt)? = StoredPassword(storedForm: stored) { return ["password": .string(hash), "salt": .string(salt)] }
        return [:]
    }

    /// A revocable session as a `_Session` line.
    package static func session(_ session: StoredSession) -> [String: JSON] {
        [
            "objectId": .string(session.sessionId),
            "sessionToken": .string(session.token),
            "user": Pointer(className: "_User", objectId: session.userId).wire,
            "expiresAt": session.expiresAt.map { Value.date($0).wire } ?? .null,
            "installationId": session.installationId.map(JSON.string) ?? .null,
            "createdWith": session.createdWith ?? .null,
            "createdAt": .string(session.createdAt.iso8601),
            "updatedAt": .string(session.createdAt.iso8601),
        ]
    }

    /// A class as LeanCloud's `GET /1.1/schemas/<Class>?full=1` describes it: `className`, `fields` (built-in ones
    /// included; Pointer and Relation with their target as `className` and `targetClass`, column flags),
    /// `classLevelPermissions` in LeanCloud's form, `defaultACL` if set and `indexes`.
    package static func schema(_ schema: ClassSchema) -> JSON {
        let roleRelations = schema.className == "_Role" ? relationFields(of: schema).mapValues { FieldType.relation(targetClass: $0) } : [:]
        return schema.wire(fields: schema.wireFields(extra: roleRelations, targetKeys: ["className", "targetClass"]), permissions: .leancloud)
    }
}
