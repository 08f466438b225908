import CirrusModel
import CirrusQueryLanguage
import Testing

/// Statements compile to the query model of the REST API.
@Suite("CQL and BQL compiler")
struct CompilerTests {
    static let now = Timestamp(millisecondsSince1970: 1_700_000_000_000)

    static func compile(
        _ source: String, _ language: CloudQueryLanguage = .cql, values: [JSON] = [], options: ConditionOptions = ConditionOptions()
    ) throws -> CompiledStatement {
        try StatementCompiler(language: language, values: values, options: options, now: now).compile(source)
    }

    static func query(_ source: String, values: [JSON] = [], options: ConditionOptions = ConditionOptions()) throws -> CloudFind {
        guard case .find(let find) = try compile(source, values: values, options: options) else {
            Issue.record("not a find: \(source)")
            return CloudFind(query: Query(className: ""))
        }
        return find
    }

    static func condition(_ whereText: String, values: [JSON] = [], options: ConditionOptions = ConditionOptions()) throws -> Condition {
        try query("select * from C where " + whereText, values: values, options: options).query.condition
    }

    static func path(_ dotted: String) -> FieldPath { FieldPath(dotted.split(separator: ".").map(String.init)) }

    static func point(_ longitude: Double, _ latitude: Double) -> GeoPoint { try! GeoPoint(latitude: latitude, longitude: longitude) }

    @Test("select * is a find of 100 objects with every key")
    func selectAll() throws {
        let find = try Self.query("select * from GameScore")
        #expect(find == CloudFind(query: Query(className: "GameScore")))
    }

    @Test("columns become keys; limit takes skip and count; order signs and the trailing direction apply")
    func selectClauses() throws {
        let find = try Self.query("select name, stats.score from C where score < 11 limit 5, 10 order by -score, name, +age desc")
        let expected = Query(
            className: "C", condition: .compare(Self.path("score"), .lessThan, .int(11)),
            order: [SortKey(path: Self.path("score"), descending: true), SortKey(path: Self.path("name"), descending: true), SortKey(path: Self.path("age"))],
            limit: 10, skip: 5, keys: KeySelection(included: [Self.path("name"), Self.path("stats.score")])
        )
        #expect(find == CloudFind(query: expected))
    }

    @Test("order by ends ascending by default and asc may be written")
    func orderAscending() throws {
        #expect(try Self.query("select * from C order by a, -b asc").query.order == [SortKey(path: Self.path("a")), SortKey(path: Self.path("b"), descending: true)])
        #expect(try Self.query("select * from C order by a").query.order == [SortKey(path: Self.path("a"))])
    }

    @Test("count(*) alone asks for the number only; with * or keys it also returns objects")
    func counts() throws {
        #expect(try Self.query("select count(*) from C").query.limit == 0)
        #expect(try Self.query("select count(*) from C").counts)
        let both = try Self.query("select *, count(objectId) from C limit 10")
        #expect(both.counts && both.query.limit == 10 && both.query.keys == nil)
        #expect(!(try Self.query("select * from C").counts))
    }

    @Test("include names pointer paths to expand")
    func includes() throws {
        let find = try Self.query("select include post.author, include comments, * from C")
        #expect(find.query.include == [Self.path("post.author"), Self.path("comments")])
        #expect(find.query.keys == nil)
    }

    @Test("a limit above 1000 is clamped to 1000")
    func limitClamp() throws {
        #expect(try Self.query("select * from C limit 5000").query.limit == 1000)
    }

    static let date = Timestamp(parsing: "2015-05-20T00:00:00.000Z")!

    struct Case: Sendable, CustomTestStringConvertible {
        let text: String
        let condition: Condition
        var testDescription: String { text }
    }

