import CirrusModel
import CirrusStorage
import Foundation

/// Inputs at the edges: numbers beyond 64 bits and beyond the largest double, lists of thousands of values,
/// sub-queries nested deeply, regular expressions that backtrack. Every store answers them, alike, and quickly.
extension StorageConformance {
    static var limitChecks: [StorageCheck] {
        [
            StorageCheck("sums stay exact integers while they fit in 64 bits and become the nearest double beyond", sumsAtTheEdges),
            StorageCheck("an Increment beyond 64 bits gives a double, and one beyond the largest double is refused", incrementsAtTheEdges),
            StorageCheck("$in, $nin and $all with thousands of values, on fields and on objectId", longLists),
            StorageCheck("sub-queries nested on fields the schema does not know answer correctly and quickly", deepSubQueries),
            StorageCheck("a regular expression that backtracks exponentially answers quickly, or is refused", backtrackingRegex),
            StorageCheck("a where of a thousand conditions on fields of unknown shape answers quickly", thousandConditions),
        ]
    }

    @Sendable static func sumsAtTheEdges(_ driver: StorageConformanceDriver) async throws {
        let groups: [(String, [JSON], JSON)] = [
            ("fits", [.int(.max), 1, -1], .int(.max)),
            ("past the top", [.int(.max), 1], .double(9_223_372_036_854_775_808)),
            ("back inside", [.int(.max), .int(.max), .int(.min), .int(.min)], -2),
            ("past the bottom", [.int(.min), -1], .double(-9_223_372_036_854_775_808)),
            ("mixed", [.int(.max), 0.5], .double(9_223_372_036_854_775_808)),
        ]
        for (group, numbers) in groups.map({ ($0.0, $0.1) }) {
            for number in numbers { try await driver.insert("Big", ["group": .string(group), "n": number]) }
        }
        let aggregation = Aggregation(className: "Big", groupBy: [FieldPath(field: "group")], functions: [(.sum, FieldPath(field: "n"))])
        let rows = try await aggregate(driver, aggregation)
        for (group, _, expected) in groups {
            let sum = rows.first { $0["group"] == .string(group) }?["_sumN"]
            try verifyEqual(sum ?? .null, expected, "the sum of the group \(group)")
        }
        let average = try await aggregate(driver, Aggregation(className: "Big", functions: [(.average, FieldPath(field: "n"))]), condition: .compare(FieldPath(field: "group"), .equal, .string("past the top")))
        try verifyEqual(average.first?["_avgN"]?.doubleValue, 4_611_686_018_427_387_904, "the average of the group past the top")
    }

    @Sendable static func incrementsAtTheEdges(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Counter", ["n": .int(.max), "d": 1.7e308, "m": .int(.min)], id: "c")
        try verifyEqual(try await driver.updated("Counter", "c", ["n": ["__op": "Increment", "amount": 1]])["n"] ?? .null, .double(9_223_372_036_854_775_808), "Int64.max + 1")
        try verifyEqual(try await driver.updated("Counter", "c", ["n": ["__op": "Increment", "amount": -2]])["n"] ?? .null, .double(9_223_372_036_854_775_808), "a double minus 2")
        try verifyEqual(try await driver.updated("Counter", "c", ["m": ["__op": "Decrement", "amount": 1]])["m"] ?? .null, .double(-9_223_372_036_854_775_808), "Int64.min - 1")
        let overflow = try await driver.update("Counter", "c", ["d": ["__op": "Increment", "amount": 1e308]])
        try verifyFailure(overflow, .refused(.numberOutOfRange), "1.7e308 + 1e308")
        try verifyEqual(try await driver.fields("Counter", "c")["d"] ?? .null, 1.7e308, "the refused Increment changed nothing")
    }

