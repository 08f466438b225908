import CirrusModel

/// `select`: a find with keys, includes, count, order, limit and skip, or (BQL) a statistics query.
extension StatementCompiler {
    func compileSelect(_ select: SelectStatement) throws(CloudQueryError) -> CompiledStatement {
        if Self.isStatistics(select) { return .aggregate(try aggregation(select)) }
        var selectsAll = false
        var counts = false
        var included: [FieldPath] = []
        var include: [FieldPath] = []
        for item in select.items {
            switch item {
            case .all: selectsAll = true
            case .count: counts = true
            case .column(let column): included.append(try path(column))
            case .include(let column): include.append(try path(column))
            case .aggregate, .groupCount: break
            }
        }
        var query = Query(
            className: select.className.name, condition: try condition(select.whereClause), order: try order(select.order),
            keys: selectsAll || included.isEmpty ? nil : KeySelection(included: included), include: include
        )
        (query.skip, query.limit) = try limit(select.limit)
        // `select count(*) from C` asks for the number only.
        if counts, !selectsAll, included.isEmpty, include.isEmpty { query.limit = 0 }
        return .find(CloudFind(query: query, counts: counts))
    }

    /// Whether the select uses BQL statistics.
    static func isStatistics(_ select: SelectStatement) -> Bool {
        !select.groupBy.isEmpty || select.having != nil
            || select.items.contains {
                switch $0 {
                case .aggregate, .groupCount: true
                default: false
                }
            }
    }

    /// `where`, or `always`.
    func condition(_ predicate: Predicate?) throws(CloudQueryError) -> Condition {
        guard let predicate else { return .always }
        return try compilePredicate(predicate, insideCompound: false)
    }

    /// `order by`: signed keys, the trailing `asc`/`desc` applying to unsigned ones; a repeated key counts once.
    func order(_ clause: OrderClause?, resultKeys: Bool = false) throws(CloudQueryError) -> [SortKey] {
        guard let clause else { return [] }
        var keys: [SortKey] = []
        for key in clause.keys {
            let descending = key.sign == .descending || (key.sign == .none && clause.descending)
            keys.append(SortKey(path: resultKeys ? try resultKey(key.column) : try path(key.column), descending: descending))
        }
        return keys.withoutRepeatedKeys
    }

    /// `limit [skip,] n` as (skip, limit): 100 when absent, at most 1000.
    func limit(_ clause: LimitClause?) throws(CloudQueryError) -> (skip: Int, limit: Int) {
        guard let clause else { return (0, Self.defaultLimit) }
        let skip = try clause.skip.map { expression throws(CloudQueryError) in try integer(expression, in: "limit") } ?? 0
        return (skip, min(try integer(clause.count, in: "limit"), Self.maximumLimit))
    }

    /// A non-negative integer, literal or bound.
    func integer(_ expression: Expression, in clause: String) throws(CloudQueryError) -> Int {
        let json = try bind(expression)
        guard let number = json.intValue, number >= 0, number <= Int64(Int32.max) else {
            throw CloudQueryError(at: expression.position, "\(clause) takes a non-negative integer, not \(JSONWriter.string(json))")
        }
        return Int(number)
    }

    /// BQL: `select [keys,] sum(x), count(*), groupcount from C [where …] group by k having … order by …`.
    private func aggregation(_ select: SelectStatement) throws(CloudQueryError) -> Aggregation {
        let groupBy = try select.groupBy.map { column throws(CloudQueryError) in try path(column) }
        var aggregation = Aggregation(
            className: select.className.name, condition: try condition(select.whereClause), groupBy: groupBy,
            having: try select.having.map { predicate throws(CloudQueryError) in try havingCondition(predicate) },
            order: try order(select.order, resultKeys: true)
        )
        for item in select.items {
            switch item {
            case .aggregate(let function, let column): aggregation.functions.append((function, try path(column)))
            case .count, .groupCount: aggregation.countsGroups = true
            case .column(let column):
                guard groupBy.contains(try path(column)) else {
                    throw CloudQueryError(at: column.position, "'\(column)' must be a group by key to be selected with statistics")
                }
            case .all(let position):
                throw CloudQueryError(at: position, "* cannot be selected with statistics")
            case .include(let column):
                throw CloudQueryError(at: column.position, "include cannot be used with statistics")
            }
        }
        (aggregation.skip, aggregation.limit) = try limit(select.limit)
        return aggregation
    }

    /// A result key (`_sumScore`, `_count`) or a group key.
    func resultKey(_ column: Column) throws(CloudQueryError) -> FieldPath {
        if column.segments.count == 1, column.segments[0].hasPrefix("_") { return FieldPath(field: column.segments[0]) }
        return try path(column)
    }
}
