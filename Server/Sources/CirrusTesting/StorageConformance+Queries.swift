import CirrusModel
import CirrusStorage

/// Finding and counting: every condition operator, order, paging, and classes that do not exist.
extension StorageConformance {
    static var queryChecks: [StorageCheck] {
        [
            StorageCheck("every condition operator selects the right objects, with and without the class schema", conditionTable),
            StorageCheck("order sorts ascending and descending by numbers, Date fields and createdAt, missing values first", ordering),
            StorageCheck("limit and skip page through ordered results, and count ignores them", paging),
            StorageCheck("objects and arrays compare whole, whatever the order of their keys and the form of their numbers", wholeValues),
        ]
    }

    static var missingClassChecks: [StorageCheck] {
        [
            StorageCheck("a class that does not exist reads as empty and refuses updates and deletes with objectNotFound", missingClass),
            StorageCheck("closing a store twice is harmless", closeTwice),
        ]
    }

    static func date(_ iso: String) -> JSON {
        ["__type": "Date", "iso": .string(iso)]
    }

    static func stamp(_ offset: Int64) -> Timestamp {
        Timestamp(millisecondsSince1970: StorageConformanceDriver.baseTime.millisecondsSince1970 + offset * 1000)
    }

    /// Five objects `qa`…`qe` of class `Item`, created one second apart.
    static func insertItems(_ driver: StorageConformanceDriver) async throws {
        let items: [(String, JSON)] = [
            ("qa", [
                "name": "alpha", "score": 10, "ratio": 0.5, "tags": ["red", "blue"], "flag": true, "when": date("2020-01-01T00:00:00.000Z"),
                "owner": pointer("u1", "_User"), "info": ["level": 1, "label": "low"], "nums": [1, 2, 3], "note": nil,
                "file": ["__type": "File", "id": "f1", "name": "a.txt", "url": "https://x/a.txt"],
            ]),
            ("qb", [
                "name": "beta", "score": 20, "ratio": 1.5, "tags": ["blue"], "flag": false, "when": date("2021-06-01T00:00:00.000Z"),
                "owner": pointer("u2", "_User"), "info": ["level": 2], "nums": [4, 5],
            ]),
            ("qc", [
                "name": "gamma", "score": 30.5, "tags": [], "when": date("2019-03-15T12:30:00.000Z"), "info": ["level": 3, "label": "high"],
                "nums": [2], "note": "text",
            ]),
            ("qd", ["name": "Delta", "score": -5, "tags": ["red", "green", "blue"], "flag": true, "owner": pointer("u1", "_User"), "nums": []]),
            ("qe", [:]),
        ]
        for (offset, (id, fields)) in items.enumerated() {
            try await driver.insert("Item", fields, id: id, createdAt: stamp(Int64(offset + 1)))
        }
    }

