import CirrusModel
import CirrusStorage

/// Atomicity of operations under concurrent writers: no write may be lost.
extension StorageConformance {
    static var concurrencyChecks: [StorageCheck] {
        [
            StorageCheck("50 concurrent increments of one counter add up exactly", concurrentIncrements),
            StorageCheck("concurrent Add and AddUnique lose no element and AddUnique adds a shared element once", concurrentArrayOperations),
            StorageCheck("concurrent BitOr of distinct bits sets every bit, concurrent Remove removes every element", concurrentBitsAndRemovals),
            StorageCheck("a conditional decrement under concurrency never goes below the condition", concurrentConditionalUpdates),
            StorageCheck("concurrent first inserts into a new class all succeed in one class", concurrentClassCreation),
        ]
    }

    /// The number of concurrent writers.
    static let writers = 50

    /// Runs `body` for 0..<count concurrently and returns the results in index order.
    static func concurrently<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) async throws -> T) async throws -> [T] {
        try await withThrowingTaskGroup(of: (Int, T).self) { group in
            for index in 0..<count {
                group.addTask { (index, try await body(index)) }
            }
            var results = [T?](repeating: nil, count: count)
            for try await (index, result) in group { results[index] = result }
            return results.map { $0! }
        }
    }

    static func concurrentIncrements(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Race", ["count": 0, "total": 0.5], id: "race1")
        let outcomes = try await concurrently(writers) { index in
            try await driver.update("Race", "race1", ["count": ["__op": "Increment"], "total": ["__op": "Increment", "amount": .int(Int64(index))]])
        }
        for outcome in outcomes { try verifySuccess(outcome, "a concurrent increment") }
        let fields = try await driver.fields("Race", "race1")
        try verifyEqual(fields["count"], .int(Int64(writers)), "the counter after \(writers) increments")
        try verifyEqual(fields["total"], .double(0.5 + Double((0..<writers).reduce(0, +))), "the sum after \(writers) increments")
    }

    static func concurrentArrayOperations(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Race", ["added": [], "unique": ["start"]], id: "race2")
        let outcomes = try await concurrently(writers) { index in
            try await driver.update("Race", "race2", [
                "added": ["__op": "Add", "objects": [.int(Int64(index)), "same"]],
                "unique": ["__op": "AddUnique", "objects": ["shared", .string("v\(index)"), "start"]],
            ])
        }
        for outcome in outcomes { try verifySuccess(outcome, "a concurrent Add and AddUnique") }
        let fields = try await driver.fields("Race", "race2")
        let added = fields["added"]?.arrayValue ?? []
        try verifyEqual(added.count, 2 * writers, "the number of elements after concurrent Adds")
        try verifyEqual(Set(added.compactMap(\.intValue)), Set((0..<writers).map { Int64($0) }), "the numbers added concurrently")
        try verifyEqual(added.filter { $0 == "same" }.count, writers, "the duplicates added concurrently")
        let unique = fields["unique"]?.arrayValue ?? []
        try verifyEqual(unique.count, writers + 2, "the number of elements after concurrent AddUniques")
        try verifyEqual(
            Set(unique.compactMap(\.stringValue)), Set(["start", "shared"] + (0..<writers).map { "v\($0)" }), "the elements added uniquely"
        )
    }

    static func concurrentBitsAndRemovals(_ driver: StorageConformanceDriver) async throws {
        let elements = (0..<writers).map { JSON.int(Int64($0)) }
        try await driver.insert("Race", ["flags": 0, "pool": .array(elements + ["keep"] + elements)], id: "race3")
        let outcomes = try await concurrently(writers) { index in
            try await driver.update("Race", "race3", [
                "flags": ["__op": "BitOr", "value": .int(1 << Int64(index))], "pool": ["__op": "Remove", "objects": [.int(Int64(index))]],
            ])
        }
        for outcome in outcomes { try verifySuccess(outcome, "a concurrent BitOr and Remove") }
        let fields = try await driver.fields("Race", "race3")
        try verifyEqual(fields["flags"], .int((1 << Int64(writers)) - 1), "the flags after \(writers) BitOrs")
        try verifyEqual(fields["pool"], ["keep"], "the array after \(writers) concurrent Removes")
    }

    static func concurrentConditionalUpdates(_ driver: StorageConformanceDriver) async throws {
        let stock = 10
        try await driver.insert("Race", ["stock": .int(Int64(stock))], id: "race4")
        let condition = Condition.compare(FieldPath(field: "stock"), .greaterThan, .int(0))
        let outcomes = try await concurrently(30) { _ in
            try await driver.update("Race", "race4", ["stock": ["__op": "Decrement"]], condition: condition)
        }
        var succeeded = 0
        for outcome in outcomes {
            switch outcome {
            case .success: succeeded += 1
            case .failure(let error): try verifyEqual(error, .conditionNotMatched, "a refused conditional decrement")
            }
        }
        try verifyEqual(succeeded, stock, "the number of conditional decrements that succeeded")
        try verifyEqual(try await driver.fields("Race", "race4")["stock"], 0, "the stock after the decrements")
    }

    static func concurrentClassCreation(_ driver: StorageConformanceDriver) async throws {
        let outcomes = try await concurrently(20) { index in
            try await driver.perform(try driver.insertCommand("Fresh", ["n": .int(Int64(index))], id: "fresh\(index)"))
        }
        for outcome in outcomes { try verifySuccess(outcome, "a concurrent first insert") }
        try verifyEqual(try await driver.count("Fresh"), 20, "the objects of the new class")
        let schemas = try await driver.store.loadSchemas().filter { $0.className == "Fresh" }
        try verifyEqual(schemas, [ClassSchema(className: "Fresh", fields: ["n": .number])], "the schema of the new class")
    }
}
