package import CirrusModel

/// Compiles an ``Aggregation`` (Bmob's statistics, BQL's `group by`) into one
/// `SELECT … GROUP BY … HAVING … ORDER BY … LIMIT` over a class table.
///
/// Group keys are the fields' JSON values; Date fields, `createdAt` and `updatedAt` group by day. `sum` and
/// `average` read numbers only (other values count as absent); `max` and `min` also take String and Date
/// fields, as the schema records them. `HAVING` and `ORDER BY` name result keys (`_sumScore`, `_count`) or
/// group keys; the services check the names before compiling.
package struct AggregationCompiler {
    package let dialect: any AggregationDialect
    package let schema: ClassSchema?
    /// The zone in which Date group keys are cut into days, in minutes east of UTC.
    package let dayOffsetMinutes: Int

    package init(dialect: any AggregationDialect, schema: ClassSchema?, dayOffsetMinutes: Int = 0) {
        self.dialect = dialect
        self.schema = schema
        self.dayOffsetMinutes = dayOffsetMinutes
    }

    /// The statement over `table` for the rows satisfying `condition`, and how to read its columns.
    package func statement(_ aggregation: Aggregation, table: String, where condition: SQLFragment) -> AggregationStatement {
        let outputs = self.outputs(aggregation)
        let byKey = Dictionary(outputs.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let selected = outputs.map { "\($0.selected) AS \(raw: dialect.quote($0.alias))" as SQLFragment }
        var sql: SQLFragment = "SELECT \(selected.joined(separator: ", ")) FROM \(raw: dialect.quote(table)) WHERE \(condition)"
        let groups = outputs.filter(\.isGroup)
        if !groups.isEmpty { sql.append(" GROUP BY \(groups.map(\.expression).joined(separator: ", "))") }
        if let having = aggregation.having, having != .always { sql.append(" HAVING \(self.having(having, byKey))") }
        let order = orderTerms(aggregation.order, byKey, groups: groups)
        if !order.isEmpty { sql.append(" ORDER BY \(order.joined(separator: ", "))") }
        sql.append(" LIMIT \(bind: .int(Int64(aggregation.limit))) OFFSET \(bind: .int(Int64(aggregation.skip)))")
        return AggregationStatement(sql: sql, columns: outputs.map { AggregationColumn(key: $0.key, kind: $0.kind) })
    }

    /// Group keys first, then computed values, then `_count`; a repeated key is computed once.
    func outputs(_ aggregation: Aggregation) -> [AggregationOutput] {
        var outputs: [AggregationOutput] = []
        var keys: Set<String> = []
        for (index, path) in aggregation.groupBy.enumerated() where keys.insert(path.description).inserted {
            outputs.append(group(path, alias: "g\(index)"))
        }
        for (index, entry) in aggregation.functions.enumerated() {
            let key = Aggregation.resultKey(entry.function, entry.field)
            guard keys.insert(key).inserted else { continue }
            outputs.append(computed(entry.function, entry.field, key: key, alias: "a\(index)"))
        }
        if aggregation.countsGroups, keys.insert(Self.countKey).inserted {
            let count: SQLFragment = "COUNT(*)"
            outputs.append(AggregationOutput(key: Self.countKey, alias: "n", kind: .number, expression: count, selected: count,
                                             sortKey: SQLFragment(dialect.quote("n")), target: nil, isGroup: false))
        }
        return outputs
    }

    /// The result key of the group size.
    package static let countKey = "_count"

    private func group(_ path: FieldPath, alias: String) -> AggregationOutput {
        let aliasFragment = SQLFragment(dialect.quote(alias))
        func text(_ expression: SQLFragment) -> AggregationOutput {
            AggregationOutput(key: path.description, alias: alias, kind: .text, expression: expression, selected: expression,
                              sortKey: aliasFragment, target: nil, isGroup: true)
        }
        if !path.isNested, let column = ConditionCompiler.builtInColumns[path.root] {
            let quoted = SQLFragment(dialect.quote(column))
            return text(column == "id" ? quoted : dialect.day(ofMilliseconds: quoted, offsetMinutes: dayOffsetMinutes))
        }
        let target = dialect.target(column: ConditionCompiler.documentColumn, path: path)
        if schema?.type(at: path) == .date {
            return text(dialect.day(ofISO: dialect.stringValue(dialect.member("iso", of: target)), offsetMinutes: dayOffsetMinutes))
        }
        let value = dialect.groupValue(target)
        return AggregationOutput(key: path.description, alias: alias, kind: .json, expression: value,
                                 selected: dialect.groupValueText(value), sortKey: dialect.sortExpression(target), target: target,
                                 isGroup: true)
    }

    private func computed(_ function: Aggregation.Function, _ field: FieldPath, key: String, alias: String) -> AggregationOutput {
        let (argument, kind) = operand(function, field)
        let expression: SQLFragment
        switch function {
        case .sum: expression = dialect.sum(argument)
        case .average: expression = "AVG(\(argument))"
        case .maximum: expression = "MAX(\(argument))"
        case .minimum: expression = "MIN(\(argument))"
        }
        return AggregationOutput(key: key, alias: alias, kind: kind, expression: expression, selected: expression,
                                 sortKey: SQLFragment(dialect.quote(alias)), target: nil, isGroup: false)
    }

    /// What a function reads from each row, and the kind of its result: numbers, or for `max` and `min` also
    /// the strings of a String field and the times of a Date field or a built-in date.
    private func operand(_ function: Aggregation.Function, _ field: FieldPath) -> (SQLFragment, AggregationColumn.Kind) {
        let ordersAnyValue = function == .maximum || function == .minimum
        if ordersAnyValue, !field.isNested, let column = ConditionCompiler.builtInColumns[field.root] {
            return (SQLFragment(dialect.quote(column)), column == "id" ? .text : .milliseconds)
        }
        let target = dialect.target(column: ConditionCompiler.documentColumn, path: field)
        if ordersAnyValue {
            switch schema?.type(at: field) {
            case .string?:
                return (dialect.binaryText("CASE WHEN \(dialect.hasKind(target, .string)) THEN \(dialect.stringValue(target)) END"), .text)
            case .date?:
                let iso = dialect.stringValue(dialect.member("iso", of: target))
                return ("CASE WHEN \(dialect.hasKind(target, .object)) THEN \(iso) END", .isoDate)
            default:
                break
            }
        }
        return (dialect.numberOrNull(target), .number)
    }

    /// The requested order, then the group keys not named in it (ascending), so that pages are stable. Missing
    /// values come first in ascending order on every store (SQLite's default; PostgreSQL's is the opposite).
    private func orderTerms(_ order: [SortKey], _ outputs: [String: AggregationOutput], groups: [AggregationOutput]) -> [SQLFragment] {
        var terms: [SQLFragment] = []
        var named: Set<String> = []
        for key in order {
            guard let output = outputs[key.path.description], named.insert(output.key).inserted else { continue }
            terms.append("\(output.sortKey)\(raw: key.descending ? " DESC NULLS LAST" : " ASC NULLS FIRST")")
        }
        for group in groups where !named.contains(group.key) {
            terms.append("\(group.sortKey) ASC NULLS FIRST")
        }
        return terms
    }
}

/// One column of a statistics query.
struct AggregationOutput {
    let key: String
    let alias: String
    let kind: AggregationColumn.Kind
    /// The value, as `HAVING` and `GROUP BY` use it.
    let expression: SQLFragment
    /// The select-list expression.
    let selected: SQLFragment
    let sortKey: SQLFragment
    /// For a group key holding a field's JSON value: the field, which `HAVING` compares with kind checks.
    let target: JSONTarget?
    let isGroup: Bool
}

/// A compiled statistics query and how to read each of its columns.
package struct AggregationStatement: Sendable {
    package let sql: SQLFragment
    /// The result columns in select-list order.
    package let columns: [AggregationColumn]
}

/// A result column: its key in the result rows and the kind of SQL value it holds.
package struct AggregationColumn: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        /// JSON text of a group value.
        case json
        /// A SQL number (or a PostgreSQL `numeric` read as text).
        case number
        /// Text: a day, an objectId, the largest or smallest string.
        case text
        /// The ISO text of a Date field.
        case isoDate
        /// A built-in date in milliseconds since 1970.
        case milliseconds
    }

    package let key: String
    package let kind: Kind

    package init(key: String, kind: Kind) {
        self.key = key
        self.kind = kind
    }

    /// The canonical JSON of one cell of this column; dates become `{"__type":"Date","iso":…}`.
    /// - Throws: ``JSONParser/SyntaxError`` when a JSON or numeric cell does not parse.
    package func decode(_ cell: SQLValue) throws -> JSON {
        switch (kind, cell) {
        case (_, .null): return .null
        case (.json, .text(let text)): return try JSONParser.parse(text)
        case (.number, .text(let text)): return try JSONParser.parse(text)
        case (_, .int(let number)) where kind == .milliseconds:
            return .date(Timestamp(millisecondsSince1970: number))
        case (.isoDate, .text(let iso)): return .date(iso: iso)
        case (_, .int(let number)): return .int(number)
        case (_, .double(let number)): return .double(number)
        case (_, .text(let text)): return .string(text)
        case (_, .blob): return .null
        }
    }
}
