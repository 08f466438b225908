import CirrusModel
import CirrusPostgres
import CirrusStorage
import CirrusTesting
import Testing

/// Reads `EXPLAIN` for the statements the PostgreSQL store actually runs.
@Suite("The PostgreSQL store's queries use the indexes")
struct PostgresQueryPlanTests {
    static func usesIndex(_ plan: [String], on field: String) -> Bool {
        plan.contains { $0.contains("Index Scan") && $0.contains("o_item_i_\(field)_") }
    }

    @Test("string membership in an Array field reads the field's GIN index once `cirrus index` made it, and finds the same objects")
    func arrayMembership() async throws {
        try await PostgresTestDatabase.withSchema(poolSize: 2) { url in
            let store = try PostgresStorageAdapter(url: url)
            do {
                try await store.prepare()
                var commands: [WriteCommand] = []
                for number in 0..<100 {
                    let stamp = Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(number) * 1000)
                    let tags: JSON = .array([.string("t\(number % 10)"), .string("all"), .int(Int64(number))])
                    let object = StoredObject(className: "Item", objectId: "i\(number)", createdAt: stamp, updatedAt: stamp, acl: nil, fields: ["tags": tags])
                    commands.append(.insert(WriteCommand.Insert(object: object, relations: [], newFields: ["tags": .array], maximumSize: 131_072)))
                }
                for result in try await store.perform(commands, atomically: true) { _ = try result.get() }
                let schema = try #require(try await store.loadSchema(of: "Item"))
                func query(_ text: String) throws -> StorageQuery {
                    StorageQuery(className: "Item", schema: schema, condition: try Condition(where: JSONParser.parse(text)), limit: 1000)
                }
                let conditions = [#"{"tags":"t3"}"#, #"{"tags":{"$all":["t3","all"]}}"#, #"{"tags":{"$in":["t3","t4"]}}"#]
                var before: [Set<String>] = []
                for text in conditions {
                    let plan = try await store.queryPlan(for: try query(text))
                    #expect(!Self.usesIndex(plan, on: "tags"), "\(text): \(plan)")
                    before.append(Set(try await store.find(try query(text)).map(\.objectId)))
                }
                try await store.ensureIndex(className: "Item", path: FieldPath(field: "tags"))
                for (text, found) in zip(conditions, before) {
                    let plan = try await store.queryPlan(for: try query(text))
                    #expect(Self.usesIndex(plan, on: "tags"), "\(text): \(plan)")
                    #expect(Set(try await store.find(try query(text)).map(\.objectId)) == found)
                }
                #expect(before[0].count == 10 && before[1] == before[0] && before[2].count == 20)
                // A number is not prefiltered (containment compares decimals, not the stores' equality): still exact.
                #expect(try await store.find(try query(#"{"tags":7}"#)).map(\.objectId) == ["i7"])
            } catch {
                try await store.close()
                throw error
            }
            try await store.close()
        }
    }
}
