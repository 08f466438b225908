import CirrusLiveQuery
import CirrusModel
import CirrusStorage

/// An event as LeanCloud's LiveQuery SDKs read it (the JSON of a `data` command's message):
/// `{query_id, op, object, updatedKeys?}`, the object in the REST encoding with its `className` (which the SDKs build
/// it by), and Cirrus's `sequence`: the change-log position a client resumes after (LeanCloud's SDKs ignore it).
enum LiveEventMessage {
    static func json(_ event: LiveEvent) -> JSON {
        let encoder = ObjectEncoder(dialect: .leancloud)
        var object = encoder.encode(event.object, schema: nil, returnACL: event.subscription.returnACL).objectValue ?? [:]
        object["className"] = .string(event.object.className)
        var message: [String: JSON] = [
            "query_id": .string(event.subscription.queryId), "op": .string(event.operation.rawValue), "object": .object(object),
            "sequence": .int(event.sequence),
        ]
        if let keys = event.updatedKeys { message["updatedKeys"] = .array(keys.map(JSON.string)) }
        return .object(message)
    }
}
