import CirrusModel
import CirrusStorage

/// Statistics queries computed by the store (sums, averages, extremes, groups, `HAVING`), and the fetch of
/// pointers to several classes in one call that `include` relies on.
extension StorageConformance {
    static var aggregateChecks: [StorageCheck] {
        [
            StorageCheck("sum, average, max and min read numbers only, or strings and dates for max and min", aggregateFunctions),
            StorageCheck("groupby groups by JSON value: 1 and \"1\" stay apart and missing values form one group", aggregateGroups),
            StorageCheck("group keys on a Date field or createdAt are days in the requested zone", aggregateDays),
            StorageCheck("having, order, limit and skip apply to the result rows, and the condition to the objects", aggregateHaving),
            StorageCheck("fetching pointers to several classes at once returns the objects that exist", fetchPointers),
        ]
    }

    /// Scores of three players, dates over two UTC days, and `meta` objects mixing numbers and strings.
    static func insertScores(_ driver: StorageConformanceDriver) async throws {
        let rows: [(String, JSON)] = [
            ("ann", ["player": "ann", "score": 10, "when": date("2024-01-01T10:00:00.000Z"), "meta": ["level": 1]]),
            ("ann2", ["player": "ann", "score": 30.5, "when": date("2024-01-01T20:00:00.000Z"), "meta": ["level": "1", "points": "x"]]),
            ("bob", ["player": "bob", "score": 5, "when": date("2024-01-02T01:00:00.000Z"), "meta": ["level": 1, "points": 4]]),
            ("bob2", ["player": "bob", "meta": [:]]),
            ("cid", ["player": "cid"]),
        ]
        for (offset, (id, fields)) in rows.enumerated() {
            try await driver.insert("Score", fields, id: id, createdAt: stamp(Int64(offset) * 3600 * 8))
        }
    }

    static func aggregate(
        _ driver: StorageConformanceDriver, _ aggregation: Aggregation, condition: Condition = .always, dayOffsetMinutes: Int = 0
    ) async throws -> [JSON] {
        let query = StorageQuery(className: aggregation.className, schema: try await driver.resolve(.current, aggregation.className), condition: condition)
        return try await driver.store.aggregate(StorageAggregation(query: query, aggregation: aggregation, dayOffsetMinutes: dayOffsetMinutes))
    }

    private static func field(_ name: String) -> FieldPath {
        FieldPath(name.split(separator: ".").map(String.init))
    }

    @Sendable static func aggregateFunctions(_ driver: StorageConformanceDriver) async throws {
        try await insertScores(driver)
        let all = Aggregation(className: "Score", functions: [
            (.sum, field("score")), (.maximum, field("score")), (.minimum, field("score")), (.maximum, field("player")),
            (.minimum, field("when")), (.maximum, field("createdAt")),
        ])
        let rows = try await aggregate(driver, all)
        try verifyEqual(rows.count, 1, "rows without groups")
        let row = rows.first ?? [:]
        try verifyEqual(row["_sumScore"]?.doubleValue, 45.5, "sum of the numbers")
        try verifyEqual(row["_maxScore"]?.doubleValue, 30.5, "max of the numbers")
        try verifyEqual(row["_minScore"], 5, "min of the numbers")
        try verifyEqual(row["_maxPlayer"], "cid", "max of a String field")
        try verifyEqual(row["_minWhen"], date("2024-01-01T10:00:00.000Z"), "min of a Date field")
        try verifyEqual(row["_maxCreatedAt"], Value.date(stamp(4 * 3600 * 8)).wire, "max of createdAt")
        let average = try await aggregate(driver, Aggregation(className: "Score", functions: [(.average, field("score"))]))
        let mean = average.first?["_avgScore"]?.doubleValue ?? 0
        try verify(abs(mean - 45.5 / 3) < 1e-9, "average of the numbers: expected \(45.5 / 3), got \(describe(average))")
        let nothing = try await aggregate(driver, Aggregation(className: "Score", functions: [(.sum, field("score")), (.maximum, field("score"))]),
                                          condition: .compare(field("player"), .equal, .string("nobody")))
        try verifyEqual(nothing, [["_sumScore": 0, "_maxScore": .null]], "statistics over no objects")
        let missing = try await aggregate(driver, Aggregation(className: "Nothing", functions: [(.sum, field("score"))]))
        try verifyEqual(missing, [], "statistics over a class that does not exist")
    }

    @Sendable static func aggregateGroups(_ driver: StorageConformanceDriver) async throws {
        try await insertScores(driver)
        let byLevel = try await aggregate(driver, Aggregation(className: "Score", groupBy: [field("meta.level")], countsGroups: true))
        try verifyEqual(
            Set(byLevel), [["meta.level": .null, "_count": 2], ["meta.level": 1, "_count": 2], ["meta.level": "1", "_count": 1]], "groups by JSON value"
        )
        let points = try await aggregate(driver, Aggregation(className: "Score", functions: [(.sum, field("meta.points")), (.average, field("meta.points"))]))
        try verifyEqual(points, [["_sumMeta.points": 4, "_avgMeta.points": 4.0]], "only numbers are summed")
        let byPlayer = try await aggregate(driver, Aggregation(
            className: "Score", groupBy: [field("player")], functions: [(.sum, field("score"))], countsGroups: true
        ))
        try verifyEqual(byPlayer, [
            ["player": "ann", "_sumScore": 40.5, "_count": 2], ["player": "bob", "_sumScore": 5, "_count": 2], ["player": "cid", "_sumScore": 0, "_count": 1],
        ], "groups by player in order")
    }

