import CirrusModel
import CirrusSQL

/// Compiles what a client's query decodes to into the SQL of both stores, as the stores do, and checks the text's
/// shape: every quoted literal and identifier closed, parentheses balanced outside them, one binding per placeholder.
/// A client's text reaching the SQL unquoted breaks the shape.
enum SQLShape {
    static let dialects: [any AggregationDialect] = [SQLiteDialect(), PostgresDialect()]

    /// The condition compiled for a find on `className`, with a table for every class its sub-queries name.
    static func checkFind(_ query: Query) {
        var tables = ClassTables()
        for (index, name) in query.condition.referencedClassNames.sorted().enumerated() {
            tables.record(name, table: "t\(index)", schema: nil)
        }
        // The class searches its `subject` and `title` (Parse's `$text`), whatever its sub-queries do.
        let schema = ClassSchema(className: query.className, options: ClassOptions(searchFields: ["subject", "title"]))
        tables.record(query.className, table: "objects", schema: schema)
        for dialect in dialects {
            let compiler = ConditionCompiler(dialect: dialect, schema: schema, className: query.className, tables: tables, readers: ["*"])
            let statements = ObjectStatements(dialect: dialect, table: "objects")
            check(dialect, statements.find(where: compiler.compile(query.condition), order: compiler.orderTerms(query.order), limit: query.limit, skip: query.skip))
        }
    }

    /// A statistics query compiled as the stores compile it.
    static func checkAggregation(_ aggregation: Aggregation) {
        for dialect in dialects {
            let condition = ConditionCompiler(dialect: dialect, schema: nil, className: aggregation.className).compile(aggregation.condition)
            check(dialect, AggregationCompiler(dialect: dialect, schema: nil).statement(aggregation, table: "objects", where: condition).sql)
        }
    }

    static func check(_ dialect: any SQLDialect, _ fragment: SQLFragment) {
        let (sql, bindings) = dialect.render(fragment)
        var depth = 0
        var quote: UInt8?
        var placeholders = 0
        let placeholder = dialect.placeholder(1).utf8.first!
        for byte in sql.utf8 {
            if let open = quote {
                if byte == open { quote = nil }  // a doubled quote closes and reopens
                continue
            }
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""): quote = byte
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"):
                depth -= 1
                FuzzCheck.that(depth >= 0, "unbalanced ')' in \(dialect.name) SQL: \(sql)")
            case placeholder: placeholders += 1
            default: break
            }
        }
        FuzzCheck.that(quote == nil, "unclosed quote in \(dialect.name) SQL: \(sql)")
        FuzzCheck.that(depth == 0, "unbalanced '(' in \(dialect.name) SQL: \(sql)")
        FuzzCheck.that(placeholders == bindings.count, "\(placeholders) placeholders for \(bindings.count) bindings in \(dialect.name) SQL: \(sql)")
    }
}
