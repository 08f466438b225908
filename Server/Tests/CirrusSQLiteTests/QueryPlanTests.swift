import CirrusModel
import CirrusSQLite
import CirrusSQLStore
import CirrusStorage
import CirrusTesting
import Testing

/// Reads `EXPLAIN QUERY PLAN` for the statements the SQLite store actually runs, on a real database file.
@Suite("The SQLite store's queries use the indexes")
struct QueryPlanTests {
    /// A prepared store in a fresh directory with 200 `Item` objects (`name`, `score`, `when`), closed and removed afterwards.
    static func withItems(_ body: (SQLiteStorageAdapter, ClassSchema) async throws -> Void) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteStorageAdapter(path: directory.path + "/cirrus.sqlite")
        do {
            try await store.prepare()
            var commands: [WriteCommand] = []
            for number in 0..<200 {
                let stamp = Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(number) * 1000)
                let fields: [String: JSON] = [
                    "name": .string("item\(number)"), "score": .int(Int64(number % 50)),
                    "when": ["__type": "Date", "iso": .string(Timestamp(millisecondsSince1970: 1_600_000_000_000 + Int64(number) * 86_400_000).iso8601)],
                ]
                let object = StoredObject(className: "Item", objectId: "i\(number)", createdAt: stamp, updatedAt: stamp, acl: nil, fields: fields)
                commands.append(.insert(WriteCommand.Insert(
                    object: object, relations: [], newFields: ["name": .string, "score": .number, "when": .date], maximumSize: 131_072
                )))
            }
            for result in try await store.perform(commands, atomically: true) { _ = try result.get() }
            let schema = try #require(try await store.loadSchema(of: "Item"))
            try await body(store, schema)
        } catch {
            try await store.close()
            throw error
        }
        try await store.close()
    }

    static func query(_ schema: ClassSchema, _ whereJSON: String, order: [SortKey] = []) throws -> StorageQuery {
        StorageQuery(className: "Item", schema: schema, condition: try Condition(where: JSONParser.parse(whereJSON)), order: order, limit: 20)
    }

    static func usesIndex(_ plan: [String], on field: String) -> Bool {
        plan.contains { $0.hasPrefix("SEARCH ") && $0.contains("USING INDEX o_item_i_\(field)_") }
    }

    @Test("equality on an indexed String field searches its expression index, and scans without it")
    func equality() async throws {
        try await Self.withItems { store, schema in
            let query = try Self.query(schema, #"{"name":"item7"}"#)
            let before = try await store.queryPlan(for: query)
            #expect(!Self.usesIndex(before, on: "name"), "\(before)")
            try await store.ensureIndex(className: "Item", path: FieldPath(field: "name"))
            let after = try await store.queryPlan(for: query)
            #expect(Self.usesIndex(after, on: "name"), "\(after)")
            #expect(try await store.find(query).map(\.objectId) == ["i7"])
        }
    }

    @Test("a range on an indexed Number field and on an indexed Date field searches the index")
    func ranges() async throws {
        try await Self.withItems { store, schema in
            try await store.ensureIndex(className: "Item", path: FieldPath(field: "score"))
            try await store.ensureIndex(className: "Item", path: FieldPath(field: "when"))
            let numbers = try Self.query(schema, #"{"score":{"$gte":10,"$lt":12}}"#)
            let numberPlan = try await store.queryPlan(for: numbers)
            #expect(Self.usesIndex(numberPlan, on: "score"), "\(numberPlan)")
            #expect(try await store.count(numbers) == 8)
            let dates = try Self.query(schema, #"{"when":{"$lt":{"__type":"Date","iso":"2020-09-16T00:00:00.000Z"}}}"#)
            let datePlan = try await store.queryPlan(for: dates)
            #expect(Self.usesIndex(datePlan, on: "when"), "\(datePlan)")
            #expect(try await store.find(dates).map(\.objectId).sorted() == ["i0", "i1", "i2"])
        }
    }

    @Test("ordering by createdAt, either way, walks the created_at index instead of sorting", arguments: [false, true])
    func createdAtOrder(_ descending: Bool) async throws {
        try await Self.withItems { store, schema in
            let query = try Self.query(schema, "{}", order: [SortKey(path: FieldPath(field: "createdAt"), descending: descending)])
            let plan = try await store.queryPlan(for: query)
            #expect(plan.contains { $0.contains("USING INDEX o_item_created_at") }, "\(plan)")
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
            let first = try await store.find(query).first?.objectId
            #expect(first == (descending ? "i199" : "i0"))
        }
    }

    @Test("ensureIndex is idempotent and refuses a class that does not exist")
    func idempotent() async throws {
        try await Self.withItems { store, _ in
            try await store.ensureIndex(className: "Item", path: FieldPath(field: "name"))
            try await store.ensureIndex(className: "Item", path: FieldPath(field: "name"))
            await #expect(throws: StorageError.self) { try await store.ensureIndex(className: "Nothing", path: FieldPath(field: "name")) }
        }
    }
}
