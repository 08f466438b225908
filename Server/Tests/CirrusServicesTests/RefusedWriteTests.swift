import CirrusTesting
import Testing

@Suite("A refused write changes nothing")
struct RefusedWriteTests {
    /// The note every case starts from: its owner alone may write it, everyone reads it.
    static let acl: JSON = ["*": ["read": true], "owner": ["read": true, "write": true]]
    static let owner = Caller(isMaster: false, userId: "owner")
    static let stranger = Caller(isMaster: false, userId: "stranger")

    /// A write that must fail, and the reason it fails with.
    struct RefusedWrite: Sendable, CustomTestStringConvertible {
        let name: String
        let reason: APIError.Reason
        let attempt: @Sendable (ObjectService, String) async throws -> Void

        var testDescription: String { name }
    }

    static let writes: [RefusedWrite] = [
        RefusedWrite(name: "an update by a user the ACL does not let write", reason: .writeDenied) { objects, id in
            _ = try await objects.update("Note", objectId: id, body: ["count": 5], condition: nil, options: WriteOptions(), caller: stranger)
        },
        RefusedWrite(name: "a delete by a user the ACL does not let write", reason: .writeDenied) { objects, id in
            try await objects.delete("Note", objectIds: [id], condition: nil, caller: stranger)
        },
        RefusedWrite(name: "an update whose condition the note fails", reason: .conditionNotMatched) { objects, id in
            let condition = Condition.compare(FieldPath(field: "count"), .greaterThan, .int(10))
            _ = try await objects.update(
                "Note", objectId: id, body: ["count": ["__op": "Increment"], "extra": true], condition: condition, options: WriteOptions(), caller: owner
            )
        },
        RefusedWrite(name: "an update of a Number field with a string", reason: .incorrectType) { objects, id in
            _ = try await objects.update("Note", objectId: id, body: ["count": "many", "extra": true], condition: nil, options: WriteOptions(), caller: owner)
        },
        RefusedWrite(name: "an atomic batch whose second write fails", reason: .objectNotFound) { objects, id in
            let first = try await objects.prepareUpdate(
                "Note", objectId: id, body: ["count": ["__op": "Increment"]], condition: nil, options: WriteOptions(), caller: owner
            ).0
            let second = try await objects.prepareUpdate("Note", objectId: "missing", body: ["count": 1], condition: nil, options: WriteOptions(), caller: owner).0
            let results = try await objects.commit([(.update(first), owner), (.update(second), owner)], atomically: true)
            for result in results {
                if case .failure(let error) = result, error != .rolledBack { throw error.apiError(className: "Note") }
            }
        },
    ]

    @Test("the write fails with its reason and the note, its class and its schema stay as they were", arguments: writes)
    func refused(_ write: RefusedWrite) async throws {
        let app = try await InMemoryServices.make()
        let note = try await app.objects.create("Note", body: ["count": 1, "ACL": Self.acl], options: WriteOptions(), caller: .master)
        do {
            try await write.attempt(app.objects, note.objectId)
            Issue.record("\(write.name) succeeded")
        } catch let error as APIError {
            #expect(error.reason == write.reason, "\(write.name): \(error)")
        }
        let after = try await app.objects.get("Note", objectId: note.objectId, include: [], caller: .master)
        #expect(after?.fields == note.fields, "the note after \(write.name)")
        #expect(after?.updatedAt == note.updatedAt, "updatedAt after \(write.name)")
        #expect(try await app.store.loadSchema(of: "Note")?.fields["extra"] == nil, "a field introduced by \(write.name)")
        #expect(try await app.objects.find(Query(className: "Note"), withCount: true, caller: .master).count == 1, "the notes after \(write.name)")
    }
}