    @Sendable static func longLists(_ driver: StorageConformanceDriver) async throws {
        let ids = (0..<40).map { String(format: "id%02d", $0) }
        for (index, id) in ids.enumerated() {
            try await driver.insert("Item", ["n": .int(Int64(index)), "tag": .string("t\(index)"), "tags": ["a", .string("t\(index)")],
                                             "owner": ["__type": "Pointer", "className": "User", "objectId": .string("u\(index)")]], id: id)
        }
        let many = 20_000
        let strings = (0..<many).map { Value.string("t\($0)") }
        let numbers = (0..<many).map { Value.int(Int64($0 * 2)) }
        let pointers = (0..<many).map { Value.pointer(Pointer(className: "User", objectId: "u\($0 * 3)")) }
        let objectIds = (0..<many).map { Value.string(String(format: "id%02d", $0 * 5)) }
        let cases: [(String, Condition, Int)] = [
            ("strings", .inList(FieldPath(field: "tag"), strings, negated: false), 40),
            ("numbers", .inList(FieldPath(field: "n"), numbers, negated: false), 20),
            ("pointers", .inList(FieldPath(field: "owner"), pointers, negated: false), 14),
            ("objectIds", .inList(FieldPath(field: "objectId"), objectIds, negated: false), 8),
            ("$nin of numbers", .inList(FieldPath(field: "n"), numbers, negated: true), 20),
            ("strings in an array", .inList(FieldPath(field: "tags"), strings, negated: false), 40),
            ("$all over an array", .containsAll(FieldPath(field: "tags"), [.string("a"), .string("t7")]), 1),
            ("four lists in $or", .or((0..<4).map { _ in .inList(FieldPath(field: "owner"), pointers, negated: false) }), 14),
        ]
        for choice in [StorageConformanceDriver.SchemaChoice.current, .none] {
            for (label, condition, expected) in cases {
                try verifyEqual(try await driver.count("Item", condition, schema: choice), expected, "\(label) among \(many) values")
            }
        }
    }

    @Sendable static func deepSubQueries(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Node", ["name": "leaf"], id: "n0")
        for level in 1...3 {
            try await driver.insert("Node", ["next": ["__type": "Pointer", "className": "Node", "objectId": .string("n\(level - 1)")]], id: "n\(level)")
        }
        // The deepest nesting the default limits allow, 3 sub-queries and 7 levels of $nor and $or, on fields of unknown
        // shape (no schema), where each sub-query is tested on the field and its elements, for a reader: SQLite's
        // parser takes about a hundred levels of grammar, and this stays within them.
        var condition = Condition.or([.compare(FieldPath(field: "name"), .equal, .string("leaf")), .exists(FieldPath(field: "nothing"), true)])
        for _ in 0..<6 { condition = .nor([condition]) }
        for _ in 0..<3 { condition = .inQuery(FieldPath(field: "next"), SubQuery(className: "Node", condition: condition), negated: false) }
        let started = Date()
        let found = try await driver.store.find(StorageQuery(className: "Node", schema: nil, condition: condition, readers: ["*"])).map(\.objectId)
        try verify(Date().timeIntervalSince(started) < 10, "the nested query took \(Date().timeIntervalSince(started)) s")
        try verifyEqual(found, ["n3"], "3 nested sub-queries around 7 levels of $nor and $or")
        var alternating = Condition.compare(FieldPath(field: "name"), .equal, .string("leaf"))
        for level in 0..<3 {
            let inner = SubQuery(className: "Node", condition: alternating)
            alternating = level.isMultiple(of: 2)
                ? .inQuery(FieldPath(field: "next"), inner, negated: false)
                : .select(FieldPath(field: "missing"), inner, key: FieldPath(field: "name"), negated: true)
        }
        try verifyEqual(try await driver.findIds("Node", alternating, schema: .none).sorted(), ["n1", "n2", "n3"], "$inQuery, $dontSelect, $inQuery")
    }

    /// PostgreSQL once JIT-compiled the thousands of expressions of such a statement, for minutes.
    @Sendable static func thousandConditions(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Wide", ["f0": 0, "f999": 999], id: "w")
        let parts = (0..<1000).map { Condition.compare(FieldPath(field: "f\($0)"), .equal, .int(Int64($0))) }
        let condition = Condition.and(parts)
        let started = Date()
        try verifyEqual(try await driver.count("Wide", condition, schema: .none), 0, "a thousand conditions, most on missing fields")
        try verifyEqual(try await driver.count("Wide", .or(parts), schema: .none), 1, "a thousand alternatives")
        // A bound a loaded machine running every suite at once stays within, far below the minutes of the failure.
        try verify(Date().timeIntervalSince(started) < 60, "a thousand conditions took \(Date().timeIntervalSince(started)) s")
    }

    @Sendable static func backtrackingRegex(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Text", ["body": .string(String(repeating: "a", count: 1000) + "!")], id: "long")
        let started = Date()
        let condition = Condition.regex(FieldPath(field: "body"), pattern: "(a+)+$", options: "")
        do {
            try verifyEqual(try await driver.findIds("Text", condition), [], "(a+)+$ on a thousand a's and a !")
        } catch let error as APIError {
            try verifyEqual(error.reason, .queryTooComplex, "the refusal of (a+)+$")
        }
        // Unbounded, the match runs for ever (2^1000 ways to split the a's); the bound leaves room for a loaded machine.
        try verify(Date().timeIntervalSince(started) < 60, "(a+)+$ took \(Date().timeIntervalSince(started)) s")
        try verifyEqual(try await driver.findIds("Text", .regex(FieldPath(field: "body"), pattern: "^a+!$", options: "")), ["long"], "a plain pattern")
    }
}