    @Sendable static func aggregateDays(_ driver: StorageConformanceDriver) async throws {
        try await insertScores(driver)
        let utc = try await aggregate(driver, Aggregation(className: "Score", groupBy: [field("when")], countsGroups: true))
        try verifyEqual(utc, [["when": .null, "_count": 2], ["when": "2024-01-01", "_count": 2], ["when": "2024-01-02", "_count": 1]], "UTC days")
        let beijing = try await aggregate(driver, Aggregation(className: "Score", groupBy: [field("when")], countsGroups: true), dayOffsetMinutes: 480)
        try verifyEqual(beijing, [["when": .null, "_count": 2], ["when": "2024-01-01", "_count": 1], ["when": "2024-01-02", "_count": 2]], "days at +08:00")
        let created = try await aggregate(driver, Aggregation(className: "Score", groupBy: [field("createdAt")], countsGroups: true))
        let base = stamp(0)
        let days = (0..<5).map { Timestamp(millisecondsSince1970: base.millisecondsSince1970 + Int64($0) * 8 * 3_600_000).iso8601.prefix(10) }
        let expected = Dictionary(grouping: days, by: { String($0) }).map { ["createdAt": .string($0.key), "_count": .int(Int64($0.value.count))] as JSON }
        try verifyEqual(created, expected.sorted { ($0["createdAt"]?.stringValue ?? "") < ($1["createdAt"]?.stringValue ?? "") }, "days of createdAt")
    }

    @Sendable static func aggregateHaving(_ driver: StorageConformanceDriver) async throws {
        try await insertScores(driver)
        let sum = FieldPath(field: "_sumScore")
        var aggregation = Aggregation(
            className: "Score", groupBy: [field("player")], functions: [(.sum, field("score"))],
            having: .compare(sum, .greaterThan, .int(1)), order: [SortKey(path: sum, descending: true)]
        )
        try verifyEqual(try await aggregate(driver, aggregation), [["player": "ann", "_sumScore": 40.5], ["player": "bob", "_sumScore": 5]], "having and order")
        aggregation.limit = 1
        aggregation.skip = 1
        try verifyEqual(try await aggregate(driver, aggregation), [["player": "bob", "_sumScore": 5]], "limit and skip")
        let filtered = try await aggregate(
            driver, Aggregation(className: "Score", groupBy: [field("player")], countsGroups: true, having: .inList(field("player"), [.string("ann"), .string("cid")], negated: true)),
            condition: .compare(field("score"), .lessThan, .int(20))
        )
        try verifyEqual(filtered, [["player": "bob", "_count": 1]], "condition and having on a group key")
    }

    @Sendable static func fetchPointers(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Author", ["name": "a"], id: "a1")
        try await driver.insert("Author", ["name": "b"], id: "a2")
        try await driver.insert("Tag", ["word": "w"], id: "t1")
        let pointers = [
            Pointer(className: "Author", objectId: "a2"), Pointer(className: "Tag", objectId: "t1"), Pointer(className: "Author", objectId: "a1"),
            Pointer(className: "Author", objectId: "gone"), Pointer(className: "Missing", objectId: "x"), Pointer(className: "Author", objectId: "a1"),
        ]
        let objects = try await driver.store.fetch(pointers, readers: nil)
        let found = Set(objects.map { "\($0.className)/\($0.objectId)" })
        try verifyEqual(found, ["Author/a1", "Author/a2", "Tag/t1"], "the objects found")
        try verifyEqual(objects.count, 3, "each object once")
        try verifyEqual(objects.first { $0.objectId == "t1" }?.fields["word"], "w", "the fields of a fetched object")
        try verifyEqual(try await driver.store.fetch([], readers: nil).count, 0, "fetching no pointers")
        let many = (0..<35_000).map { Pointer(className: "Author", objectId: "none\($0)") } + pointers
        try verifyEqual(Set(try await driver.store.fetch(many, readers: nil).map(\.objectId)), ["a1", "a2", "t1"], "fetching more pointers than a statement binds")
        try await driver.insert("Author", ["name": "hidden"], id: "a3", acl: ["u1": ["read": true]])
        let withHidden = pointers + [Pointer(className: "Author", objectId: "a3")]
        try verifyEqual(Set(try await driver.store.fetch(withHidden, readers: ["*"]).map(\.objectId)), ["a1", "a2", "t1"], "public readers")
        try verifyEqual(Set(try await driver.store.fetch(withHidden, readers: ["*", "u1"]).map(\.objectId)), ["a1", "a2", "a3", "t1"], "a reader the ACL names")
        try verifyEqual(try await driver.store.fetch(withHidden, readers: nil).count, 4, "the master key")
    }
}