    /// Conditions and the ids they select among ``insertItems(_:)``.
    static var conditionCases: [(name: String, condition: Condition, ids: [String])] {
        func path(_ dotted: String) -> FieldPath { FieldPath(dotted.split(separator: ".").map(String.init)) }
        func cmp(_ field: String, _ op: Condition.Comparison, _ value: Value) -> Condition { .compare(path(field), op, value) }
        let u1 = Value.pointer(Pointer(className: "_User", objectId: "u1"))
        let u2 = Value.pointer(Pointer(className: "_User", objectId: "u2"))
        func day(_ iso: String) -> Value { .date(Timestamp(parsing: iso)!) }
        return [
            ("always", .always, ["qa", "qb", "qc", "qd", "qe"]),
            ("string equal", cmp("name", .equal, .string("alpha")), ["qa"]),
            ("string equal is case-sensitive", cmp("name", .equal, .string("ALPHA")), []),
            ("integer equal", cmp("score", .equal, .int(10)), ["qa"]),
            ("integer equals double by value", cmp("score", .equal, .double(10.0)), ["qa"]),
            ("double equal", cmp("ratio", .equal, .double(0.5)), ["qa"]),
            ("not equal includes missing", cmp("score", .notEqual, .int(10)), ["qb", "qc", "qd", "qe"]),
            ("less than", cmp("score", .lessThan, .int(20)), ["qa", "qd"]),
            ("less than or equal", cmp("score", .lessThanOrEqual, .int(20)), ["qa", "qb", "qd"]),
            ("greater than", cmp("score", .greaterThan, .int(20)), ["qc"]),
            ("greater than or equal, double operand", cmp("score", .greaterThanOrEqual, .double(19.5)), ["qb", "qc"]),
            ("numbers never compare with strings", cmp("score", .lessThan, .string("zzz")), []),
            ("strings order bytewise", cmp("name", .lessThan, .string("beta")), ["qa", "qd"]),
            ("date less than", cmp("when", .lessThan, day("2020-06-01T00:00:00.000Z")), ["qa", "qc"]),
            ("date greater than or equal", cmp("when", .greaterThanOrEqual, day("2021-06-01T00:00:00.000Z")), ["qb"]),
            ("date equal", cmp("when", .equal, day("2019-03-15T12:30:00.000Z")), ["qc"]),
            ("date not equal", cmp("when", .notEqual, day("2019-03-15T12:30:00.000Z")), ["qa", "qb", "qd", "qe"]),
            ("createdAt greater than", cmp("createdAt", .greaterThan, .date(stamp(3))), ["qd", "qe"]),
            ("createdAt less than or equal", cmp("createdAt", .lessThanOrEqual, .date(stamp(2))), ["qa", "qb"]),
            ("updatedAt equal", cmp("updatedAt", .equal, .date(stamp(1))), ["qa"]),
            ("objectId equal", cmp("objectId", .equal, .string("qb")), ["qb"]),
            ("objectId not equal", cmp("objectId", .notEqual, .string("qb")), ["qa", "qc", "qd", "qe"]),
            ("objectId in", .inList(path("objectId"), [.string("qa"), .string("qc"), .string("zz")], negated: false), ["qa", "qc"]),
            ("objectId not in", .inList(path("objectId"), [.string("qa")], negated: true), ["qb", "qc", "qd", "qe"]),
            ("boolean true", cmp("flag", .equal, .bool(true)), ["qa", "qd"]),
            ("boolean false", cmp("flag", .equal, .bool(false)), ["qb"]),
            ("boolean not true includes missing", cmp("flag", .notEqual, .bool(true)), ["qb", "qc", "qe"]),
            ("null matches null and missing", cmp("note", .equal, .null), ["qa", "qb", "qd", "qe"]),
            ("not null", cmp("note", .notEqual, .null), ["qc"]),
            ("array contains", cmp("tags", .equal, .string("blue")), ["qa", "qb", "qd"]),
            ("array equals a whole array", cmp("tags", .equal, .array([.string("blue")])), ["qb"]),
            ("array does not contain", cmp("tags", .notEqual, .string("blue")), ["qc", "qe"]),
            ("array element greater than", cmp("nums", .greaterThan, .int(4)), ["qb"]),
            ("array element less than", cmp("nums", .lessThan, .int(2)), ["qa"]),
            ("array element equal", cmp("nums", .equal, .int(2)), ["qa", "qc"]),
            ("in on an array", .inList(path("tags"), [.string("green"), .string("red")], negated: false), ["qa", "qd"]),
            ("not in on an array", .inList(path("tags"), [.string("blue")], negated: true), ["qc", "qe"]),
            ("in with numbers of both kinds", .inList(path("score"), [.int(10), .double(30.5), .int(99)], negated: false), ["qa", "qc"]),
            ("in with mixed types", .inList(path("name"), [.string("alpha"), .int(20), .bool(true)], negated: false), ["qa"]),
            ("in with null", .inList(path("score"), [.null, .int(20)], negated: false), ["qb", "qe"]),
            ("not in includes missing", .inList(path("score"), [.int(10)], negated: true), ["qb", "qc", "qd", "qe"]),
            ("empty in", .inList(path("score"), [], negated: false), []),
            ("empty not in", .inList(path("score"), [], negated: true), ["qa", "qb", "qc", "qd", "qe"]),
            ("all", .containsAll(path("tags"), [.string("red"), .string("blue")]), ["qa", "qd"]),
            ("all with one value", .containsAll(path("tags"), [.string("green")]), ["qd"]),
            ("empty all", .containsAll(path("tags"), []), []),
            ("size 0", .size(path("tags"), 0), ["qc"]),
            ("size 2", .size(path("tags"), 2), ["qa"]),
            ("size 3", .size(path("tags"), 3), ["qd"]),
            ("exists", .exists(path("name"), true), ["qa", "qb", "qc", "qd"]),
            ("exists counts null", .exists(path("note"), true), ["qa", "qc"]),
            ("does not exist", .exists(path("flag"), false), ["qc", "qe"]),
            ("built-in always exists", .exists(path("createdAt"), true), ["qa", "qb", "qc", "qd", "qe"]),
            ("pointer equal", cmp("owner", .equal, u1), ["qa", "qd"]),
            ("pointer not equal", cmp("owner", .notEqual, u1), ["qb", "qc", "qe"]),
            ("pointer in", .inList(path("owner"), [u2], negated: false), ["qb"]),
            ("file equal", cmp("file", .equal, .file(FileReference(id: "f1"))), ["qa"]),
            ("nested equal", cmp("info.level", .equal, .int(2)), ["qb"]),
            ("nested greater than", cmp("info.level", .greaterThan, .int(1)), ["qb", "qc"]),
            ("nested exists", .exists(path("info.label"), true), ["qa", "qc"]),
            ("nested does not exist", .exists(path("info.label"), false), ["qb", "qd", "qe"]),
            ("array element by index", cmp("nums.0", .equal, .int(4)), ["qb"]),
            ("date in", .inList(path("when"), [day("2019-03-15T12:30:00.000Z"), day("2030-01-01T00:00:00.000Z")], negated: false), ["qc"]),
            ("array not equal to a whole array", cmp("tags", .notEqual, .array([.string("blue")])), ["qa", "qc", "qd", "qe"]),
            ("a pointer's class matters", cmp("owner", .equal, .pointer(Pointer(className: "Other", objectId: "u1"))), []),
            ("a boolean is not the number 1", cmp("flag", .equal, .int(1)), []),
            ("a number is not a boolean", cmp("score", .equal, .bool(true)), []),
            ("regex on a nested path", .regex(path("info.label"), pattern: "^h", options: ""), ["qc"]),
            ("size of a nested array", .size(path("info.missing"), 0), []),
            ("object equals a whole object", cmp("info", .equal, .object(["level": .int(2)])), ["qb"]),
            ("and", .and([cmp("score", .greaterThan, .int(0)), cmp("flag", .equal, .bool(true))]), ["qa"]),
            ("or", .or([cmp("name", .equal, .string("beta")), cmp("score", .lessThan, .int(0))]), ["qb", "qd"]),
            ("nor", .nor([cmp("flag", .equal, .bool(true)), cmp("score", .greaterThan, .int(25))]), ["qb", "qe"]),
            ("nested and/or", .or([.and([cmp("flag", .equal, .bool(true)), cmp("score", .greaterThan, .int(0))]), .exists(path("note"), false)]),
                ["qa", "qb", "qd", "qe"]),
            ("in with a whole array matches an array field equal to it", .inList(path("nums"), [.array([.int(4), .int(5)])], negated: false), ["qb"]),
            ("in with a whole array or an element", .inList(path("nums"), [.array([.int(4), .int(5)]), .int(3)], negated: false), ["qa", "qb"]),
            ("empty and", .and([]), ["qa", "qb", "qc", "qd", "qe"]),
            ("empty or", .or([]), []),
            ("empty nor", .nor([]), ["qa", "qb", "qc", "qd", "qe"]),
            ("regex inside or", .or([.regex(path("name"), pattern: "^g", options: ""), cmp("score", .equal, .int(10))]), ["qa", "qc"]),
        ]
    }

