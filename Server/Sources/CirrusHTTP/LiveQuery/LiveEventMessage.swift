import CirrusLiveQuery
import CirrusModel
import CirrusStorage

/// An event as LeanCloud's LiveQuery SDKs read it (the JSON of a `data` command's message):
/// `{query_id, op, object, updatedKeys?}`, the object in the REST encoding with its `className` (which the SDKs build
/// it by), and Cirrus's `sequence`: the change-log position a client resumes after (LeanCloud's SDKs ignore it).
enum LiveEventMessage {
    /// The name of the object's encoding among a ``LiveObject``'s.
    static let encoding = "leancloud"

    /// The message, its object encoded once for every event of the record that shows it alike.
    static func fragment(_ event: LiveEvent) -> JSONWriter.Fragment {
        var message: [String: JSONWriter.Fragment] = [
            "query_id": .value(.string(event.subscription.queryId)), "op": .value(.string(event.operation.rawValue)),
            "object": .written(event.shown.encoded(encoding, by: object)), "sequence": .value(.int(event.sequence)),
        ]
        if let keys = event.updatedKeys { message["updatedKeys"] = .value(.array(keys.map(JSON.string))) }
        return .object(message)
    }

    /// The message's object: the REST encoding with its `className`.
    static func object(_ shown: LiveObject) -> [UInt8] {
        var object = ObjectEncoder(dialect: .leancloud).encode(shown.value, schema: nil, returnACL: shown.showsACL).objectValue ?? [:]
        object["className"] = .string(shown.value.className)
        return JSONWriter.bytes(.object(object))
    }
}
