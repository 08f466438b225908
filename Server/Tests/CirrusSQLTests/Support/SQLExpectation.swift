import CirrusModel
import CirrusSQL
import Testing

/// The SQL one dialect renders for a fragment: the text with that dialect's placeholders, and the
/// bindings in order.
struct DialectSQL: Sendable, CustomStringConvertible {
    let sql: String
    let bindings: [SQLValue]

    init(_ sql: String, _ bindings: [SQLValue]) {
        self.sql = sql
        self.bindings = bindings
    }

    var description: String { sql }
}

/// Checks `fragment` against what `dialect` should render: the text and bindings of ``SQLDialect/render(_:)``
/// and the dialect-free ``SQLFragment/description`` (the same text with `?` for every parameter).
func expectSQL(
    _ fragment: SQLFragment, _ dialect: any SQLDialect, _ expected: DialectSQL,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let rendered = dialect.render(fragment)
    #expect(rendered.sql == expected.sql, "\(dialect.name) text", sourceLocation: sourceLocation)
    #expect(rendered.bindings == expected.bindings, "\(dialect.name) bindings", sourceLocation: sourceLocation)
    #expect(fragment.bindings == expected.bindings, "\(dialect.name) fragment bindings", sourceLocation: sourceLocation)
    #expect(fragment.description == questionMarks(expected.sql), "\(dialect.name) description", sourceLocation: sourceLocation)
}

/// `sql` with every `$n` placeholder written as `?`.
func questionMarks(_ sql: String) -> String {
    var result = ""
    var characters = sql[...]
    while let character = characters.popFirst() {
        if character == "$", let next = characters.first, next.isNumber {
            characters = characters.drop(while: \.isNumber)
            result.append("?")
        } else {
            result.append(character)
        }
    }
    return result
}

/// A `where` JSON and the SQL each dialect compiles it to, with or without ``ConditionCase/schema``.
struct ConditionCase: Sendable, CustomTestStringConvertible {
    let whereJSON: String
    let typed: Bool
    let sqlite: DialectSQL
    let postgres: DialectSQL

    init(_ whereJSON: String, typed: Bool, sqlite: DialectSQL, postgres: DialectSQL) {
        self.whereJSON = whereJSON
        self.typed = typed
        self.sqlite = sqlite
        self.postgres = postgres
    }

    var testDescription: String { (typed ? "with schema " : "") + whereJSON }

    /// The schema of the typed cases: `tags` is an Array, every other named field a scalar.
    static let schema = ClassSchema(className: "T", fields: [
        "name": .string, "n": .number, "flag": .boolean, "d": .date, "p": .pointer(targetClass: "_User"), "f": .file,
        "g": .geoPoint, "o": .object, "b": .bytes, "tags": .array,
    ])

    /// Compiles the case in both dialects and checks the pinned SQL.
    func check(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let condition = try Condition(where: JSONParser.parse(whereJSON))
        let schema = typed ? Self.schema : nil
        let sqliteDialect = SQLiteDialect()
        let postgresDialect = PostgresDialect()
        expectSQL(ConditionCompiler(dialect: sqliteDialect, schema: schema).compile(condition), sqliteDialect, sqlite,
                  sourceLocation: sourceLocation)
        expectSQL(ConditionCompiler(dialect: postgresDialect, schema: schema).compile(condition), postgresDialect, postgres,
                  sourceLocation: sourceLocation)
    }
}