    static func conditionTable(_ driver: StorageConformanceDriver) async throws {
        try await insertItems(driver)
        let schema = try await driver.store.loadSchema(of: "Item")
        for choice in [StorageConformanceDriver.SchemaChoice.current, .none] {
            let label = if case .none = choice { "without schema" } else { "with schema" }
            for (name, condition, expected) in conditionCases {
                let found = try await driver.findIds("Item", condition, schema: choice)
                try verifyEqual(found.sorted(), expected, "\(name) (\(label))")
                try verifyEqual(try await driver.count("Item", condition, schema: choice), expected.count, "count of \(name) (\(label))")
            }
        }
        try verify(schema?.fields["tags"] == .array, "the schema used by the table records tags as an Array")
    }

    static func ordering(_ driver: StorageConformanceDriver) async throws {
        try await insertItems(driver)
        func key(_ field: String, descending: Bool = false) -> SortKey { SortKey(path: FieldPath(field: field), descending: descending) }
        let withWhen = Condition.exists(FieldPath(field: "when"), true)
        let withFlag = Condition.exists(FieldPath(field: "flag"), true)
        for choice in [StorageConformanceDriver.SchemaChoice.current, .none] {
            let label = if case .none = choice { "without schema" } else { "with schema" }
            try verifyEqual(try await driver.findIds("Item", schema: choice, order: [key("score")]), ["qe", "qd", "qa", "qb", "qc"], "score ascending (\(label))")
            try verifyEqual(
                try await driver.findIds("Item", schema: choice, order: [key("score", descending: true)]), ["qc", "qb", "qa", "qd", "qe"],
                "score descending (\(label))"
            )
            try verifyEqual(try await driver.findIds("Item", withWhen, schema: choice, order: [key("when")]), ["qc", "qa", "qb"], "Date ascending (\(label))")
            try verifyEqual(
                try await driver.findIds("Item", withWhen, schema: choice, order: [key("when", descending: true)]), ["qb", "qa", "qc"],
                "Date descending (\(label))"
            )
            try verifyEqual(
                try await driver.findIds("Item", schema: choice, order: [key("createdAt", descending: true)]), ["qe", "qd", "qc", "qb", "qa"],
                "createdAt descending (\(label))"
            )
            try verifyEqual(
                try await driver.findIds("Item", withFlag, schema: choice, order: [key("flag"), key("score", descending: true)]), ["qb", "qa", "qd"],
                "flag then score descending (\(label))"
            )
            try verifyEqual(
                try await driver.findIds("Item", schema: choice, order: [key("name")]), ["qe", "qd", "qa", "qb", "qc"],
                "name ascending, bytewise (\(label))"
            )
            let nested = SortKey(path: FieldPath(["info", "level"]), descending: true)
            try verifyEqual(
                try await driver.findIds("Item", .exists(nested.path, true), schema: choice, order: [nested]), ["qc", "qb", "qa"],
                "a nested field descending (\(label))"
            )
        }
    }

