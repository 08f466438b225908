import CirrusModel
import CirrusPostgres
import CirrusSQLStore
import CirrusStorage
import CirrusTesting
import Foundation
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
            let store = try PostgresStorageAdapter(url: url, connectionWait: PostgresTestDatabase.connectionWait)
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

    @Test("a range on an indexed Number field ordered by it reads the index in order (no sort of the matches), in both directions")
    func rangeInIndexOrder() async throws {
        try await PostgresTestDatabase.withSchema(poolSize: 2) { url in
            let store = try PostgresStorageAdapter(url: url, connectionWait: PostgresTestDatabase.connectionWait)
            do {
                try await store.prepare()
                var commands: [WriteCommand] = []
                for number in 0..<3000 {
                    let stamp = Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(number) * 1000)
                    var fields: [String: JSON] = ["score": .int(Int64((number * 7919) % 1000))]
                    if number % 50 == 0 { fields["score"] = number % 100 == 0 ? .null : nil }
                    let object = StoredObject(className: "Item", objectId: "i\(number)", createdAt: stamp, updatedAt: stamp, acl: nil, fields: fields)
                    commands.append(.insert(WriteCommand.Insert(object: object, relations: [], newFields: ["score": .number], maximumSize: 131_072)))
                }
                for result in try await store.perform(commands, atomically: true) { _ = try result.get() }
                try await store.ensureIndex(className: "Item", path: FieldPath(field: "score"))
                // Statistics, as autovacuum gathers them on a real table: without them the planner guesses one row.
                let schemaName = try #require(URLComponents(string: url)?.queryItems?.first { $0.name == "search_path" }?.value)
                _ = try await PostgresTestDatabase.value(of: "ANALYZE \"\(schemaName)\".o_item", at: url)
                let schema = try #require(try await store.loadSchema(of: "Item"))
                for descending in [true, false] {
                    let query = StorageQuery(
                        className: "Item", schema: schema, condition: try Condition(where: JSONParser.parse(#"{"score":{"$gte":100,"$lt":600}}"#)),
                        order: [SortKey(path: FieldPath(field: "score"), descending: descending)], limit: 20
                    )
                    let plan = try await store.queryPlan(for: query)
                    #expect(Self.usesIndex(plan, on: "score"), "\(plan)")
                    #expect(!plan.contains { $0.contains("Sort") }, "\(plan)")
                    let scores = try await store.find(query).compactMap { $0.fields["score"]?.intValue }
                    #expect(scores.count == 20 && scores == (descending ? scores.sorted(by: >) : scores.sorted()))
                    #expect(descending ? scores.first! >= 590 : scores.first! <= 110)
                }
                // Without a condition, missing and null scores still come first ascending and last descending.
                let all = StorageQuery(className: "Item", schema: schema, condition: .always, order: [SortKey(path: FieldPath(field: "score"))], limit: 1000)
                let ascending = try await store.find(all)
                #expect(ascending.prefix(60).allSatisfy { $0.fields["score"] == nil || $0.fields["score"] == .null })
                #expect(ascending.dropFirst(60).allSatisfy { $0.fields["score"]?.intValue != nil })
            } catch {
                try await store.close()
                throw error
            }
            try await store.close()
        }
    }
}
