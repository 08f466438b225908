import CirrusModel
import CirrusServices
import CirrusTesting
import Testing

@Suite("The schema cache")
struct SchemaCacheTests {
    @Test("new field types of a class the cache does not hold leave it to be loaded whole, with its permissions")
    func recordDoesNotMakeUpSchemas() async throws {
        try await TestServer.with { client in
            let defined = try await client.send(.leancloud, .post, "/1.1/schemas/Closed", json: [
                "fields": ["n": ["type": "Number"]], "classLevelPermissions": ["update": ["roles": [], "users": []]],
            ], auth: .master)
            #expect(defined.status == 201, "\(defined.bodyText)")
            let stored = try #require(try await client.store.loadSchema(of: "Closed"))
            let cache = SchemaCache(store: client.store)
            // A write elsewhere committed a new field while the class was not cached (just invalidated, say).
            cache.record(["label": .string], in: "Closed")
            let cached = try #require(try await cache.schema(of: "Closed"))
            #expect(cached.options == stored.options)
            #expect(cached.fields == stored.fields)
            cache.record(["label": .string], in: "Closed")
            #expect(try await cache.schema(of: "Closed")?.fields["label"] == .string)
        }
    }
}
