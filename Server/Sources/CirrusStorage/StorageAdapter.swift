package import CirrusModel

/// The port every store implements: the embedded SQLite adapter and the PostgreSQL adapter.
///
/// Stores run everything that filters and every atomic operation in SQL. They know nothing of
/// dialects, permissions or HTTP; the services validate before calling them. The port is the sum of five
/// concerns, so that a caller can ask for the one it uses: objects, schema, accounts, the changes the instances
/// sharing a database tell each other, and the queue of cloud code's after-hook calls.
package protocol StorageAdapter: ObjectStorage, SchemaStorage, AccountStorage, ChangeNoticeStorage, HookCallStorage, CloudRegistrationStorage, PushStorage, InboxStorage, SearchStorage {
    /// Applies pending migrations of the system tables.
    func prepare() async throws

    /// Releases connections.
    func close() async throws

    /// Where the store tells an observer about its operations (the server's metrics); `nil` for a store that does not.
    var observation: StoreObservation? { get }
}

extension StorageAdapter {
    package var observation: StoreObservation? { nil }
}

/// Objects: writes (with their relation rows and account writes), reads, statistics, relations.
package protocol ObjectStorage: Sendable {
    /// Runs writes in order. Independently: each succeeds or fails alone. Atomically: all commit or
    /// none does, and after the first failure the rest report ``StorageError/rolledBack``.
    func perform(_ commands: [WriteCommand], atomically: Bool) async throws -> [Result<WriteResult, StorageError>]

    /// The objects of a class with these ids, in any order; missing ids are left out.
    func fetch(className: String, ids: [String]) async throws -> [StoredObject]

    /// How the store would run ``find(_:)`` for `query`, a line per step, told to prefer indexes: whether an index can
    /// answer the condition and order, however few rows the class holds. Empty when the class does not exist.
    func queryPlan(for query: StorageQuery) async throws -> [String]

    /// The objects of several classes by pointer, in one statement; missing objects, and objects none of
    /// `readers` may read (`nil`: the master key, who reads all), are left out.
    func fetch(_ pointers: [Pointer], readers: [String]?) async throws -> [StoredObject]

    /// The rows of a statistics query (group keys and computed values), computed in SQL.
    func aggregate(_ request: StorageAggregation) async throws -> [JSON]

    /// The objects matching a query, ordered and paged.
    func find(_ query: StorageQuery) async throws -> [StoredObject]

    /// How many objects match a query (order and page ignored).
    func count(_ query: StorageQuery) async throws -> Int

    /// The members of an object's relation field.
    func relationTargets(className: String, objectId: String, field: String) async throws -> [Pointer]

    /// One page of the members of a relation field across every object of `ownerClass`, ordered by owning
    /// objectId then related objectId, after the pair `after` (the last of the previous page; `nil` for the
    /// first page), at most `limit`. Keyset pagination over the join table's key, for exports: one indexed range
    /// per page, however many objects the class holds.
    func relationMembers(ownerClass: String, field: String, after: RelationMember?, limit: Int) async throws -> [RelationMember]
}

/// Classes: their recorded fields and options, tables and expression indexes.
package protocol SchemaStorage: Sendable {
    /// The schema of every class, as recorded.
    func loadSchemas() async throws -> [ClassSchema]

    /// The recorded schema of one class, or `nil` when the class does not exist.
    func loadSchema(of className: String) async throws -> ClassSchema?

    /// Creates a class if it does not exist (with its table), records new field types (refusing a type that
    /// conflicts with the recorded one, ``StorageError/typeConflict(field:recorded:attempted:)``) and replaces its
    /// options when `options` is given; returns the class as recorded afterwards. One transaction.
    func defineClass(_ className: String, newFields: [String: FieldType], options: ClassOptions?) async throws -> ClassSchema

    /// Removes fields from a class: their recorded types, their values in every object and their relation members.
    /// - Throws: ``StorageError/classNotFound(_:)``.
    func deleteFields(className: String, fields: [String]) async throws

    /// Drops a class that holds no objects: its table, field types and registry entry.
    /// - Throws: ``StorageError/classNotEmpty(count:)`` or ``StorageError/classNotFound(_:)``.
    func deleteClass(className: String) async throws

    /// Creates, if missing, an expression index on the JSON path `path` of the class's objects, so that
    /// equality and range conditions on it (and the class schema must record the field's scalar type, as the
    /// services pass it with every query) read the index instead of scanning the table. Dates are indexed on
    /// their instant and pointers on their objectId; `createdAt`, `updatedAt` and `objectId` are always
    /// indexed. Idempotent.
    /// - Throws: ``StorageError/database(_:)`` when the class does not exist (it has no table to index yet).
    func ensureIndex(className: String, path: FieldPath) async throws

    /// Drops the expression indexes ``ensureIndex(className:path:)`` created on `path`, if any.
    func dropIndex(className: String, path: FieldPath) async throws
}

