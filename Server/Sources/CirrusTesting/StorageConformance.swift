package import CirrusStorage

/// The behaviour every ``StorageAdapter`` must show, as a list of named checks that a test target runs
/// against its own store (Swift Testing cannot declare tests for another target).
///
/// A test target builds one `StorageConformance` from a factory and runs every check, one test each:
///
/// ```swift
/// static let conformance = StorageConformance.inTemporaryDirectory { path in
///     try SQLiteStorageAdapter(path: path + "/cirrus.sqlite")
/// }
///
/// @Test("the store passes the conformance check", arguments: StorageConformance.checks)
/// func conformance(_ check: StorageCheck) async throws {
///     try await Self.conformance.run(check)
/// }
/// ```
///
/// Each check gets a fresh, prepared, empty store; the runner closes it and cleans up afterwards.
/// A failed expectation throws a ``ConformanceFailure`` naming what differed and where.
package struct StorageConformance: Sendable {
    /// A fresh store and how to dispose of what it created.
    package struct Subject: Sendable {
        /// A new store on an empty database; the runner prepares and closes it.
        package let store: any StorageAdapter
        /// Runs after the store is closed: removes its files, drops its database.
        package let cleanup: @Sendable () async throws -> Void

        package init(store: any StorageAdapter, cleanup: @escaping @Sendable () async throws -> Void) {
            self.store = store
            self.cleanup = cleanup
        }

        /// Runs `body` on a prepared store from `make`, closing and cleaning it up afterwards, also on failure.
        static func using<T: Sendable>(
            _ make: @Sendable () async throws -> Subject, _ body: (any StorageAdapter) async throws -> T
        ) async throws -> T {
            let subject = try await make()
            do {
                try await subject.store.prepare()
                let result = try await body(subject.store)
                try await subject.store.close()
                try await subject.cleanup()
                return result
            } catch {
                try? await subject.store.close()
                try? await subject.cleanup()
                throw error
            }
        }
    }

    private let makeSubject: @Sendable () async throws -> Subject

    /// A suite over stores from `makeSubject`, called once per check.
    package init(makeSubject: @escaping @Sendable () async throws -> Subject) {
        self.makeSubject = makeSubject
    }

    /// A suite over stores from `makeStore`; `cleanup` runs with each store after it is closed.
    package init(
        makeStore: @escaping @Sendable () async throws -> any StorageAdapter,
        cleanup: @escaping @Sendable (any StorageAdapter) async throws -> Void
    ) {
        self.init {
            let store = try await makeStore()
            return Subject(store: store) { try await cleanup(store) }
        }
    }

    /// A suite whose stores live in a fresh temporary directory each, removed after the check.
    /// - Parameter open: opens a store whose files go in the given directory.
    package static func inTemporaryDirectory(_ open: @escaping @Sendable (_ directory: String) async throws -> any StorageAdapter) -> StorageConformance {
        StorageConformance {
            let directory = try TemporaryDirectory()
            do {
                return Subject(store: try await open(directory.path)) { directory.remove() }
            } catch {
                directory.remove()
                throw error
            }
        }
    }

    /// Runs one check on a fresh store, then closes the store and cleans up, whatever the outcome.
    /// - Throws: the check's ``ConformanceFailure``, or what the store threw.
    package func run(_ check: StorageCheck) async throws {
        let subject = try await makeSubject()
        var failure: (any Error)?
        do {
            try await subject.store.prepare()
            try await check.body(StorageConformanceDriver(store: subject.store))
        } catch {
            failure = error
        }
        do {
            try await subject.store.close()
        } catch {
            failure = failure ?? error
        }
        do {
            try await subject.cleanup()
        } catch {
            failure = failure ?? error
        }
        if let failure { throw failure }
    }

    /// Every check, in a stable order.
    package static var checks: [StorageCheck] {
        valueChecks + updateChecks + nestedPathChecks + arrayOrderChecks + concurrencyChecks + conditionalChecks
            + schemaChecks + sizeChecks + batchChecks + queryChecks + regexChecks + missingClassChecks + geoChecks + aggregateChecks + operatorMatrixChecks
            + accountChecks + codeChecks + exportChecks + authLinkChecks + limitChecks + changeLogChecks + liveSubscriptionChecks + hookCallChecks + cloudRegistrationChecks + pushChecks + inboxChecks
    }
}

/// One named behaviour of a store.
package struct StorageCheck: Sendable, CustomStringConvertible {
    /// What the check verifies, as a sentence.
    package let name: String
    let body: @Sendable (StorageConformanceDriver) async throws -> Void

    init(_ name: String, _ body: @escaping @Sendable (StorageConformanceDriver) async throws -> Void) {
        self.name = name
        self.body = body
    }

    package var description: String { name }
}

/// A failed expectation of a conformance check, with the place in the suite that stated it.
package struct ConformanceFailure: Error, Sendable, CustomStringConvertible {
    /// What was expected and what the store did.
    package let message: String
    /// Where in the suite the expectation is stated, for a test framework's issue location.
    package let fileID: String
    package let filePath: String
    package let line: Int
    package let column: Int

    package var description: String { "\(message) (\(fileID):\(line))" }
}
