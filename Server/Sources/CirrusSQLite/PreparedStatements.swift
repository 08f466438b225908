import GRDB
import Synchronization

/// The statements each connection keeps prepared: a statement's SQL text is compiled once per connection and reused
/// with new arguments, instead of being parsed and planned again for every request (compiling was a fifth of a get by
/// id's instructions).
///
/// GRDB's cache of prepared statements keeps every text it is given, and the texts Cirrus runs depend on what
/// clients ask (the shape of a `where`), so each connection's set is bounded: past ``capacity`` texts it is emptied
/// and starts again. A statement that fails is dropped by GRDB; a schema change re-prepares (SQLite) or clears
/// (GRDB) the statements it affects.
final class PreparedStatements: Sendable {
    /// The texts a connection keeps prepared at most.
    static let capacity = 256

    private let texts = Mutex<[ObjectIdentifier: Set<String>]>([:])

    /// The prepared statement of `sql` on `db`, reset and ready for new arguments.
    func statement(_ sql: String, in db: Database) throws -> Statement {
        let connection = ObjectIdentifier(db)
        let overflowed = texts.withLock { texts -> Bool in
            guard texts[connection, default: []].insert(sql).inserted, texts[connection]!.count > Self.capacity else { return false }
            texts[connection] = [sql]
            return true
        }
        // GRDB's only public way to finalize the statements it caches.
        if overflowed { db.clearSchemaCache() }
        return try db.cachedStatement(sql: sql)
    }
}
