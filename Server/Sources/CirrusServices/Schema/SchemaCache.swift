package import CirrusModel
package import CirrusStorage

/// The class schemas known to this process, read from the store on a miss and updated after writes.
///
/// Field types are re-checked by the store inside each write's transaction, so another instance's change surfaces
/// as a type conflict rather than a wrong write; and instances sharing a database announce schema changes to each
/// other (``ChangeNotice``), which drops the entry here.
package final class SchemaCache: Sendable {
    private let store: any StorageAdapter
    private let state = Protected<[String: ClassSchema]>([:])

    package init(store: any StorageAdapter) {
        self.store = store
    }

    /// Loads every class from the store.
    package func warmUp() async throws {
        let schemas = try await store.loadSchemas()
        state.withValue { cache in
            for schema in schemas { cache[schema.className] = schema }
        }
    }

    /// The schema of a class, or `nil` when the class does not exist.
    package func schema(of className: String) async throws -> ClassSchema? {
        if let cached = state.withValue({ $0[className] }) { return cached }
        guard let loaded = try await store.loadSchema(of: className) else { return nil }
        state.withValue { $0[className] = loaded }
        return loaded
    }

    /// Records field types that a committed write introduced, in the cached schema of the class. A class that is not
    /// cached is left to be loaded whole on its next read: a schema made up here would lack the class's permissions
    /// and options.
    package func record(_ fields: [String: FieldType], in className: String) {
        state.withValue { cache in
            guard var schema = cache[className] else { return }
            for (field, type) in fields { schema.fields[field] = type }
            cache[className] = schema
        }
    }

    /// Forgets a class so that the next read goes to the store.
    package func invalidate(_ className: String) {
        state.withValue { _ = $0.removeValue(forKey: className) }
    }

    /// Forgets every class.
    package func invalidateAll() {
        state.withValue { $0.removeAll() }
    }
}

/// A value behind a lock.
final class Protected<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = Lock()

    init(_ value: Value) {
        self.value = value
    }

    func withValue<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try lock.withLock { try body(&value) }
    }
}
