import CirrusModel
import CirrusStorage

/// The object size limit, and batches run atomically or independently.
extension StorageConformance {
    static var sizeChecks: [StorageCheck] {
        [
            StorageCheck("an insert over the size limit fails with objectTooLarge and leaves no trace", oversizedInsert),
            StorageCheck("an update that grows the document over the limit fails with objectTooLarge and is rolled back", oversizedUpdate),
        ]
    }

    static var batchChecks: [StorageCheck] {
        [
            StorageCheck("in an atomic batch a failing command rolls back the earlier ones and the later ones report rolledBack", atomicBatchFailure),
            StorageCheck("an atomic batch that succeeds commits every command", atomicBatchSuccess),
            StorageCheck("in an independent batch each command succeeds or fails alone", independentBatch),
        ]
    }

    static func oversizedInsert(_ driver: StorageConformanceDriver) async throws {
        let big: JSON = ["blob": .string(String(repeating: "x", count: 300))]
        let result = try await driver.perform(try driver.insertCommand("Sized", big, id: "big1", maximumSize: 200))
        guard case .failure(.objectTooLarge(let size, let limit)) = result else {
            throw failure("an oversized insert gave \(result)")
        }
        try verify(size > 300 && limit == 200, "objectTooLarge should report the size (over 300) and the limit 200, got \(size) and \(limit)")
        try verifyEqual(try await driver.fetch("Sized", "big1"), nil, "the refused object")
        try verifyEqual(try await driver.store.loadSchema(of: "Sized"), nil, "the class of a refused first insert")
        try await driver.insert("Sized", ["blob": "small"], id: "small1")
        try verifyEqual(try await driver.findIds("Sized"), ["small1"], "the class after a small insert")
        let again = try await driver.perform(try driver.insertCommand("Sized", ["blob": "x", "more": big], id: "big2", maximumSize: 200))
        guard case .failure(.objectTooLarge) = again else {
            throw failure("a second oversized insert gave \(again)")
        }
        try verifyEqual(try await driver.store.loadSchema(of: "Sized")?.fields, ["blob": .string], "the schema after a refused insert")
    }

    static func oversizedUpdate(_ driver: StorageConformanceDriver) async throws {
        let inserted = try await driver.insert("Sized", ["list": ["a"], "n": 1], id: "grow1")
        let growth: JSON = [
            "list": ["__op": "Add", "objects": .array((0..<20).map { JSON.string("element \($0) padded to be long enough") })],
            "n": ["__op": "Increment"], "added": "new",
        ]
        let result = try await driver.update("Sized", "grow1", growth, maximumSize: 400)
        guard case .failure(.objectTooLarge(_, let limit)) = result, limit == 400 else {
            throw failure("a growing update gave \(result)")
        }
        let after = try await driver.fetch("Sized", "grow1")
        try verifyEqual(after?.fields, ["list": ["a"], "n": 1], "the object after the refused update")
        try verifyEqual(after?.updatedAt, inserted.updatedAt, "updatedAt after the refused update")
        try verifyEqual(try await driver.store.loadSchema(of: "Sized")?.fields["added"], nil, "a field introduced by the refused update")
        let small = try await driver.update("Sized", "grow1", ["n": ["__op": "Increment"]], maximumSize: 400)
        try verifyEqual(try verifySuccess(small, "a small update").fields["n"], 2, "n after a small update")
    }

    /// A batch creating a class with two inserts, updating an existing object, then failing on a missing
    /// object, then inserting again.
    static func mixedBatch(_ driver: StorageConformanceDriver) async throws -> [WriteCommand] {
        try await driver.insert("Ledger", ["balance": 100], id: "acct")
        return [
            try driver.insertCommand("Journal", ["amount": 5], id: "j1"),
            try driver.insertCommand("Journal", ["amount": 4], id: "j0"),
            try await driver.updateCommand("Ledger", "acct", ["balance": ["__op": "Decrement", "amount": 5], "touched": true]),
            try await driver.updateCommand("Ledger", "missing", ["balance": 1]),
            try driver.insertCommand("Journal", ["amount": 6], id: "j2"),
        ]
    }

    static func atomicBatchFailure(_ driver: StorageConformanceDriver) async throws {
        let commands = try await mixedBatch(driver)
        let results = try await driver.store.perform(commands, atomically: true)
        try verifyEqual(results.count, 5, "the number of results")
        try verifyFailure(results[0], .rolledBack, "the insert creating the class")
        try verifyFailure(results[1], .rolledBack, "the second insert into the new class")
        try verifyFailure(results[2], .rolledBack, "the update before the failure")
        try verifyFailure(results[3], .objectNotFound(className: "Ledger", objectId: "missing"), "the failing update")
        try verifyFailure(results[4], .rolledBack, "the insert after the failure")
        try verifyEqual(try await driver.fields("Ledger", "acct"), ["balance": 100], "the account after the rolled-back batch")
        try verifyEqual(try await driver.findIds("Journal"), [], "the journal after the rolled-back batch")
        try verifyEqual(try await driver.store.loadSchema(of: "Journal"), nil, "the class created by the rolled-back batch")
        try verifyEqual(try await driver.store.loadSchema(of: "Ledger")?.fields["touched"], nil, "a field introduced by the rolled-back batch")
        try await driver.insert("Journal", ["amount": 7], id: "j3")
        try verifyEqual(try await driver.findIds("Journal"), ["j3"], "the journal after a later insert")
    }

    static func atomicBatchSuccess(_ driver: StorageConformanceDriver) async throws {
        var commands = try await mixedBatch(driver)
        commands.remove(at: 3)
        let results = try await driver.store.perform(commands, atomically: true)
        for (index, result) in results.enumerated() { try verifySuccess(result, "command \(index) of a successful atomic batch") }
        try verifyEqual(try await driver.fields("Ledger", "acct"), ["balance": 95, "touched": true], "the account")
        try verifyEqual(try await driver.findIds("Journal").sorted(), ["j0", "j1", "j2"], "the journal")
    }

    static func independentBatch(_ driver: StorageConformanceDriver) async throws {
        var commands = try await mixedBatch(driver)
        commands.append(try driver.insertCommand("Journal", ["amount": "not a number"], id: "j4"))
        let results = try await driver.store.perform(commands, atomically: false)
        try verifyEqual(results.count, 6, "the number of results")
        try verifySuccess(results[0], "the first insert")
        try verifySuccess(results[1], "the second insert")
        try verifyEqual(try verifySuccess(results[2], "the update").reportedObject?.fields["balance"], 95, "the balance returned")
        try verifyFailure(results[3], .objectNotFound(className: "Ledger", objectId: "missing"), "the failing update")
        try verifySuccess(results[4], "the insert after the failure")
        try verifyFailure(results[5], .typeConflict(field: "amount", recorded: .number, attempted: .string), "the conflicting insert")
        try verifyEqual(try await driver.fields("Ledger", "acct"), ["balance": 95, "touched": true], "the account")
        try verifyEqual(try await driver.findIds("Journal").sorted(), ["j0", "j1", "j2"], "the journal")
    }
}

extension WriteResult {
    /// The object an insert or update reported.
    var reportedObject: StoredObject? {
        switch self {
        case .inserted(let object), .updated(let object): object
        case .deleted, .account: nil
        }
    }
}
