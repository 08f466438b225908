import CirrusModel
import CirrusStorage

/// The change log: every committed object write once, in commit order, with the object before and after it; nothing
/// of a write that did not commit.
extension StorageConformance {
    static var changeLogChecks: [StorageCheck] {
        [
            StorageCheck("the change log gets each committed write once, in commit order, with the object before and after it", changeLogImages),
            StorageCheck("a rolled-back batch adds nothing to the change log, and an independent batch only its successful commands", changeLogBatches),
        ]
    }

    /// One record as the checks compare it.
    private struct Entry: Equatable, CustomStringConvertible {
        var kind: ChangeRecord.Kind
        var objectId: String
        var before: [String: JSON]?
        var after: [String: JSON]?
        var updatedKeys: [String] = []

        var description: String {
            "\(kind) \(objectId) \(before.map { JSONWriter.string(.object($0)) } ?? "-") → \(after.map { JSONWriter.string(.object($0)) } ?? "-") \(updatedKeys)"
        }
    }

    /// The next `count` records of `stream` and any that follow within a short wait (a store that reads its log in
    /// the background delivers records a moment after their commit), or fewer if they do not come within 5 s.
    private static func records(_ count: Int, of stream: AsyncStream<ChangeRecord>) async throws -> [ChangeRecord] {
        let collected = Collected()
        let collector = Task {
            for await record in stream {
                collected.append(record)
            }
        }
        defer { collector.cancel() }
        for _ in 0..<250 where collected.count < count { try await Task.sleep(for: .milliseconds(20)) }
        try await Task.sleep(for: .milliseconds(200))
        return collected.records
    }

    private final class Collected: @unchecked Sendable {
        private let lock = Lock()
        private var stored: [ChangeRecord] = []
        func append(_ record: ChangeRecord) { lock.withLock { stored.append(record) } }
        var count: Int { lock.withLock { stored.count } }
        var records: [ChangeRecord] { lock.withLock { stored } }
    }

    private static func entries(_ records: [ChangeRecord]) -> [Entry] {
        records.map { Entry(kind: $0.kind, objectId: $0.objectId, before: $0.before?.fields, after: $0.after?.fields, updatedKeys: $0.updatedKeys) }
    }

    static func changeLogImages(_ driver: StorageConformanceDriver) async throws {
        let stream = driver.store.changeLog.subscribe()
        try await driver.insert("Feed", ["n": 1, "tag": "a"], id: "f1")
        try await driver.insert("Feed", ["n": 2], id: "f2", acl: ["*": ["read": true]])
        try await driver.updated("Feed", "f1", ["n": ["__op": "Increment", "amount": 5], "tag": ["__op": "Delete"]])
        let refused = try await driver.update("Feed", "f1", ["n": 0], condition: .compare(FieldPath(field: "n"), .equal, .int(1)))
        guard case .failure(.conditionNotMatched) = refused else { throw failure("a conditional update that should not match gave \(refused)") }
        let deleted = try await driver.perform(try await driver.deleteCommand("Feed", ["f1", "f2", "missing"]))
        try verifySuccess(deleted, "deleting two objects by id")
        let records = try await records(5, of: stream)
        // One statement deleted both: their order among themselves is the database's.
        let logged = entries(records)
        try verifyEqual(Array(logged.prefix(3)) + logged.dropFirst(3).sorted { $0.objectId < $1.objectId }, [
            Entry(kind: .created, objectId: "f1", before: nil, after: ["n": 1, "tag": "a"]),
            Entry(kind: .created, objectId: "f2", before: nil, after: ["n": 2]),
            Entry(kind: .updated, objectId: "f1", before: ["n": 1, "tag": "a"], after: ["n": 6], updatedKeys: ["n", "tag"]),
            Entry(kind: .deleted, objectId: "f1", before: ["n": 6], after: nil),
            Entry(kind: .deleted, objectId: "f2", before: ["n": 2], after: nil),
        ], "the change log's records")
        try verify(records.allSatisfy { $0.className == "Feed" }, "every record names its class")
        try verifyEqual(records.last(where: { $0.objectId == "f2" })?.before?.acl, ["*": ["read": true]], "a deleted object's ACL in its record")
        try verify(zip(records, records.dropFirst()).allSatisfy { $0.sequence < $1.sequence }, "sequences increase: \(records.map(\.sequence))")
    }

    static func changeLogBatches(_ driver: StorageConformanceDriver) async throws {
        let stream = driver.store.changeLog.subscribe()
        let commands = try await mixedBatch(driver)
        _ = try await driver.store.perform(commands, atomically: true)
        _ = try await driver.store.perform(commands + [try driver.insertCommand("Journal", ["amount": "not a number"], id: "j4")], atomically: false)
        let records = try await records(5, of: stream)
        try verifyEqual(entries(records), [
            Entry(kind: .created, objectId: "acct", before: nil, after: ["balance": 100]),
            Entry(kind: .created, objectId: "j1", before: nil, after: ["amount": 5]),
            Entry(kind: .created, objectId: "j0", before: nil, after: ["amount": 4]),
            Entry(kind: .updated, objectId: "acct", before: ["balance": 100], after: ["balance": 95, "touched": true], updatedKeys: ["balance", "touched"]),
            Entry(kind: .created, objectId: "j2", before: nil, after: ["amount": 6]),
        ], "the records of an insert, a rolled-back batch, then an independent one")
    }
}
