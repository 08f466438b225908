package import CirrusModel

/// What an export run in the background has come to, kept in the file storage as JSON so that every instance
/// sharing the storage can answer for it.
package struct ExportJobStatus: Sendable, Hashable {
    package enum State: String, Sendable {
        case running, done, failed
    }

    package var id: String
    package var state: State
    package var startedAt: Timestamp
    /// The archive's pieces in the file storage (`exports-<id>.tar.gz.<n>`), when done.
    package var parts = 0
    /// The archive's size in bytes, when done.
    package var size = 0
    /// Why it failed (for the master key's eyes: no stack, no secrets).
    package var error: String?
    /// Objects per class, when done.
    package var classes: [String: Int] = [:]

    package init(id: String, state: State, startedAt: Timestamp) {
        self.id = id
        self.state = state
        self.startedAt = startedAt
    }

    package var stored: JSON {
        var members: [String: JSON] = [
            "id": .string(id), "status": .string(state.rawValue), "startedAt": .string(startedAt.iso8601), "parts": .int(Int64(parts)),
            "size": .int(Int64(size)), "classes": .object(classes.mapValues { .int(Int64($0)) }),
        ]
        if let error { members["error"] = .string(error) }
        return .object(members)
    }

    package init?(stored json: JSON) {
        guard let id = json["id"]?.stringValue, let state = json["status"]?.stringValue.flatMap(State.init(rawValue:)),
            let started = json["startedAt"]?.stringValue.flatMap({ Timestamp(parsing: $0) })
        else { return nil }
        self.init(id: id, state: state, startedAt: started)
        parts = Int(json["parts"]?.intValue ?? 0)
        size = Int(json["size"]?.intValue ?? 0)
        error = json["error"]?.stringValue
        classes = (json["classes"]?.objectValue ?? [:]).compactMapValues { $0.intValue.map(Int.init) }
    }
}
