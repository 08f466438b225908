import CirrusModel
import CirrusPostgres
import CirrusSQLStore
import CirrusStorage
import CirrusTesting
import Foundation
import Testing

/// Queries on a streaming replica started on loopback by scripts/test: used while it has caught up, never read behind
/// a committed write.
@Suite("The PostgreSQL store with a read replica", .serialized)
struct PostgresReplicaTests {
    static func insert(_ store: PostgresStorageAdapter, _ name: String) async throws {
        let object = StoredObject(
            className: "Item", objectId: ObjectID.make(.hex24), createdAt: .now(), updatedAt: .now(), acl: nil, fields: ["name": .string(name)]
        )
        let results = try await store.perform([.insert(WriteCommand.Insert(object: object, relations: [], newFields: ["name": .string], maximumSize: 131_072))], atomically: true)
        guard case .success = results[0] else { throw StorageError.database("insert failed: \(results)") }
    }

    static func names(_ store: PostgresStorageAdapter) async throws -> [String] {
        let schema = try await store.loadSchema(of: "Item")
        return try await store.find(StorageQuery(className: "Item", schema: schema, condition: .always, order: [SortKey(path: FieldPath(field: "name"))], limit: 100))
            .compactMap { $0.fields["name"]?.stringValue }
    }

    @Test("queries read the replica once it has caught up, and the primary while its replay is paused, so a write is always visible")
    func readYourWrites() async throws {
        let replica = try PostgresTestDatabase.replicaURL()
        let (primaryURL, schema) = try await PostgresTestDatabase.createSchema(poolSize: 2)
        let application = "cirrus-replica-" + schema
        let store = try PostgresStorageAdapter(url: primaryURL, replicaURL: replica + "?search_path=\(schema)&application_name=\(application)&pool_size=2&connect_timeout=\(PostgresTestDatabase.connectTimeoutSeconds)")
        do {
            try await store.prepare()
            try await Self.insert(store, "a")
            #expect(try await Self.names(store) == ["a"])
            // Once the replica has replayed the insert, queries go to it (its sessions show the application name).
            var served = false
            for _ in 0..<500 where !served {
                _ = try await Self.names(store)
                let count = try await PostgresTestDatabase.value(
                    of: "SELECT count(*)::text FROM pg_stat_activity WHERE application_name = '\(application)'", at: replica)
                served = (Int(count ?? "0") ?? 0) > 0
                if !served { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(served, "no query reached the replica")

            try await PostgresTestDatabase.value(of: "SELECT pg_wal_replay_pause()::text", at: replica)
            do {
                try await Self.insert(store, "b")
                // The paused replica lacks "b": the primary answers.
                #expect(try await Self.names(store) == ["a", "b"])
                let schemaNow = try await store.loadSchema(of: "Item")
                #expect(try await store.count(StorageQuery(className: "Item", schema: schemaNow, condition: .always)) == 2)
            } catch {
                try await PostgresTestDatabase.value(of: "SELECT pg_wal_replay_resume()::text", at: replica)
                throw error
            }
            try await PostgresTestDatabase.value(of: "SELECT pg_wal_replay_resume()::text", at: replica)
        } catch {
            try? await store.close()
            try? await PostgresTestDatabase.dropSchema(schema)
            throw error
        }
        try await store.close()
        try await PostgresTestDatabase.dropSchema(schema)
    }
}
