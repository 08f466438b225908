import CirrusModel

/// `where` conditions: `or` of `and`s of predicates, with parentheses; `and` binds tighter than `or`.
extension Parser {
    mutating func predicate() throws(CloudQueryError) -> Predicate {
        var parts = [try conjunction()]
        while accept(keyword: "or") { parts.append(try conjunction()) }
        return parts.count == 1 ? parts[0] : .or(parts)
    }

    private mutating func conjunction() throws(CloudQueryError) -> Predicate {
        var parts = [try primary()]
        while accept(keyword: "and") { parts.append(try primary()) }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    private mutating func primary() throws(CloudQueryError) -> Predicate {
        if current.isKeyword("not"), !peek(1).isKeyword("like"), !peek(1).isKeyword("regexp"), !peek(1).isKeyword("in") {
            advance()
            return .not(try primary())
        }
        if accept(symbol: "(") {
            let inner = try predicate()
            try expect(symbol: ")")
            return inner
        }
        if current.isKeyword("related"), peek(1).kind == .word, peek(2).isKeyword("to") || peek(2).isSymbol(".") {
            advance()
            let key = try column()
            try expect(keyword: "to")
            return .related(key: key, object: try value())
        }
        if current.isKeyword("size"), peek(1).isSymbol("(") {
            advance()
            advance()
            let column = try column()
            try expect(symbol: ")")
            try expect(symbol: "=")
            return .size(column, try value())
        }
        return try condition(on: try column())
    }

    static let comparisons: [String: Condition.Comparison] = [
        "=": .equal, "!=": .notEqual, "<>": .notEqual, "<": .lessThan, "<=": .lessThanOrEqual, ">": .greaterThan,
        ">=": .greaterThanOrEqual,
    ]

    /// What follows a column: an operator and its operands.
    private mutating func condition(on column: Column) throws(CloudQueryError) -> Predicate {
        if current.kind == .symbol, let comparison = Self.comparisons[current.text] {
            advance()
            if comparison == .equal || comparison == .notEqual, current.isSymbol("("), peek(1).isKeyword("select") {
                return .compareSelect(column, try subSelect(), negated: comparison == .notEqual)
            }
            return .compare(column, comparison, try value())
        }
        for symbol in ["=", "!=", "<>", "<", "<=", ">", ">="] { note(symbol) }
        let negated = accept(keyword: "not")
        if accept(keyword: "like") { return .like(column, try value(), negated: negated) }
        if accept(keyword: "regexp") { return .regexp(column, try value(), negated: negated) }
        if accept(keyword: "in") { return try membership(column, negated: negated) }
        if negated { throw unexpected() }
        if accept(keyword: "is") {
            let absent = accept(keyword: "not")
            try expect(keyword: "exists")
            return .exists(column, !absent)
        }
        if accept(keyword: "all") { return .all(column, try parenthesizedValues()) }
        if accept(keyword: "near") { return try near(column) }
        if accept(keyword: "within") {
            let southwest = try value()
            try expect(keyword: "and")
            return .within(column, southwest: southwest, northeast: try value())
        }
        throw unexpected()
    }

    /// `(select …)`, the parenthesis being next.
    private mutating func subSelect() throws(CloudQueryError) -> SelectStatement {
        try expect(symbol: "(")
        try expect(keyword: "select")
        let inner = try selectBody()
        try expect(symbol: ")")
        return inner
    }

    /// `in (v, …)` or `in (select …)`.
    private mutating func membership(_ column: Column, negated: Bool) throws(CloudQueryError) -> Predicate {
        if current.isSymbol("("), peek(1).isKeyword("select") {
            return .inSelect(column, try subSelect(), negated: negated)
        }
        return .inList(column, try parenthesizedValues(), negated: negated)
    }

    /// `(v, …)`, possibly empty.
    private mutating func parenthesizedValues() throws(CloudQueryError) -> [Expression] {
        try expect(symbol: "(")
        if accept(symbol: ")") { return [] }
        var values = [try value()]
        while accept(symbol: ",") { values.append(try value()) }
        try expect(symbol: ")")
        return values
    }

    /// `near point [min d unit] [max d unit]`.
    private mutating func near(_ column: Column) throws(CloudQueryError) -> Predicate {
        let point = try value()
        let minimum = accept(keyword: "min") ? try distance() : nil
        let maximum = accept(keyword: "max") ? try distance() : nil
        return .near(column, point, minimum: minimum, maximum: maximum)
    }

    static let units: [String: Distance.Unit] = [
        "km": .kilometers, "kilometers": .kilometers, "miles": .miles, "mile": .miles, "radians": .radians,
    ]

    private mutating func distance() throws(CloudQueryError) -> Distance {
        let token = current
        let amount: Expression
        switch token.kind {
        case .number: amount = try value()
        case .placeholder: amount = placeholder()
        default:
            note("a number")
            throw unexpected()
        }
        if current.kind == .word, let unit = Self.units[current.text.lowercased()] {
            advance()
            return Distance(value: amount, unit: unit)
        }
        for unit in ["km", "miles", "radians"] { note(unit) }
        return Distance(value: amount, unit: .radians)
    }

    /// A column: a word, then `.key` or `.0` segments.
    mutating func column(in clause: String? = nil) throws(CloudQueryError) -> Column {
        let start = current
        if start.kind == .placeholder, let clause {
            throw CloudQueryError(at: start.position, "placeholders are not allowed in \(clause)")
        }
        guard start.kind == .word else {
            note("a column")
            throw unexpected()
        }
        advance()
        var segments = [start.text]
        while current.isSymbol(".") {
            advance()
            let segment = current
            switch segment.kind {
            case .word: segments.append(segment.text)
            case .number where segment.text.allSatisfy({ $0.isNumber || $0 == "." }):
                segments += segment.text.split(separator: ".").map(String.init)
            default:
                note("a key")
                throw unexpected()
            }
            advance()
        }
        return Column(segments, at: start.position)
    }
}
