import CirrusModel

/// Which table holds which class; filled from the registry and from committed class creations.
package final class TableDirectory: @unchecked Sendable {
    private var tables: [String: String] = [:]
    private let lock = Lock()

    package init() {}

    package func table(for className: String) -> String? {
        lock.withLock { tables[className] }
    }

    package func record(className: String, table: String) {
        lock.withLock { tables[className] = table }
    }

    package func forget(className: String) {
        lock.withLock { _ = tables.removeValue(forKey: className) }
    }
}

/// True for the first caller of `claim()` only.
package final class OnceFlag: @unchecked Sendable {
    private var claimed = false
    private let lock = Lock()

    package init() {}

    package func claim() -> Bool {
        lock.withLock {
            defer { claimed = true }
            return !claimed
        }
    }
}
