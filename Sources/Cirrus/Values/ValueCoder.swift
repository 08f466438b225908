import CirrusModel
import Foundation

/// The SDK's values as the model's: the model's ``Value`` and ``ACL`` hold the wire codec (the `__type` objects of
/// dates, bytes, points, pointers, files and relations) for the server and the SDK alike; this maps one to the other.
enum ValueCoder {
    /// The wire form of `value`. Objects become pointers (`{"__type":"Pointer","className","objectId"}`), files
    /// `{"__type":"File","id"}`.
    static func encode(_ value: any LCValue) -> JSON {
        if let acl = value as? LCACL { return acl.model.wire }
        return Self.value(value).wire
    }

    /// The model value of `value`.
    static func value(_ value: any LCValue) -> Value {
        switch value {
        case let string as LCString: .string(string.value)
        case let numeric as LCNumber: number(numeric.value)
        case let flag as LCBool: .bool(flag.value)
        case is LCNull: .null
        case let array as LCArray: .array(array.value.map(Self.value))
        case let dictionary as LCDictionary: .object(dictionary.value.mapValues(Self.value))
        case let date as LCDate: .date(date.timestamp)
        case let data as LCData: .bytes(base64: data.base64EncodedString)
        case let point as LCGeoPoint: .geoPoint(point.model)
        // An ACL inside another value: its wire members, which are valid nested keys (`*`, ids, `role:<name>`).
        case let acl as LCACL: (try? Value(wire: acl.model.wire)) ?? .object([:])
        case let relation as LCRelation: .relation(className: relation.objectClassName ?? "")
        case let file as LCFile: file.objectId.map { .file(FileReference(id: $0.value)) } ?? .null
        case let object as LCObject: .pointer(pointer(object))
        default: .null
        }
    }

    /// A whole number as an integer, anything else as a double.
    static func number(_ value: Double) -> Value {
        if value.rounded() == value, abs(value) < 9_007_199_254_740_992, let whole = Int64(exactly: value) { return .int(whole) }
        return .double(value)
    }

    /// The pointer to `object`; an object not saved yet points to its local id when it waits in the offline queue
    /// (which puts its objectId there before sending), else to no id, which the server refuses.
    static func pointer(_ object: LCObject) -> Pointer {
        let (objectId, localId) = object.lock.withLock { (object.state.objectId, object.state.localId) }
        return Pointer(className: object.className, objectId: objectId ?? localId.map { EventuallyQueue.localPrefix + $0 } ?? "")
    }

    /// The SDK value of a typed model value (a date, bytes, a point, a file or a relation), or `nil` for the others.
    static func typed(_ value: Value, application: LCApplication, decoder: ObjectDecoder) -> (any LCValue)? {
        switch value {
        case .date(let stamp): return LCDate(stamp)
        case .bytes(let base64): return LCData(base64EncodedString: base64)
        case .geoPoint(let point): return LCGeoPoint(latitude: point.latitude, longitude: point.longitude)
        case .relation(let className): return LCRelation(key: "", parent: nil, objectClassName: className)
        case .file(let reference):
            var fields = reference.extra
            if let id = reference.id { fields["objectId"] = .string(id) }
            if let name = reference.name { fields["name"] = .string(name) }
            if let url = reference.url { fields["url"] = .string(url) }
            let file = LCFile(application: application)
            file.merge(fields, decoder: decoder)
            return file
        default: return nil
        }
    }

    /// The ACL of its wire form, or `nil` when it is not one.
    static func acl(_ json: JSON) -> LCACL? {
        guard let acl = try? ACL(wire: json) else { return nil }
        return LCACL(entries: acl.entries.compactMapValues { rights in
            var permission: LCACL.Permission = []
            if rights.read { permission.insert(.read) }
            if rights.write { permission.insert(.write) }
            return permission
        })
    }
}

extension LCACL {
    /// The model's ACL of these entries.
    var model: ACL {
        ACL(entries: value.mapValues { ACL.Rights(read: $0.contains(.read), write: $0.contains(.write)) })
    }
}

extension LCDate {
    /// The date as the model's timestamp (milliseconds).
    var timestamp: Timestamp {
        Timestamp(millisecondsSince1970: Int64((value.timeIntervalSince1970 * 1000).rounded()))
    }

    /// The date of a model timestamp.
    convenience init(_ stamp: Timestamp) {
        self.init(Date(timeIntervalSince1970: Double(stamp.millisecondsSince1970) / 1000))
    }
}

extension LCGeoPoint {
    /// The model's point, unvalidated: the server refuses one out of range.
    var model: GeoPoint {
        GeoPoint(unvalidatedLatitude: latitude, longitude: longitude)
    }
}
