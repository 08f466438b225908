import CirrusModel
import Foundation

/// Turns REST JSON into values and objects of one app.
struct ObjectDecoder {
    let application: LCApplication

    /// The value of `json`; `__type` objects become their LC types, objects (pointers and included objects)
    /// ``LCObject``s of their class.
    func value(_ json: JSON) -> any LCValue {
        switch json {
        case .null: return LCNull()
        case .bool(let flag): return LCBool(flag)
        case .int(let number): return LCNumber(Double(number))
        case .double(let number): return LCNumber(number)
        case .string(let text): return LCString(text)
        case .array(let elements): return LCArray(values: elements.map(value))
        case .object(let members): return typed(members) ?? LCDictionary(values: members.mapValues(value))
        }
    }

    /// The value of a field of `parent`: like ``value(_:)``, but relations know their field and object.
    func field(_ key: String, _ json: JSON, parent: LCObject) -> any LCValue {
        if key == "ACL", let acl = ValueCoder.acl(json) { return acl }
        if json.isTyped(.relation) {
            return LCRelation(key: key, parent: parent, objectClassName: json["className"]?.stringValue)
        }
        return value(json)
    }

    /// A `__type` value: decoded by the model, but for pointers, which a reply may carry with the fields of the
    /// object they point to (`include`): those become the object, which no field value of the model holds.
    private func typed(_ members: [String: JSON]) -> (any LCValue)? {
        switch members.wireType {
        case .pointer, .object:
            guard let className = members["className"]?.stringValue else { return nil }
            return object(.object(members), className: className)
        case nil: return nil
        default:
            guard let decoded = try? Value(wire: .object(members)) else { return nil }
            return ValueCoder.typed(decoded, application: application, decoder: self)
        }
    }

    /// An object of `className` (an ``LCUser`` for `_User`, …) holding the fields of `json`.
    func object(_ json: JSON, className: String) -> LCObject {
        let object = ObjectRegistry.make(application: application, className: className)
        // A pointer's data is not here; a whole object's (with its createdAt) is, which merge records.
        object.lock.withLock { object.state.isDataAvailable = false }
        object.merge(json.objectValue ?? [:], decoder: self)
        return object
    }

    /// A date of a reply: an ISO text (`createdAt`) or a `{"__type":"Date"}` value.
    static func date(_ json: JSON?) -> Date? {
        if let text = json?.stringValue { return LCDate(isoString: text)?.value }
        if let json, case .date(let stamp)? = try? Value(wire: json) { return LCDate(stamp).value }
        return nil
    }
}
