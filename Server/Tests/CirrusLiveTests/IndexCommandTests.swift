@testable import CirrusSQLite
import CirrusModel
import CirrusSQLStore
import CirrusStorage
import CirrusTesting
import Foundation
import Testing

@Suite("cirrus index")
struct IndexCommandTests {
    @Test("cirrus index adds indexes that equality queries use, while the server runs; an unknown class fails")
    func indexesAFieldOfALiveDatabase() async throws {
        try await Sandbox.with { sandbox in
            let server = try await sandbox.startServer()
            for n in 0..<20 {
                let created = try await server.client.send("POST", "/1.1/classes/Item", json: ["category": .int(Int64(n % 4)), "title": .string("t\(n)")])
                #expect(created.status == 201)
            }
            let command = try sandbox.launch(["index", "--data-dir", sandbox.dataDirectory, "Item", "category", "title"])
            #expect(try await command.waitForExit() == .exited(0))
            #expect(command.output.contains("indexed Item: category, title"))

            let unknown = try sandbox.launch(["index", "--data-dir", sandbox.dataDirectory, "Nothing", "x"])
            #expect(try await unknown.waitForExit() != .exited(0))
            #expect(unknown.output.contains("Nothing"))
            let invalid = try sandbox.launch(["index", "--data-dir", sandbox.dataDirectory, "Item", "bad..path"])
            #expect(try await invalid.waitForExit() != .exited(0))

            let found = try await server.client.send("GET", "/1.1/classes/Item?where=%7B%22category%22%3A1%7D")
            #expect(found.json["results"]?.arrayValue?.count == 5)
            try await server.stop()

            let store = try SQLiteStorageAdapter(path: sandbox.path("data/cirrus.sqlite"))
            let schema = ClassSchema(className: "Item", fields: ["category": .number, "title": .string])
            let query = StorageQuery(className: "Item", schema: schema, condition: .compare(FieldPath(field: "category"), .equal, .int(1)))
            let plan = try await store.queryPlan(for: query)
            try await store.close()
            #expect(plan.contains { $0.contains("USING INDEX") && $0.contains("category") }, "plan: \(plan)")
        }
    }
}
