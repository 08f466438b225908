import CirrusModel

/// The full JSON of an object, to keep it on disk (the current user) and read it back with ``ObjectDecoder``.
enum ObjectEncoder {
    /// `className`, `objectId`, `createdAt`, `updatedAt` and every field in its wire form (objects as pointers).
    static func snapshot(_ object: LCObject) -> JSON {
        let state = object.lock.withLock { object.state }
        var members = state.properties.mapValues(ValueCoder.encode)
        members["className"] = .string(object.className)
        if let id = state.objectId { members["objectId"] = .string(id) }
        if let created = object.createdAt { members["createdAt"] = .string(created.isoString) }
        if let updated = object.updatedAt { members["updatedAt"] = .string(updated.isoString) }
        return .object(members)
    }
}
