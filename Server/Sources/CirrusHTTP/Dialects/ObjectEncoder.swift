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

    /// ``encode(_:schema:returnACL:keys:include:)`` as a part of a reply: the document the store read is sent as it is
    /// when nothing about the reply changes it (no `keys`, no field picks, no Relation descriptor to add, and no typed
    /// value a dialect other than LeanCloud writes differently), with the built-in keys written after it. JSON readers
    /// keep the last of repeated keys, as ``encode(_:schema:returnACL:keys:include:)`` lets the built-ins win.
    func fragment(
        _ object: StoredObject, schema: ClassSchema?, returnACL: Bool = false, keys: KeySelection? = nil, include: IncludeSelection? = nil
    ) -> JSONWriter.Fragment {
        guard keys == nil, include?.picks.isEmpty ?? true, schema?.relationFields.isEmpty ?? true, let document = object.document,
            document.first == UInt8(ascii: "{"), document.last == UInt8(ascii: "}"), dialect == .leancloud || !Self.hasTypedValue(document)
        else {
            return .value(encode(object, schema: schema, returnACL: returnACL, keys: keys, include: include))
        }
        var text: [UInt8] = []
        text.reserveCapacity(document.count + 120)
        text.append(contentsOf: document.dropLast())
        // A comma before each member, unless the document is empty (`{}`: stored documents are compact) and this is
        // the first.
        var separated = document.count > 2
        func member(_ key: String, _ value: JSON) {
            if separated { text.append(UInt8(ascii: ",")) }
            separated = true
            JSONWriter.writeString(key, into: &text)
            text.append(UInt8(ascii: ":"))
            JSONWriter.write(value, into: &text)
        }
        if returnACL || dialect.alwaysReturnsACL {
            if let acl = object.acl {
                member("ACL", acl)
            } else if returnACL, dialect == .leancloud {
                member("ACL", ACL.publicReadWrite.wire)
            }
        }
        member("createdAt", .string(dialect.format(object.createdAt)))
        member("objectId", .string(object.objectId))
        member("updatedAt", .string(dialect.format(object.updatedAt)))
        text.append(UInt8(ascii: "}"))
        return .written(text)
    }

    /// Whether a document's text holds a typed value (`"__type"`), which dialects other than LeanCloud write their own way.
    static func hasTypedValue(_ document: [UInt8]) -> Bool {
        let marker = Array("__type\"".utf8)
        guard document.count >= marker.count else { return false }
        return document.withUnsafeBufferPointer { bytes in
            var index = 0
            let last = bytes.count - marker.count
            while index <= last {
                if bytes[index] == UInt8(ascii: "_"), bytes[index + 1] == UInt8(ascii: "_") {
                    var offset = 2
                    while offset < marker.count, bytes[index + offset] == marker[offset] { offset += 1 }
                    if offset == marker.count { return true }
                }
                index += 1
            }
            return false
        }
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