    static func paging(_ driver: StorageConformanceDriver) async throws {
        try await insertItems(driver)
        let byCreation = [SortKey(path: FieldPath(field: "createdAt"))]
        try verifyEqual(try await driver.findIds("Item", order: byCreation, limit: 2), ["qa", "qb"], "the first page")
        try verifyEqual(try await driver.findIds("Item", order: byCreation, limit: 2, skip: 2), ["qc", "qd"], "the second page")
        try verifyEqual(try await driver.findIds("Item", order: byCreation, limit: 2, skip: 4), ["qe"], "the last page")
        try verifyEqual(try await driver.findIds("Item", order: byCreation, limit: 2, skip: 10), [], "past the end")
        let positive = Condition.compare(FieldPath(field: "score"), .greaterThan, .int(0))
        try verifyEqual(try await driver.findIds("Item", positive, order: byCreation, limit: 1, skip: 1), ["qb"], "a page of a filtered query")
        let query = StorageQuery(className: "Item", schema: nil, condition: positive, order: byCreation, limit: 1, skip: 1)
        try verifyEqual(try await driver.store.count(query), 3, "count ignores limit and skip")
        try verifyEqual(try await driver.count("Item"), 5, "count of every object")
    }

    static func wholeValues(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Whole", ["o": ["b": 1], "list": [["b": 1], "x"], "geo": ["__type": "GeoPoint", "latitude": 10.5, "longitude": 20]], id: "w1")
        try await driver.insert("Whole", ["o": ["a": 2, "b": 1, "c": nil], "list": [["a": 2]]], id: "w2")
        // Nested writes add keys after the existing ones; equality must not depend on that order.
        try await driver.updated("Whole", "w1", ["o.a": 2, "list.0.a": 2])
        let cases: [(String, Condition, [String])] = [
            ("an object whose keys were added later", .compare(FieldPath(field: "o"), .equal, .object(["a": .int(2), "b": .int(1)])), ["w1"]),
            ("an object with a double for an integer", .compare(FieldPath(field: "o"), .equal, .object(["a": .double(2), "b": .int(1)])), ["w1"]),
            ("an object with a null member", .compare(FieldPath(field: "o"), .equal, .object(["a": .int(2), "b": .int(1), "c": .null])), ["w2"]),
            ("an object that is a subset", .compare(FieldPath(field: "o"), .equal, .object(["b": .int(1)])), []),
            ("an array element", .compare(FieldPath(field: "list"), .equal, .object(["b": .int(1), "a": .int(2)])), ["w1"]),
            ("a whole array", .compare(FieldPath(field: "list"), .equal, .array([.object(["a": .int(2), "b": .int(1)]), .string("x")])), ["w1"]),
            ("an array in another order", .compare(FieldPath(field: "list"), .equal, .array([.string("x"), .object(["a": .int(2), "b": .int(1)])])), []),
            ("a GeoPoint", .compare(FieldPath(field: "geo"), .equal, .geoPoint(try GeoPoint(latitude: 10.5, longitude: 20))), ["w1"]),
            ("in with an object", .inList(FieldPath(field: "o"), [.object(["b": .int(1), "a": .int(2)])], negated: false), ["w1"]),
        ]
        for (name, condition, expected) in cases {
            try verifyEqual(try await driver.findIds("Whole", condition).sorted(), expected, name)
        }
        try await driver.updated("Whole", "w1", ["list": ["__op": "AddUnique", "objects": [["a": 2.0, "b": 1]]]])
        try verifyEqual(try await driver.fields("Whole", "w1")["list"], [["b": 1, "a": 2], "x"], "the list after AddUnique of an equal object")
        try await driver.updated("Whole", "w1", ["list": ["__op": "Remove", "objects": [["a": 2, "b": 1]]]])
        try verifyEqual(try await driver.fields("Whole", "w1")["list"], ["x"], "the list after Remove of an equal object")
    }

