/// `insert`, `update` and `delete` statements.
extension Parser {
    /// `into C(a, b) values (…), (…)`.
    mutating func insertBody() throws(CloudQueryError) -> InsertStatement {
        try expect(keyword: "into")
        let className = try classReference()
        try expect(symbol: "(")
        let columns = try columnList(in: "a column list")
        try expect(symbol: ")")
        try expect(keyword: "values")
        banBarePlaceholders(in: "insert values")
        defer { liftPlaceholderBan() }
        var rows = [try row()]
        while accept(symbol: ",") { rows.append(try row()) }
        return InsertStatement(className: className, columns: columns, rows: rows)
    }

    private mutating func row() throws(CloudQueryError) -> InsertStatement.Row {
        let start = try expect(symbol: "(").position
        var values = [try value()]
        while accept(symbol: ",") { values.append(try value()) }
        try expect(symbol: ")")
        return InsertStatement.Row(values, at: start)
    }

    /// `C set a = …, b = … where …`.
    mutating func updateBody() throws(CloudQueryError) -> UpdateStatement {
        let className = try classReference()
        try expect(keyword: "set")
        banBarePlaceholders(in: "set")
        var assignments = [try assignment()]
        while accept(symbol: ",") { assignments.append(try assignment()) }
        liftPlaceholderBan()
        let wherePosition = try expect(keyword: "where").position
        return UpdateStatement(className: className, assignments: assignments, whereClause: try predicate(), wherePosition: wherePosition)
    }

    private mutating func assignment() throws(CloudQueryError) -> UpdateStatement.Assignment {
        let column = try column(in: "set")
        try expect(symbol: "=")
        return UpdateStatement.Assignment(column, try value())
    }

    /// BQL takes `?` only in `where`, `limit` and the arguments of built-in functions; CQL takes it in values too.
    private mutating func banBarePlaceholders(in clause: String) {
        guard language == .bql else { return }
        placeholderBan = clause
        callsLiftPlaceholderBan = true
    }

    private mutating func liftPlaceholderBan() {
        placeholderBan = nil
        callsLiftPlaceholderBan = false
    }

    /// `from C where …`.
    mutating func deleteBody() throws(CloudQueryError) -> DeleteStatement {
        try expect(keyword: "from")
        let className = try classReference()
        let wherePosition = try expect(keyword: "where").position
        return DeleteStatement(className: className, whereClause: try predicate(), wherePosition: wherePosition)
    }
}
