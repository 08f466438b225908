package import CirrusModel
package import CirrusSQL
package import CirrusStorage

/// One connection's statements, for as long as a read or a transaction lasts.
package protocol SQLSession {
    /// Runs a fragment and returns its rows, each as its values in column order.
    func rows(_ fragment: SQLFragment) async throws -> [[SQLValue]]

    /// Runs a fragment that returns no rows (or whose rows do not matter).
    func execute(_ fragment: SQLFragment) async throws
}

/// What a SQL engine gives ``SQLStore``: its dialect, connections for reads and for transactions, and what its
/// errors mean. Everything else a store does (every statement, every rule) is the store's, written once.
package protocol SQLDriver: Sendable {
    associatedtype Dialect: AggregationDialect
    associatedtype Session: SQLSession

    var dialect: Dialect { get }

    /// Waits until the database answers, before the migrations run.
    func open() async throws

    /// Starts the driver's background work (listening to other instances, reading the change log), once the
    /// migrations have run.
    func start() async throws

    /// Runs `body` on one connection as one consistent read.
    /// - Parameters:
    ///   - replica: the read may go to a replica that has replayed every committed write (queries may; gets by id,
    ///     sessions, codes and accounts do not).
    ///   - lookup: the read looks rows up by their keys (objects by id, a session by its token): its cost is bounded
    ///     whatever clients send, unlike a query's, so a driver may run it on the calling thread.
    ///
    /// (`body` returns nothing: the store collects what it reads. Not generic, the driver's path is compiled for its
    /// one use rather than run generically for each result type.)
    func read(replica: Bool, lookup: Bool, _ body: @escaping @Sendable (Session) async throws -> Void) async throws

    /// Runs `body` in a transaction on one connection: committed when it returns, rolled back when it throws.
    func transaction(_ body: @escaping @Sendable (Session) async throws -> Void) async throws

    /// The client's error for a statement failure its request caused (a refused pattern, a statement past the
    /// statement timeout, a number out of range), or `nil`.
    func refusal(_ error: any Error) -> APIError?

    /// A failed write's storage error, for the engine's errors: unique violations name the object id or the field.
    func writeFailure(_ error: any Error) -> StorageError

    /// What went wrong, as the engine tells it (its code and message).
    func describe(_ error: any Error) -> String

    /// The change log this process reads: the committed object changes of the database, in commit order.
    var changeLog: ChangeLog { get }

    /// Adds a transaction's change records to the change log, inside the transaction: they reach ``changeLog`` (every
    /// instance's, where several share the database) when, and only if, it commits, in commit order.
    func log(_ records: [ChangeRecord], in session: Session) async throws

    /// Adds records no object write produced to the change log, at once.
    func append(_ records: [ChangeRecord]) async throws

    /// Tells the other instances about a committed change.
    func announce(_ notice: ChangeNotice) async

    /// The changes other instances announce.
    func notices() -> AsyncStream<ChangeNotice>

    /// Releases the connections.
    func close() async throws
}

extension SQLDriver {
    /// An embedded database answers once opened.
    package func open() async throws {}

    /// In a transaction of their own.
    package func append(_ records: [ChangeRecord]) async throws {
        try await transaction { try await log(records, in: $0) }
    }

    /// Nothing runs in the background of an embedded database.
    package func start() async throws {}

    package func announce(_ notice: ChangeNotice) async {}

    package func notices() -> AsyncStream<ChangeNotice> {
        AsyncStream { $0.finish() }
    }
}