/// What accounts keep beside the objects: passwords and lock-outs, sessions, roles, linked accounts, codes and sends.
package protocol AccountStorage: Sendable {
    /// A user's stored password and lock-out state, or `nil` when none was ever written.
    func account(userId: String) async throws -> StoredAccount?

    /// The session with this token (expired ones included: the caller decides), or `nil`.
    func session(token: String) async throws -> StoredSession?

    /// Every session of a user, oldest first.
    func sessions(userId: String) async throws -> [StoredSession]

    /// The stored passwords of these users, by user id; users without one are left out. One statement, for
    /// exports reading users a page at a time.
    func passwords(userIds: [String]) async throws -> [String: String]

    /// Every session of these users, grouped by user id and oldest first; one statement.
    func sessions(userIds: [String]) async throws -> [StoredSession]

    /// The names of the roles a user holds: the roles whose `users` relation lists the user, and, transitively,
    /// every role whose `roles` relation lists one of those. Computed in SQL.
    func roleNames(userId: String) async throws -> [String]

    /// The user a third-party account is linked to (``AccountWrite/linkAccount(userId:platform:uid:)``), or `nil`;
    /// one statement through the links' unique index.
    func linkedUser(platform: String, uid: String) async throws -> StoredObject?

    /// The user whose `email` equals `email` ignoring the case of ASCII letters (the one spelled exactly so first), or
    /// `nil`; read through the case-insensitive unique index.
    func user(email: String) async throws -> StoredObject?

    /// Up to `limit` lower-cased e-mail addresses that several users hold in different spellings: while there are
    /// any (a database from before e-mail uniqueness ignored case), e-mail uniqueness stays case-sensitive.
    func caseDuplicateEmails(limit: Int) async throws -> [String]

    /// The code of a purpose sent to a target, or `nil`.
    func code(purpose: String, target: String) async throws -> StoredCode?

    /// The codes of a purpose with this value (Bmob resets a password by code alone).
    func codes(purpose: String, code: String) async throws -> [StoredCode]

    /// How many sends to `target` were recorded at or after `since`.
    func sendCount(target: String, since: Timestamp) async throws -> Int
}

/// The changes the instances sharing one database tell each other, and the change log of committed object writes.
package protocol ChangeNoticeStorage: Sendable {
    /// The committed creates, updates and deletes of objects, in commit order, with the objects before and after:
    /// on a database several instances share, every instance's writes.
    var changeLog: ChangeLog { get }

    /// Adds records no object write produced (a log-in) to the change log, at once.
    func append(_ records: [ChangeRecord]) async throws

    /// Keeps a LiveQuery subscription (replacing one with its query id), removing the client's lapsed ones.
    func saveLiveSubscription(_ subscription: StoredLiveSubscription, now: Timestamp) async throws

    /// Removes a client's subscription; `false` when the client has none with this id.
    func deleteLiveSubscription(queryId: String, clientId: String) async throws -> Bool

    /// A client's subscriptions that have not lapsed at `now`.
    func liveSubscriptions(clientId: String, now: Timestamp) async throws -> [StoredLiveSubscription]

    /// Moves a client's subscription's lapse to `expiresAt`; `false` when the client has none with this id.
    func renewLiveSubscription(queryId: String, clientId: String, until expiresAt: Timestamp) async throws -> Bool

    /// Tells the other instances sharing this database about a committed change. A store only one process uses
    /// has no one to tell.
    func announce(_ notice: ChangeNotice) async

    /// The changes other instances announce, until the store closes.
    func notices() -> AsyncStream<ChangeNotice>
}

extension ChangeNoticeStorage {
    /// One process per database (SQLite): nothing to announce.
    package func announce(_ notice: ChangeNotice) async {}

    /// One process per database (SQLite): no other instance announces anything.
    package func notices() -> AsyncStream<ChangeNotice> {
        AsyncStream { $0.finish() }
    }
}
