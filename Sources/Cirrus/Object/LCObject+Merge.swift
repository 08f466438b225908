import CirrusModel
import Foundation

extension LCObject {
    /// Takes the fields of a server reply: `objectId`, `createdAt`, `updatedAt` and every other field, replacing the
    /// local values of those keys. Pending operations stay pending.
    func merge(_ members: [String: JSON], decoder: ObjectDecoder) {
        var fields: [String: any LCValue] = [:]
        for (key, json) in members where !Self.metadataKeys.contains(key) {
            fields[key] = decoder.field(key, json, parent: self)
        }
        lock.withLock {
            if let id = members["objectId"]?.stringValue { state.objectId = id }
            if members["createdAt"] != nil { state.isDataAvailable = true }
            if let created = ObjectDecoder.date(members["createdAt"]) { state.createdAt = created }
            if let updated = ObjectDecoder.date(members["updatedAt"]) { state.updatedAt = updated }
            if state.updatedAt == nil { state.updatedAt = state.createdAt }
            state.properties.merge(fields) { _, new in new }
        }
    }

    /// Members of a reply that are not fields.
    static let metadataKeys: Set<String> = ["objectId", "createdAt", "updatedAt", WireType.key, "className"]

    /// The pending operations, to send them.
    func pendingOperations() -> [String: Operation] {
        lock.withLock { state.operations }
    }

    /// Takes the pending operations to send them. Operations recorded during the save are pending for the next
    /// one; if the save fails, ``restoreOperations(_:)`` puts the taken ones back in front of them.
    func takeOperations() -> [String: Operation] {
        lock.withLock {
            defer { state.operations = [:] }
            return state.operations
        }
    }

    /// Puts back operations whose save failed, merged with any recorded since (those come after).
    func restoreOperations(_ sent: [String: Operation]) {
        lock.withLock {
            for (key, operation) in sent {
                let newer = state.operations[key]
                state.operations[key] = newer.map { (try? Operation.merge(operation, $0)) ?? $0 } ?? operation
            }
        }
    }

    /// Records a successful save: takes the reply's fields.
    func didSave(_ reply: JSON) {
        merge(reply.objectValue ?? [:], decoder: ObjectDecoder(application: application))
        didSaveFields()
    }

    /// Records a successful fetch: the server's fields replace the local ones (all of them, or only `keys`), and
    /// unsaved changes to them are dropped (seed 001: a fetch overwrites local changes; fetching only some keys keeps
    /// the others').
    func didFetch(_ reply: JSON, keys: [String]? = nil) throws {
        guard let members = reply.objectValue, !members.isEmpty else { throw LCError.objectNotFound() }
        let kept = keysKeptOnFetch
        let fetched = keys.map { Set($0.map { String($0.prefix { $0 != "." }) }) }
        lock.withLock {
            if let fetched {
                state.operations = state.operations.filter { !fetched.contains($0.key) }
            } else {
                state.properties = state.properties.filter { kept.contains($0.key) }
                state.operations = [:]
            }
            state.isDataAvailable = true
        }
        merge(members, decoder: ObjectDecoder(application: application))
        didFetchFields()
    }

    /// The body of a save: the wire form of each pending operation.
    static func body(_ operations: [String: Operation]) -> JSON {
        .object(operations.mapValues(\.json))
    }

    /// The new objects and files `self`'s pending operations point to, directly.
    func unsavedReferences() -> [LCObject] {
        var found: [LCObject] = []
        for operation in pendingOperations().values {
            for value in operation.values { Self.collectUnsaved(value, into: &found) }
        }
        return found
    }

    private static func collectUnsaved(_ value: any LCValue, into found: inout [LCObject]) {
        switch value {
        case let object as LCObject:
            if object.objectId == nil, !found.contains(where: { $0 === object }) { found.append(object) }
        case let array as LCArray:
            for element in array.value { collectUnsaved(element, into: &found) }
        case let dictionary as LCDictionary:
            for element in dictionary.value.values { collectUnsaved(element, into: &found) }
        default:
            break
        }
    }
}
