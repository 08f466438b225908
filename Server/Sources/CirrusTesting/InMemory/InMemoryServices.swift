package import CirrusServices
import Logging

/// The services of an app over an ``InMemoryStore``, built as the composition root (`CirrusServer.build`) builds them
/// over a database: for tests of the access policy and the services that need no HTTP and no database.
package struct InMemoryServices: Sendable {
    package let store: InMemoryStore
    package let objects: ObjectService
    package let users: UserService
    package let schema: SchemaService

    /// Services over a new, empty store.
    /// - Parameter accounts: the account settings; by default cheap password hashes, as the test server uses.
    package static func make(accounts: AccountSettings = TestServer.fastAccounts) async throws -> InMemoryServices {
        let store = InMemoryStore()
        try await store.prepare()
        let schemas = SchemaCache(store: store)
        try await schemas.warmUp()
        let objects = ObjectService(
            store: store, schemas: schemas, configuration: ServiceConfiguration(accounts: accounts), logger: Logger(label: "cirrus.in-memory")
        )
        return InMemoryServices(store: store, objects: objects, users: UserService(objects: objects), schema: SchemaService(objects: objects))
    }
}
