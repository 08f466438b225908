import CirrusModel
import CirrusQueryLanguage
import Testing

/// The syntax trees of each statement form, with the positions errors and placeholders refer to.
@Suite("CQL and BQL parser")
struct ParserTests {
    static func at(_ line: Int, _ column: Int) -> SourcePosition { SourcePosition(line: line, column: column) }

    static func column(_ dotted: String, _ line: Int, _ column: Int) -> Column {
        Column(dotted.split(separator: ".").map(String.init), at: at(line, column))
    }

    @Test("a select keeps its items, class, where, limit and order with their positions")
    func select() throws {
        let parsed = try CloudQueryLanguage.cql.parse("select count(*), *, include post, a.b from C where x = ? limit ?, 10 order by -a, b desc")
        #expect(parsed.placeholders == [Self.at(1, 56), Self.at(1, 64)])
        #expect(parsed.end == Self.at(1, 89))
        let expected = SelectStatement(
            items: [.count(Self.at(1, 8)), .all(Self.at(1, 18)), .include(Self.column("post", 1, 29)), .column(Self.column("a.b", 1, 35))],
            className: ClassReference("C", at: Self.at(1, 44)),
            whereClause: .compare(Self.column("x", 1, 52), .equal, .placeholder(index: 0, Self.at(1, 56))),
            limit: LimitClause(skip: .placeholder(index: 1, Self.at(1, 64)), count: .literal(10, Self.at(1, 67))),
            order: OrderClause(keys: [OrderClause.Key(Self.column("a", 1, 80), sign: .descending), OrderClause.Key(Self.column("b", 1, 83))], descending: true)
        )
        #expect(parsed.statement == .select(expected))
    }

    @Test("an insert keeps each row and where its parenthesis opens")
    func insert() throws {
        let parsed = try CloudQueryLanguage.cql.parse("insert into C(a, b) values (1, 'x'),\n(-2.5, [true, null])")
        let expected = InsertStatement(
            className: ClassReference("C", at: Self.at(1, 13)), columns: [Self.column("a", 1, 15), Self.column("b", 1, 18)],
            rows: [
                InsertStatement.Row([.literal(1, Self.at(1, 29)), .literal("x", Self.at(1, 32))], at: Self.at(1, 28)),
                InsertStatement.Row([.literal(-2.5, Self.at(2, 2)), .array([.literal(true, Self.at(2, 9)), .literal(.null, Self.at(2, 15))], Self.at(2, 8))], at: Self.at(2, 1)),
            ]
        )
        #expect(parsed.statement == .insert(expected))
    }

    @Test("an update keeps its assignments, function calls and object literals")
    func update() throws {
        let parsed = try CloudQueryLanguage.cql.parse("update C set n = op('Increment', {amount: 1}) where objectId = 'x'")
        let call = Expression.call(
            .op, [.literal("Increment", Self.at(1, 21)), .object([Expression.Member(key: "amount", value: .literal(1, Self.at(1, 43)))], Self.at(1, 34))], Self.at(1, 18)
        )
        let expected = UpdateStatement(
            className: ClassReference("C", at: Self.at(1, 8)), assignments: [UpdateStatement.Assignment(Self.column("n", 1, 14), call)],
            whereClause: .compare(Self.column("objectId", 1, 53), .equal, .literal("x", Self.at(1, 64))), wherePosition: Self.at(1, 47)
        )
        #expect(parsed.statement == .update(expected))
    }

    @Test("a delete keeps its class and where")
    func delete() throws {
        let parsed = try CloudQueryLanguage.cql.parse("delete from C where objectId = ?")
        #expect(parsed.statement == .delete(DeleteStatement(
            className: ClassReference("C", at: Self.at(1, 13)),
            whereClause: .compare(Self.column("objectId", 1, 21), .equal, .placeholder(index: 0, Self.at(1, 32))), wherePosition: Self.at(1, 15)
        )))
    }

    @Test("geo predicates keep their point, distances and units")
    func geo() throws {
        let parsed = try CloudQueryLanguage.cql.parse("select * from C where loc near [1, 2] min 1 km max ? miles")
        guard case .select(let select) = parsed.statement, case .near(_, _, let minimum, let maximum) = select.whereClause else {
            Issue.record("not a near predicate")
            return
        }
        #expect(minimum == Distance(value: .literal(1, Self.at(1, 43)), unit: .kilometers))
        #expect(maximum == Distance(value: .placeholder(index: 0, Self.at(1, 52)), unit: .miles))
    }

    @Test("BQL parses group by, having and statistics; CQL refuses them")
    func statistics() throws {
        let source = "select name, sum(score), groupcount from C group by name having _sumScore > 1"
        let parsed = try CloudQueryLanguage.bql.parse(source)
        guard case .select(let select) = parsed.statement else {
            Issue.record("not a select")
            return
        }
        #expect(select.items == [.column(Self.column("name", 1, 8)), .aggregate(.sum, Self.column("score", 1, 18)), .groupCount(Self.at(1, 26))])
        #expect(select.groupBy == [Self.column("name", 1, 53)])
        #expect(select.having == .compare(Self.column("_sumScore", 1, 65), .greaterThan, .literal(1, Self.at(1, 77))))
        #expect(throws: CloudQueryError.self) { try CloudQueryLanguage.cql.parse(source) }
    }

    @Test("every function parses with its arguments", arguments: Expression.Function.allCases)
    func functions(_ function: Expression.Function) throws {
        let arguments: [Expression.Function: String] = [
            .date: "'2015-01-01T00:00:00.000Z'", .pointer: "'C', 'x'", .geopoint: "1, 2", .file: "'x'", .base64: "'aGk='", .currentTimestamp: "", .op: "'Delete'",
        ]
        let source = "update C set a = \(function.rawValue)(\(arguments[function]!)) where objectId = 'x'"
        guard case .update(let update) = try CloudQueryLanguage.cql.parse(source).statement, case .call(let parsed, _, let position) = update.assignments[0].value else {
            Issue.record("no call parsed")
            return
        }
        #expect(parsed == function)
        #expect(position == Self.at(1, 18))
    }
}
