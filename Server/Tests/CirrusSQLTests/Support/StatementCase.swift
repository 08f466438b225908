import CirrusSQL
import Testing

/// A statement built for each dialect, and the SQL each must render.
struct StatementCase: Sendable, CustomTestStringConvertible {
    let name: String
    let sqlite: DialectSQL
    let postgres: DialectSQL
    let build: @Sendable (any SQLDialect) -> SQLFragment

    init(_ name: String, sqlite: DialectSQL, postgres: DialectSQL, build: @escaping @Sendable (any SQLDialect) -> SQLFragment) {
        self.name = name
        self.sqlite = sqlite
        self.postgres = postgres
        self.build = build
    }

    var testDescription: String { name }

    /// Builds the statement in both dialects and checks the pinned SQL.
    func check(sourceLocation: SourceLocation = #_sourceLocation) {
        expectSQL(build(SQLiteDialect()), SQLiteDialect(), sqlite, sourceLocation: sourceLocation)
        expectSQL(build(PostgresDialect()), PostgresDialect(), postgres, sourceLocation: sourceLocation)
    }
}