    /// The runner closes the store again after this check.
    static func closeTwice(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Item", ["name": "x"], id: "c1", createdAt: stamp(1))
        try await driver.store.close()
    }

    static func missingClass(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Present", ["n": 1], id: "x1")
        try verifyEqual(try await driver.store.fetch(className: "Absent", ids: ["x1"]), [], "fetch")
        try verifyEqual(try await driver.findIds("Absent", .compare(FieldPath(field: "n"), .equal, .int(1))), [], "find")
        try verifyEqual(try await driver.count("Absent"), 0, "count")
        try verifyEqual(try await driver.store.relationTargets(className: "Absent", objectId: "x1", field: "r"), [], "relation members")
        try verifyFailure(
            try await driver.update("Absent", "x1", ["n": ["__op": "Increment"]]), .objectNotFound(className: "Absent", objectId: "x1"), "update"
        )
        try verifyFailure(
            try await driver.perform(try await driver.deleteCommand("Absent", ["x1"])), .objectNotFound(className: "Absent", objectId: "x1"), "delete"
        )
        try verifyEqual(try await driver.store.loadSchema(of: "Absent"), nil, "the schema after refused writes")
        try verifyEqual(try await driver.store.loadSchemas().map(\.className), ["Present"], "the classes")
        try verifyEqual(try await driver.fields("Present", "x1"), ["n": 1], "the object of another class")
    }
}
