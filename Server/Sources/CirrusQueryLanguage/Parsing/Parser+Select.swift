import CirrusModel

/// `select` statements: the select list and the clauses after `from`.
extension Parser {
    /// Everything after `select`; also used for sub-selects inside parentheses.
    mutating func selectBody() throws(CloudQueryError) -> SelectStatement {
        var items = [try selectItem()]
        // LeanCloud lists `from` first among the tokens it expected after a select item.
        note("from")
        while accept(symbol: ",") { items.append(try selectItem()) }
        try expect(keyword: "from")
        var statement = SelectStatement(items: items, className: try classReference())
        if accept(keyword: "where") { statement.whereClause = try predicate() }
        try refuseStatistics(at: current)
        if language.hasStatistics {
            if accept(keyword: "group") {
                try expect(keyword: "by")
                statement.groupBy = try columnList(in: "group by")
            }
            if accept(keyword: "having") { statement.having = try having() }
        }
        if accept(keyword: "limit") { statement.limit = try limitClause() }
        if accept(keyword: "order") {
            try expect(keyword: "by")
            statement.order = try orderClause()
        }
        return statement
    }

    private mutating func selectItem() throws(CloudQueryError) -> SelectItem {
        let token = current
        if accept(symbol: "*") { return .all(token.position) }
        if token.isKeyword("count"), peek(1).isSymbol("(") { return try count() }
        if token.isKeyword("include"), peek(1).kind == .word {
            advance()
            return .include(try column())
        }
        if language.hasStatistics {
            if let function = Self.statistics[token.text.lowercased()], token.kind == .word, peek(1).isSymbol("(") {
                advance()
                advance()
                let column = try column()
                try expect(symbol: ")")
                return .aggregate(function, column)
            }
            if token.isKeyword("groupcount") {
                advance()
                return .groupCount(token.position)
            }
        }
        try refuseStatistics(at: token)
        if token.isKeyword("from") {
            note("a column")
            throw unexpected()
        }
        return .column(try column())
    }

    /// In CQL, names the BQL-only statistics syntax (`group by`, `having`, `groupcount`, `sum(…)`, …) at `token`.
    private func refuseStatistics(at token: Token) throws(CloudQueryError) {
        guard !language.hasStatistics, token.kind == .word else { return }
        let word = token.text.lowercased()
        let isStatistic = (Self.statistics[word] != nil && peek(1).isSymbol("("))
            || word == "groupcount" || word == "having" || (word == "group" && peek(1).isKeyword("by"))
        guard isStatistic else { return }
        throw CloudQueryError(at: token.position, "\(word == "group" ? "group by" : word) is BQL statistics syntax; CQL does not support it")
    }

    static let statistics: [String: Aggregation.Function] = [
        "sum": .sum, "average": .average, "avg": .average, "max": .maximum, "min": .minimum,
    ]

    /// `count(*)` or `count(objectId)`.
    private mutating func count() throws(CloudQueryError) -> SelectItem {
        let start = advance().position
        advance()
        if !accept(symbol: "*") {
            guard current.isKeyword("objectid") else {
                note("objectId")
                throw unexpected()
            }
            advance()
        }
        try expect(symbol: ")")
        return .count(start)
    }

    /// Columns separated by commas, where placeholders are refused.
    mutating func columnList(in clause: String) throws(CloudQueryError) -> [Column] {
        var columns = [try column(in: clause)]
        while accept(symbol: ",") { columns.append(try column(in: clause)) }
        return columns
    }

    /// `n` or `skip, n`.
    private mutating func limitClause() throws(CloudQueryError) -> LimitClause {
        let first = try integer(in: "limit")
        guard accept(symbol: ",") else { return LimitClause(count: first) }
        return LimitClause(skip: first, count: try integer(in: "limit"))
    }

    /// A non-negative integer literal or a placeholder.
    private mutating func integer(in clause: String) throws(CloudQueryError) -> Expression {
        let token = current
        switch token.kind {
        case .placeholder:
            return placeholder()
        case .number:
            guard let value = Int64(token.text) else {
                throw CloudQueryError(at: token.position, "\(clause) takes a non-negative integer, not \(token.text)")
            }
            advance()
            return .literal(.int(value), token.position)
        default:
            note("a number")
            throw unexpected()
        }
    }

    /// `-a, b, +c [asc|desc]`; `order by` is the last clause.
    private mutating func orderClause() throws(CloudQueryError) -> OrderClause {
        var keys = [try orderKey()]
        while accept(symbol: ",") { keys.append(try orderKey()) }
        if accept(keyword: "desc") { return OrderClause(keys: keys, descending: true) }
        _ = accept(keyword: "asc")
        return OrderClause(keys: keys)
    }

    private mutating func orderKey() throws(CloudQueryError) -> OrderClause.Key {
        if current.isSymbol("-") {
            advance()
            return OrderClause.Key(try column(in: "order by"), sign: .descending)
        }
        if current.isSymbol("+") {
            advance()
            return OrderClause.Key(try column(in: "order by"), sign: .ascending)
        }
        return OrderClause.Key(try column(in: "order by"))
    }

    /// BQL's `having`: a condition on group keys and result keys, without placeholders.
    private mutating func having() throws(CloudQueryError) -> Predicate {
        placeholderBan = "having"
        defer { placeholderBan = nil }
        return try predicate()
    }
}
