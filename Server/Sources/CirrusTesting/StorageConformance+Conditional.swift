import CirrusModel
import CirrusStorage

/// Updates and deletes guarded by a condition, and writes to missing objects.
extension StorageConformance {
    static var conditionalChecks: [StorageCheck] {
        [
            StorageCheck("a conditional update applies when the object matches", conditionalUpdateMatches),
            StorageCheck("a conditional update that does not match fails with conditionNotMatched and changes nothing", conditionalUpdateMismatch),
            StorageCheck("updating or deleting a missing object fails with objectNotFound, with or without a condition", missingObjects),
            StorageCheck("a conditional delete removes only matching objects", conditionalDelete),
        ]
    }

    static let stockAbove5 = Condition.compare(FieldPath(field: "stock"), .greaterThan, .int(5))

    static func conditionalUpdateMatches(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Guarded", ["stock": 10, "tags": ["a"]], id: "g1")
        let result = try await driver.update("Guarded", "g1", ["stock": ["__op": "Decrement", "amount": 3]], condition: stockAbove5)
        try verifyEqual(try verifySuccess(result, "a matching conditional update").fields["stock"], 7, "stock returned")
        // A condition and an update that both iterate arrays in one statement.
        let both = Condition.and([.compare(FieldPath(field: "tags"), .equal, .string("a")), stockAbove5])
        let arrays = try await driver.update("Guarded", "g1", ["tags": ["__op": "AddUnique", "objects": ["b", "a"]]], condition: both)
        try verifyEqual(try verifySuccess(arrays, "a conditional AddUnique").fields["tags"], ["a", "b"], "tags returned")
        try verifyEqual(try await driver.fields("Guarded", "g1"), ["stock": 7, "tags": ["a", "b"]], "the fetched object")
    }

    static func conditionalUpdateMismatch(_ driver: StorageConformanceDriver) async throws {
        let inserted = try await driver.insert("Guarded", ["stock": 3], id: "g2")
        let result = try await driver.update(
            "Guarded", "g2", ["stock": ["__op": "Increment"], "brandNew": "x", "stockNote.deep": 1], condition: stockAbove5
        )
        try verifyFailure(result, .conditionNotMatched, "a conditional update of a non-matching object")
        let after = try await driver.fetch("Guarded", "g2")
        try verifyEqual(after?.fields, ["stock": 3], "the object after a refused update")
        try verifyEqual(after?.updatedAt, inserted.updatedAt, "updatedAt after a refused update")
        let schema = try await driver.store.loadSchema(of: "Guarded")
        try verifyEqual(schema?.fields["brandNew"], nil, "the type of a field introduced by a refused update")
        try verifyEqual(schema?.fields["stock"], .number, "the type of an existing field")
    }

    static func missingObjects(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Guarded", ["stock": 10], id: "g3")
        let notFound = StorageError.objectNotFound(className: "Guarded", objectId: "nope")
        try verifyFailure(try await driver.update("Guarded", "nope", ["stock": 1]), notFound, "updating a missing object")
        try verifyFailure(try await driver.update("Guarded", "nope", ["stock": 1], condition: stockAbove5), notFound, "conditionally updating a missing object")
        try verifyFailure(try await driver.perform(try await driver.deleteCommand("Guarded", ["nope"])), notFound, "deleting a missing object")
        try verifyFailure(
            try await driver.perform(try await driver.deleteCommand("Guarded", ["nope"], condition: stockAbove5)), notFound,
            "conditionally deleting a missing object"
        )
        try verifyEqual(try await driver.findIds("Guarded"), ["g3"], "the objects of the class")
        try verifyEqual(try await driver.fields("Guarded", "g3"), ["stock": 10], "the untouched object")
    }

    static func conditionalDelete(_ driver: StorageConformanceDriver) async throws {
        for (id, stock) in [("d1", 10), ("d2", 3), ("d3", 8), ("d4", 1)] {
            try await driver.insert("Guarded", ["stock": .int(Int64(stock))], id: id)
        }
        try verifyFailure(
            try await driver.perform(try await driver.deleteCommand("Guarded", ["d2"], condition: stockAbove5)), .conditionNotMatched,
            "conditionally deleting a non-matching object"
        )
        let single = try await driver.perform(try await driver.deleteCommand("Guarded", ["d1"], condition: stockAbove5))
        guard case .deleted(let deleted) = try verifySuccess(single, "conditionally deleting a matching object") else {
            throw failure("a delete did not report deleted ids")
        }
        try verifyEqual(deleted, ["d1"], "the deleted ids")
        let several = try await driver.perform(try await driver.deleteCommand("Guarded", ["d2", "d3", "d4", "missing"], condition: stockAbove5))
        guard case .deleted(let more) = try verifySuccess(several, "conditionally deleting several objects") else {
            throw failure("a delete did not report deleted ids")
        }
        try verifyEqual(more, ["d3"], "the ids deleted among several")
        try verifyEqual(try await driver.findIds("Guarded").sorted(), ["d2", "d4"], "the objects left")
        let plain = try await driver.perform(try await driver.deleteCommand("Guarded", ["d2", "d4"]))
        guard case .deleted(let rest) = try verifySuccess(plain, "deleting without condition") else {
            throw failure("a delete did not report deleted ids")
        }
        try verifyEqual(rest.sorted(), ["d2", "d4"], "the ids deleted without condition")
        try verifyEqual(try await driver.count("Guarded"), 0, "the objects left at the end")
    }
}
