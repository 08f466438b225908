import CirrusModel
import CirrusStorage

/// Writes stored objects in a dialect's shape.
///
/// Stored documents use LeanCloud's encoding; Parse marks included objects `__type: "Object"`, and Bmob
/// writes dates as `YYYY-MM-DD HH:MM:SS` in Beijing time and a File's name as `filename`.
struct ObjectEncoder {
    let dialect: Dialect

    /// The reply for one object: its fields, built-in keys, Relation descriptors and (per dialect) ACL, with
    /// `keys` and the field picks of `include` applied.
    func encode(
        _ object: StoredObject, schema: ClassSchema?, returnACL: Bool = false, keys: KeySelection? = nil, include: IncludeSelection? = nil
    ) -> JSON {
        var members: [String: JSON] = [:]
        members.reserveCapacity(object.fields.count + 4)
        for (key, value) in object.fields { members[key] = convert(value) }
        for (field, target) in schema?.relationFields ?? [] where members[field] == nil {
            members[field] = .relation(to: target)
        }
        members["objectId"] = .string(object.objectId)
        members["createdAt"] = .string(dialect.format(object.createdAt))
        members["updatedAt"] = .string(dialect.format(object.updatedAt))
        if returnACL || dialect.alwaysReturnsACL {
            if let acl = object.acl {
                members["ACL"] = acl
            } else if returnACL, dialect == .leancloud {
                members["ACL"] = ACL.publicReadWrite.wire
            }
        }
        if let keys { KeyProjection.apply(keys, to: &members) }
        include?.applyPicks(to: &members)
        return .object(members)
    }

    /// A stored value in this dialect's encoding.
    func convert(_ value: JSON) -> JSON {
        guard dialect != .leancloud else { return value }
        switch value {
        case .array(let elements): return .array(elements.map(convert))
        case .object(var members):
            switch members.wireType {
            case .date:
                if dialect == .bmob, let iso = members["iso"]?.stringValue, let stamp = Timestamp(parsing: iso) {
                    members["iso"] = .string(dialect.format(stamp))
                }
                return .object(members)
            case .file:
                return convertFile(members)
            case .pointer where members["createdAt"] != nil:
                members.tag(.object)
                for (key, member) in members where key != WireType.key { members[key] = convertIncludedMember(key, member) }
                return .object(members)
            default:
                return .object(members.mapValues(convert))
            }
        default:
            return value
        }
    }

    /// A file value in Parse's `{"__type":"File","name":"<key>","url"}` or Bmob's `{"__type":"File","filename","url","cdn"}`
    /// shape. A file expanded from its row (it has a `key`) gets exactly that; a value stored as a client sent it keeps
    /// its members, Bmob's `name` read as `filename`.
    private func convertFile(_ stored: [String: JSON]) -> JSON {
        var members = stored
        if let key = stored["key"], stored["objectId"] != nil {
            members = ["url": stored["url"] ?? .null]
            members.tag(.file)
            switch dialect {
            case .parse: members["name"] = key
            default:
                members["filename"] = stored["name"] ?? key
                members["cdn"] = "cirrus"
            }
            return .object(members)
        }
        if dialect == .bmob, members["filename"] == nil, let name = members.removeValue(forKey: "name") { members["filename"] = name }
        return .object(members)
    }

    private func convertIncludedMember(_ key: String, _ value: JSON) -> JSON {
        if key == "createdAt" || key == "updatedAt", case .string(let iso) = value, let stamp = Timestamp(parsing: iso) {
            return .string(dialect.format(stamp))
        }
        return convert(value)
    }
}
