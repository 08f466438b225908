import CirrusModel
import Foundation

/// Turning objects into dictionaries and back (`dictionaryForObject`, `objectWithDictionary:` of the LeanCloud
/// Objective-C SDK; seed 001 "序列化和反序列化"), to pass them around as plain JSON.
extension LCObject {
    /// The object as a JSON dictionary: `className`, `objectId`, `createdAt` and `updatedAt` when it has them, and every
    /// field in its REST form (other objects as pointers, dates as `{"__type":"Date","iso":…}`); what
    /// `JSONSerialization` writes as it is.
    public func dictionaryForObject() -> [String: Any] {
        let json = ObjectEncoder.snapshot(self)
        let object = try? JSONSerialization.jsonObject(with: Data(JSONWriter.bytes(json)), options: [.fragmentsAllowed])
        return object as? [String: Any] ?? [:]
    }

    /// An object from a dictionary of ``dictionaryForObject()``'s form (`className` required). Without an `objectId`
    /// it is a new object whose fields the next save sends; with one, an object as the server holds it.
    /// - Throws: `LCError` when the dictionary has no `className`, is not JSON, or a field cannot be set.
    public static func object(dictionary: [String: Any], application: LCApplication = .default) throws -> LCObject {
        guard JSONSerialization.isValidJSONObject(dictionary),
            let data = try? JSONSerialization.data(withJSONObject: dictionary), let json = try? JSONParser.parse(data),
            case .object(let members) = json
        else { throw LCError(code: .invalidType, reason: "The dictionary is not a JSON object.") }
        guard let className = members["className"]?.stringValue, !className.isEmpty else {
            throw LCError(code: .invalidType, reason: "The dictionary has no className.")
        }
        let decoder = ObjectDecoder(application: application)
        if members["objectId"]?.stringValue != nil { return decoder.object(json, className: className) }
        let object = ObjectRegistry.make(application: application, className: className)
        for (key, value) in members.sorted(by: { $0.key < $1.key }) where !metadataKeys.contains(key) {
            let decoded = decoder.field(key, value, parent: object)
            guard !(decoded is LCRelation) else { continue }  // members are added through the relation, not set
            try object.set(key, value: decoded)
        }
        return object
    }
}