    static let predicates: [Case] = [
        Case(text: "a = 1", condition: .compare(path("a"), .equal, .int(1))),
        Case(text: "a != 'x'", condition: .compare(path("a"), .notEqual, .string("x"))),
        Case(text: "a <> 'x'", condition: .compare(path("a"), .notEqual, .string("x"))),
        Case(text: "a < 1.5", condition: .compare(path("a"), .lessThan, .double(1.5))),
        Case(text: "a <= -2", condition: .compare(path("a"), .lessThanOrEqual, .int(-2))),
        Case(text: "a > 1", condition: .compare(path("a"), .greaterThan, .int(1))),
        Case(text: "a >= 1", condition: .compare(path("a"), .greaterThanOrEqual, .int(1))),
        Case(text: "a = true and b = null", condition: .and([.compare(path("a"), .equal, .bool(true)), .compare(path("b"), .equal, .null)])),
        Case(text: "a.b.0 = 1", condition: .compare(path("a.b.0"), .equal, .int(1))),
        Case(text: "a like 'ab%c_'", condition: .regex(path("a"), pattern: "^ab.*c.$", options: "s")),
        Case(text: #"a like '1+1=2 (\%) [ok]?'"#, condition: .regex(path("a"), pattern: #"^1\+1=2\ \(%\)\ \[ok\]\?$"#, options: "s")),
        Case(text: "a not like 'x%'", condition: .nor([.regex(path("a"), pattern: "^x.*$", options: "s")])),
        Case(text: "a regexp '^a.c'", condition: .regex(path("a"), pattern: "^a.c", options: "")),
        Case(text: "a not regexp 'x'", condition: .nor([.regex(path("a"), pattern: "x", options: "")])),
        Case(text: "a in (1, 'two')", condition: .inList(path("a"), [.int(1), .string("two")], negated: false)),
        Case(text: "a not in (1)", condition: .inList(path("a"), [.int(1)], negated: true)),
        Case(text: "a is exists", condition: .exists(path("a"), true)),
        Case(text: "a is not exists", condition: .exists(path("a"), false)),
        Case(text: "tags = 'x'", condition: .compare(path("tags"), .equal, .string("x"))),
        Case(text: "tags all ('a', 'b')", condition: .containsAll(path("tags"), [.string("a"), .string("b")])),
        Case(text: "size(tags) = 3", condition: .size(path("tags"), 3)),
        Case(text: "post = pointer('Post', 'abc')", condition: .compare(path("post"), .equal, .pointer(Pointer(className: "Post", objectId: "abc")))),
        Case(
            text: "post = {className: 'Post', 'objectId': 'abc', __type: 'Pointer'}",
            condition: .compare(path("post"), .equal, .pointer(Pointer(className: "Post", objectId: "abc")))
        ),
        Case(text: "related likes to pointer('Post', 'abc')", condition: .relatedTo(Pointer(className: "Post", objectId: "abc"), key: "likes")),
        Case(text: "loc near [116.4, 39.9]", condition: .near(path("loc"), point(116.4, 39.9), maximumDistance: nil, minimumDistance: nil)),
        Case(
            text: "loc near geopoint(116.4, 39.9) max 10 km",
            condition: .near(path("loc"), point(116.4, 39.9), maximumDistance: 10 / Condition.earthRadiusKilometers, minimumDistance: nil)
        ),
        Case(
            text: "loc near [1, 2] min 1 miles max 0.5 radians",
            condition: .near(path("loc"), point(1, 2), maximumDistance: 0.5, minimumDistance: 1 / Condition.earthRadiusMiles)
        ),
        Case(text: "loc near [1, 2] max 0.25", condition: .near(path("loc"), point(1, 2), maximumDistance: 0.25, minimumDistance: nil)),
        Case(text: "loc within [116, 39] and geopoint(117, 40)", condition: .withinBox(path("loc"), southwest: point(116, 39), northeast: point(117, 40))),
        Case(
            text: "a = 1 and b = 2 or c = 3",
            condition: .or([.and([.compare(path("a"), .equal, .int(1)), .compare(path("b"), .equal, .int(2))]), .compare(path("c"), .equal, .int(3))])
        ),
        Case(
            text: "a = 1 AND (b = 2 OR c = 3)",
            condition: .and([.compare(path("a"), .equal, .int(1)), .or([.compare(path("b"), .equal, .int(2)), .compare(path("c"), .equal, .int(3))])])
        ),
        Case(text: "not (a = 1 or b = 2)", condition: .nor([.or([.compare(path("a"), .equal, .int(1)), .compare(path("b"), .equal, .int(2))])])),
        Case(text: "createdAt > date('2015-05-20T00:00:00.000Z')", condition: .compare(path("createdAt"), .greaterThan, .date(date))),
        Case(text: "data = base64('aGVsbG8=')", condition: .compare(path("data"), .equal, .bytes(base64: "aGVsbG8="))),
        Case(text: "f = file('abc')", condition: .compare(path("f"), .equal, .file(FileReference(id: "abc")))),
        Case(text: "f = file('a.png', 'http://x/a.png')", condition: .compare(path("f"), .equal, .file(FileReference(name: "a.png", url: "http://x/a.png")))),
        Case(text: "t < current_timestamp()", condition: .compare(path("t"), .lessThan, .date(now))),
        Case(
            text: "post in (select * from Post where title = 'x')",
            condition: .inQuery(path("post"), SubQuery(className: "Post", condition: .compare(path("title"), .equal, .string("x"))), negated: false)
        ),
        Case(text: "post not in (select * from Post)", condition: .inQuery(path("post"), SubQuery(className: "Post", condition: .always), negated: true)),
        Case(
            text: "name in (select author from Post limit 20)",
            condition: .select(path("name"), SubQuery(className: "Post", condition: .always, limit: 20), key: path("author"), negated: false)
        ),
        Case(text: "name = (select author from Post)", condition: .select(path("name"), SubQuery(className: "Post", condition: .always), key: path("author"), negated: false)),
        Case(text: "name != (select author from Post)", condition: .select(path("name"), SubQuery(className: "Post", condition: .always), key: path("author"), negated: true)),
    ]

    @Test("each predicate compiles to the condition its REST where would give", arguments: predicates)
    func predicate(_ testCase: Case) throws {
        #expect(try Self.condition(testCase.text) == testCase.condition)
    }

    @Test("keywords and function names are not case-sensitive")
    func caseInsensitive() throws {
        let find = try Self.query("SELECT * FROM C WHERE a IS NOT EXISTS OR b = POINTER('P', 'x') LIMIT 2 ORDER BY a DESC")
        #expect(find.query.condition == .or([.exists(Self.path("a"), false), .compare(Self.path("b"), .equal, .pointer(Pointer(className: "P", objectId: "x")))]))
        #expect(find.query.limit == 2 && find.query.order == [SortKey(path: Self.path("a"), descending: true)])
    }

    @Test("placeholders are filled in order from REST values, in where, function arguments and limit")
    func placeholders() throws {
        let values: [JSON] = ["x", 1, 2, ["__type": "Date", "iso": "2015-05-20T00:00:00.000Z"], "2015-05-20T00:00:00.000Z", 5, 10]
        let find = try Self.query("select * from C where a = ? and b in (?, ?) and c > ? and d < date(?) limit ?, ?", values: values)
        #expect(find.query.condition == .and([
            .compare(Self.path("a"), .equal, .string("x")), .inList(Self.path("b"), [.int(1), .int(2)], negated: false),
            .compare(Self.path("c"), .greaterThan, .date(Self.date)), .compare(Self.path("d"), .lessThan, .date(Self.date)),
        ]))
        #expect(find.query.skip == 5 && find.query.limit == 10)
    }

    @Test("near distances may be placeholders")
    func distancePlaceholder() throws {
        let condition = try Self.condition("loc near [1, 2] max ? km", values: [5])
        #expect(condition == .near(Self.path("loc"), Self.point(1, 2), maximumDistance: 5 / Condition.earthRadiusKilometers, minimumDistance: nil))
    }

    @Test("Bmob options: dates without a zone are Beijing time and near defaults to 100 km")
    func bmobOptions() throws {
        let options = ConditionOptions(defaultOffsetMinutes: 480, defaultMaximumDistance: 100 / Condition.earthRadiusKilometers)
        let condition = try Self.condition("createdAt > date('2015-05-20 08:00:00') and loc near [1, 2]", options: options)
        #expect(condition == .and([
            .compare(Self.path("createdAt"), .greaterThan, .date(Self.date)),
            .near(Self.path("loc"), Self.point(1, 2), maximumDistance: 100 / Condition.earthRadiusKilometers, minimumDistance: nil),
        ]))
    }

    @Test("insert gives one REST create body per row, functions and op() included")
    func insert() throws {
        let statement = try Self.compile("insert into C(a, b, c) values (1, 'x', pointer('P', 'p1')), (2, ?, op('Add', {objects: [1]}))", values: ["y"])
        let pointer: JSON = ["__type": "Pointer", "className": "P", "objectId": "p1"]
        #expect(statement == .insert(CloudInsert(className: "C", rows: [
            ["a": 1, "b": "x", "c": pointer], ["a": 2, "b": "y", "c": ["__op": "Add", "objects": [1]]],
        ])))
    }

    @Test("update sets keys and operations on the object named by objectId; the rest of where is its condition")
    func update() throws {
        let statement = try Self.compile("update C set a = op('Increment', {'amount': 2}), b.c = 'x', d = op('Delete') where objectId = '1' and v = 3")
        #expect(statement == .update(CloudUpdate(
            className: "C", objectId: "1", body: ["a": ["__op": "Increment", "amount": 2], "b.c": "x", "d": ["__op": "Delete"]],
            condition: .compare(Self.path("v"), .equal, .int(3))
        )))
    }

    @Test("delete names one object by objectId, here through a placeholder")
    func delete() throws {
        #expect(try Self.compile("delete from C where objectId = ?", values: ["id1"]) == .delete(CloudDelete(className: "C", objectId: "id1")))
    }

    @Test("BQL statistics compile to an aggregation with result keys in having and order")
    func statistics() throws {
        let statement = try Self.compile(
            "select name, sum(score), average(score), max(score), min(score), count(*) from GameScore where score > ? group by name having _sumScore > 100 and _count >= 2 limit 10 order by -_sumScore",
            .bql, values: [1]
        )
        let score = Self.path("score")
        #expect(statement == .aggregate(Aggregation(
            className: "GameScore", condition: .compare(score, .greaterThan, .int(1)), groupBy: [Self.path("name")],
            functions: [(.sum, score), (.average, score), (.maximum, score), (.minimum, score)], countsGroups: true,
            having: .and([.compare(FieldPath(field: "_sumScore"), .greaterThan, .int(100)), .compare(FieldPath(field: "_count"), .greaterThanOrEqual, .int(2))]),
            order: [SortKey(path: FieldPath(field: "_sumScore"), descending: true)], limit: 10
        )))
    }

    @Test("BQL groupcount and a plain count(*) without statistics")
    func groupCount() throws {
        #expect(try Self.compile("select groupcount from C group by kind", .bql) == .aggregate(Aggregation(className: "C", groupBy: [Self.path("kind")], countsGroups: true)))
        guard case .find(let find) = try Self.compile("select count(*) from C where a = ?", .bql, values: [1]) else {
            Issue.record("a BQL count without statistics is a find")
            return
        }
        #expect(find.counts && find.query.limit == 0)
    }
}
