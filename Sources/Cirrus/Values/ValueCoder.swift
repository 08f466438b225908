import CirrusModel
import Foundation

/// The REST encoding of values: `__type` objects for dates, bytes, points, pointers, files and relations.
enum ValueCoder {
    /// The wire form of `value`. Objects become pointers (`{"__type":"Pointer","className","objectId"}`), files
    /// `{"__type":"File","id"}`.
    static func encode(_ value: any LCValue) -> JSON {
        switch value {
        case let string as LCString: .string(string.value)
        case let numeric as LCNumber: number(numeric.value)
        case let flag as LCBool: .bool(flag.value)
        case is LCNull: .null
        case let array as LCArray: .array(array.value.map(encode))
        case let dictionary as LCDictionary: .object(dictionary.value.mapValues(encode))
        case let date as LCDate: .date(iso: date.isoString)
        case let data as LCData: WireType.bytes.value(["base64": .string(data.base64EncodedString)])
        case let point as LCGeoPoint: WireType.geoPoint.value(["latitude": .double(point.latitude), "longitude": .double(point.longitude)])
        case let acl as LCACL: encode(acl)
        case let relation as LCRelation: .relation(to: relation.objectClassName ?? "")
        case let file as LCFile: file.objectId.map { WireType.file.value(["id": .string($0.value)]) } ?? .null
        case let object as LCObject: pointer(object)
        default: .null
        }
    }

    /// A whole number as a JSON integer, anything else as a decimal.
    static func number(_ value: Double) -> JSON {
        if value.rounded() == value, abs(value) < 9_007_199_254_740_992, let whole = Int64(exactly: value) { return .int(whole) }
        return .double(value)
    }

    /// `{"__type":"Pointer","className","objectId"}`.
    static func pointer(_ object: LCObject) -> JSON {
        var members: [String: JSON] = ["className": .string(object.className)]
        if let id = object.objectId?.value { members["objectId"] = .string(id) }
        return WireType.pointer.value(members)
    }

    /// `{"<key>":{"read":true,"write":true}}`; denied permissions are left out.
    static func encode(_ acl: LCACL) -> JSON {
        .object(acl.value.mapValues { permission in
            var entry: [String: JSON] = [:]
            if permission.contains(.read) { entry["read"] = true }
            if permission.contains(.write) { entry["write"] = true }
            return .object(entry)
        })
    }

    /// The ACL of its wire form, or `nil` when it is not an object of entries.
    static func acl(_ json: JSON) -> LCACL? {
        guard let members = json.objectValue else { return nil }
        var entries: [String: LCACL.Permission] = [:]
        for (key, entry) in members {
            var permission: LCACL.Permission = []
            if entry["read"]?.boolValue == true { permission.insert(.read) }
            if entry["write"]?.boolValue == true { permission.insert(.write) }
            if !permission.isEmpty { entries[key] = permission }
        }
        return LCACL(entries: entries)
    }
}
