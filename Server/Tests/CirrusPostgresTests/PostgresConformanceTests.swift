import CirrusModel
import CirrusPostgres
import CirrusSQLStore
import CirrusStorage
import CirrusTesting
import Testing

@Suite("The PostgreSQL store passes the storage conformance suite")
struct PostgresConformanceTests {
    /// Each check runs in a new schema of the test server, dropped afterwards.
    static let conformance = StorageConformance {
        let (url, schema) = try await PostgresTestDatabase.createSchema(poolSize: 4)
        return StorageConformance.Subject(store: try PostgresStorageAdapter(url: url, connectionWait: PostgresTestDatabase.connectionWait)) { try await PostgresTestDatabase.dropSchema(schema) }
    }

    @Test("the PostgreSQL store behaves as the conformance check requires", arguments: StorageConformance.checks)
    func conformance(_ check: StorageCheck) async throws {
        try await ConformanceFailure.recordingIssues { try await Self.conformance.run(check) }
    }
}

@Suite("What PostgreSQL cannot store")
struct PostgresUnsupportedValueTests {
    @Test("a string with a NUL character is refused as an unsupported value, and the object is not stored")
    func nulCharacter() async throws {
        try await PostgresTestDatabase.withSchema(poolSize: 2) { url in
            let store = try PostgresStorageAdapter(url: url, connectionWait: PostgresTestDatabase.connectionWait)
            try await store.prepare()
            let object = StoredObject(
                className: "Note", objectId: "aaaaaaaaaaaaaaaaaaaaaaaa", createdAt: .now(), updatedAt: .now(), acl: nil, fields: ["text": "a\u{0}b"]
            )
            let results = try await store.perform(
                [.insert(WriteCommand.Insert(object: object, relations: [], newFields: ["text": .string], maximumSize: 131_072))], atomically: false
            )
            guard case .failure(.unsupportedValue) = results[0] else {
                Issue.record("expected unsupportedValue, got \(results[0])")
                try await store.close()
                return
            }
            #expect(try await store.fetch(className: "Note", ids: ["aaaaaaaaaaaaaaaaaaaaaaaa"]).isEmpty)
            try await store.close()
        }
    }
}
