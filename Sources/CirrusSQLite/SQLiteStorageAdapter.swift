public import CirrusModel
import CirrusSQL
import CirrusSQLAdapter
public import CirrusStorage
import Foundation
import GRDB

/// The embedded store: one SQLite file in WAL mode, one writer and a pool of concurrent readers (GRDB).
///
/// Each class has its own table (`o_<class>`), registered in `_cirrus_classes`; field types live in
/// `_cirrus_fields` and relation members in `_cirrus_relations`. Acknowledged writes are committed in
/// WAL with `synchronous=NORMAL`, which survives a crash or `kill -9` of the process.
public final class SQLiteStorageAdapter: StorageAdapter {
    let pool: DatabasePool
    let dialect = SQLiteDialect()
    let tables = TableDirectory()
    let closeOnce = OnceFlag()

    /// Opens (creating if needed) the database at `path`.
    /// - Parameters:
    ///   - statementTimeout: the longest a statement may run before it is interrupted; `nil` for no limit.
    ///   - regexBudget: how long matching one `$regex` against one value may take (``QueryLimits/regexBudget``).
    /// - Throws: when the file cannot be opened.
    public init(path: String, readers: Int = 4, statementTimeout: Duration? = nil, regexBudget: Duration = QueryLimits().regexBudget) throws {
        var configuration = Configuration()
        configuration.maximumReaderCount = readers
        configuration.busyMode = .timeout(10)
        let regexpFunction = Self.regexpFunction(budget: regexBudget)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            if let statementTimeout { StatementClock.install(on: db, limit: statementTimeout) }
            db.add(function: regexpFunction)
            db.add(function: SQLiteStorageAdapter.refuseFunction)
            db.add(function: SQLiteStorageAdapter.distanceFunction)
            db.add(function: SQLiteStorageAdapter.realTextFunction)
            db.add(function: SQLiteStorageAdapter.polygonFunction)
        }
        pool = try DatabasePool(path: path, configuration: configuration)
    }

    /// `cirrus_regexp(pattern, options, text)`: PCRE-style matching with MongoDB options, stopped after `budget` on
    /// one value (the statement then fails with ``APIError/Reason/queryTooComplex``, see ``SQLiteRefusal``).
    static func regexpFunction(budget: Duration) -> DatabaseFunction {
        DatabaseFunction("cirrus_regexp", argumentCount: 3, pure: true) { values in
            guard let pattern = String.fromDatabaseValue(values[0]), let options = String.fromDatabaseValue(values[1]),
                let text = String.fromDatabaseValue(values[2])
            else { return false }
            do throws(APIError) {
                return try RegexPattern.matches(text, pattern: pattern, options: options, budget: budget)
            } catch {
                throw DatabaseError(message: SQLiteRefusal.message(for: error))
            }
        }
    }

    /// `cirrus_refuse(reason, message)`: fails the statement with that ``APIError`` (``SQLiteRefusal``).
    static let refuseFunction = DatabaseFunction(SQLiteRefusal.function, argumentCount: 2, pure: false) { values in
        let reason = String.fromDatabaseValue(values[0]).flatMap(APIError.Reason.init(rawValue:)) ?? .invalidParameter
        throw DatabaseError(message: SQLiteRefusal.message(for: APIError(reason, String.fromDatabaseValue(values[1]) ?? "")))
    }

    /// `cirrus_real(n)`: a real as the JSON number text that reads back as it (``SQLiteDialect/realText(_:)``).
    static let realTextFunction = DatabaseFunction(SQLiteDialect.realTextFunction, argumentCount: 1, pure: true) { values in
        Double.fromDatabaseValue(values[0]).map(SQLiteDialect.realText)
    }

    /// `cirrus_distance(lat1, lon1, lat2, lon2)`: the great-circle distance in radians between two points in
    /// degrees; NULL unless all four are numbers.
    static let distanceFunction = DatabaseFunction(SQLiteDialect.distanceFunction, argumentCount: 4, pure: true) { values in
        let numbers = values.compactMap { Double.fromDatabaseValue($0) }
        guard numbers.count == 4 else { return nil }
        return GeoPoint.arcDistance(latitude: numbers[0], longitude: numbers[1], toLatitude: numbers[2], longitude: numbers[3])
    }

    /// `cirrus_in_polygon(lat, lon, polygon)`: 1 when the point is inside or on the polygon given as JSON
    /// `[[latitude, longitude], …]`, 0 when outside; NULL for NULL coordinates or a malformed polygon.
    static let polygonFunction = DatabaseFunction(SQLiteDialect.polygonFunction, argumentCount: 3, pure: true) { values in
        guard let latitude = Double.fromDatabaseValue(values[0]), let longitude = Double.fromDatabaseValue(values[1]),
            let text = String.fromDatabaseValue(values[2]), case .array(let vertices) = try? JSONParser.parse(text)
        else { return nil }
        let polygon = vertices.compactMap { vertex -> (latitude: Double, longitude: Double)? in
            guard case .array(let pair) = vertex, pair.count == 2, let vertexLatitude = pair[0].doubleValue,
                let vertexLongitude = pair[1].doubleValue
            else { return nil }
            return (vertexLatitude, vertexLongitude)
        }
        guard polygon.count == vertices.count else { return nil }
        return GeoPoint.isInside(latitude: latitude, longitude: longitude, polygon: polygon) ? 1 : 0
    }

    public func prepare() async throws {
        try await pool.write { db in
            let bookkeeping = MigrationStatements(dialect: self.dialect)
            try self.execute(db, bookkeeping.bootstrap)
            let applied = Set(try self.rows(db, bookkeeping.applied).map { $0[0] as String })
            for migration in SystemSchema.migrations(self.dialect) where !applied.contains(migration.name) {
                for statement in migration.statements { try db.execute(sql: statement) }
                try self.execute(db, bookkeeping.record(migration.name, at: Timestamp.now()))
            }
            try self.migrateUserTable(db, applied: applied)
        }
    }

    public func loadSchemas() async throws -> [ClassSchema] {
        let registry = RegistryStatements(dialect: dialect)
        return try await pool.read { db in
            var schemas: [String: ClassSchema] = [:]
            for row in try self.rows(db, registry.allClasses) {
                let name: String = row[0]
                schemas[name] = ClassSchema(className: name, options: Self.options(row[2]))
                self.tables.record(className: name, table: row[1])
            }
            for row in try self.rows(db, registry.allFields) {
                let name: String = row[0]
                if let type = FieldType(storedName: row[2]) { schemas[name]?.fields[row[1]] = type }
            }
            return schemas.values.sorted { $0.className < $1.className }
        }
    }

    public func loadSchema(of className: String) async throws -> ClassSchema? {
        let registry = RegistryStatements(dialect: dialect)
        return try await pool.read { db in
            guard let row = try self.rows(db, registry.findClass(className)).first else { return nil }
            self.tables.record(className: className, table: row[1])
            return try self.recordedSchema(of: className, options: row[2], db)
        }
    }

    /// The field types and options the registry records for a class.
    /// - Parameter options: the class's stored options when the caller has read its registry row already.
    func recordedSchema(of className: String, options: String?? = nil, _ db: Database) throws -> ClassSchema {
        let registry = RegistryStatements(dialect: dialect)
        let stored = try options ?? rows(db, registry.findClass(className)).first?[2]
        var schema = ClassSchema(className: className, options: Self.options(stored))
        for field in try rows(db, registry.fields(of: className)) {
            if let type = FieldType(storedName: field[2]) { schema.fields[field[1]] = type }
        }
        return schema
    }

    /// A class's options from their stored text (`NULL`: the defaults).
    static func options(_ text: String?) -> ClassOptions {
        guard let text, let json = try? JSONParser.parse(Array(text.utf8)) else { return ClassOptions() }
        return ClassOptions(stored: json)
    }

    /// Moves the write-ahead log into the database file (so that after a clean stop the file alone holds every
    /// write), then closes every connection.
    public func close() async throws {
        // Closing twice is a no-op: GRDB crashes on a second close of the pool.
        guard closeOnce.claim() else { return }
        do {
            try await pool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        } catch {
            try pool.close()
            throw error
        }
        try pool.close()
    }

    /// The client's error for a statement failure its request caused: a refusal raised inside the statement
    /// (``SQLiteRefusal``), or the statement clock's interruption past the statement timeout; `nil` otherwise.
    static func refusal(_ error: DatabaseError) -> APIError? {
        if let refusal = SQLiteRefusal.apiError(fromMessage: error.message) { return refusal }
        return error.resultCode == .SQLITE_INTERRUPT ? .statementTimeout : nil
    }

    /// Runs a fragment and returns its rows; a refusal raised inside the statement is thrown as its ``APIError``.
    func rows(_ db: Database, _ fragment: SQLFragment) throws -> [Row] {
        let (sql, bindings) = try dialect.renderForDatabase(fragment)
        do {
            return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(bindings.map(\.databaseValue)))
        } catch let error as DatabaseError {
            if let refusal = Self.refusal(error) { throw refusal }
            throw error
        }
    }

    /// Runs a fragment that returns no rows.
    func execute(_ db: Database, _ fragment: SQLFragment) throws {
        let (sql, bindings) = try dialect.renderForDatabase(fragment)
        try db.execute(sql: sql, arguments: StatementArguments(bindings.map(\.databaseValue)))
    }

    /// The table of a class, read from the directory or the registry; `nil` if the class does not exist.
    func existingTable(for className: String, _ db: Database) throws -> String? {
        if let table = tables.table(for: className) { return table }
        guard let row = try rows(db, RegistryStatements(dialect: dialect).findClass(className)).first else { return nil }
        let table: String = row[1]
        tables.record(className: className, table: table)
        return table
    }
}

extension SQLValue {
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .int(let number): number.databaseValue
        case .double(let number): number.databaseValue
        case .text(let text): text.databaseValue
        case .blob(let bytes): Data(bytes).databaseValue
        }
    }
}
