import CirrusModel
import CirrusStorage

/// Every update operation on top-level fields.
extension StorageConformance {
    static var updateChecks: [StorageCheck] {
        [
            StorageCheck("set replaces a field with a value of every type, and a null set keeps the key", setEveryType),
            StorageCheck("Delete removes a key, and deleting a missing key changes nothing else", deleteKeys),
            StorageCheck("Increment and Decrement add in SQL: integers stay integers, doubles keep full precision, a missing field counts as 0", increments),
            StorageCheck("BitAnd, BitOr and BitXor combine integers, a missing field counting as 0", bitOperations),
            StorageCheck("Add appends every element, duplicates included, creating a missing array", addElements),
            StorageCheck("AddUnique appends only missing elements: numbers by value, pointers by class and id, objects whole", addUniqueElements),
            StorageCheck("Remove deletes every occurrence of each value: numbers by value, pointers by class and id, objects whole", removeElements),
            StorageCheck("AddRelation and RemoveRelation edit the join rows without touching the document", relationEdits),
            StorageCheck("one update applies a set, an increment, an array operation and a delete together", mixedUpdate),
        ]
    }

    /// Inserts `{field: initial}` (or an empty object when `initial` is nil), applies `operation`, and
    /// checks the field afterwards against `expected` (nil: the key is absent).
    static func verifyOperation(
        _ driver: StorageConformanceDriver, _ className: String, initial: JSON?, operation: JSON, expected: JSON?,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) async throws {
        let id = ObjectID.make(.hex24)
        // A field of its own per case, so that cases of different types do not conflict in the schema.
        let field = "f" + id.suffix(6)
        try await driver.insert(className, initial.map { [field: $0, "other": "kept"] } ?? ["other": "kept"], id: id)
        let what = "\(JSONWriter.string(operation)) on \(initial.map(JSONWriter.string) ?? "a missing field")"
        let returned = try await driver.updated(className, id, [field: operation], fileID: fileID, filePath: filePath, line: line)
        try verifyEqual(returned[field], expected, "\(what), as returned", fileID: fileID, filePath: filePath, line: line)
        let fetched = try await driver.fields(className, id)
        try verifyEqual(fetched[field], expected, "\(what), as fetched", fileID: fileID, filePath: filePath, line: line)
        try verifyEqual(fetched["other"], "kept", "the other field after \(what)", fileID: fileID, filePath: filePath, line: line)
    }

    static func setEveryType(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Setter", ["keep": 1], id: "set1")
        var expected: [String: JSON] = ["keep": 1]
        for (key, value) in everyType.objectValue!.sorted(by: { $0.key < $1.key }) {
            try await driver.updated("Setter", "set1", [key: value])
            expected[key] = value
        }
        try verifyEqual(try await driver.fields("Setter", "set1"), .object(expected), "the object after setting every type")
        try await verifyOperation(driver, "Setter", initial: 5, operation: 6, expected: 6)
        try await verifyOperation(driver, "Setter", initial: 5, operation: nil, expected: .null)
        try await verifyOperation(driver, "Setter", initial: nil, operation: ["x": [1, 2]], expected: ["x": [1, 2]])
    }

    static func deleteKeys(_ driver: StorageConformanceDriver) async throws {
        try await verifyOperation(driver, "Deleter", initial: "gone", operation: ["__op": "Delete"], expected: nil)
        try await verifyOperation(driver, "Deleter", initial: ["deep": [1]], operation: ["__op": "Delete"], expected: nil)
        try await verifyOperation(driver, "Deleter", initial: nil, operation: ["__op": "Delete"], expected: nil)
    }

    static func increments(_ driver: StorageConformanceDriver) async throws {
        let cases: [(initial: JSON?, operation: JSON)] = [
            (1, ["__op": "Increment", "amount": 2]),
            (1, ["__op": "Increment"]),
            (10, ["__op": "Increment", "amount": -15]),
            (10, ["__op": "Decrement", "amount": 3]),
            (10, ["__op": "Decrement"]),
            (1.5, ["__op": "Increment", "amount": 2]),
            (1, ["__op": "Increment", "amount": 0.5]),
            (1.5, ["__op": "Increment", "amount": 1.5]),
            (0.1, ["__op": "Increment", "amount": 0.2]),
            (1e20, ["__op": "Increment", "amount": 1]),
            (2.5, ["__op": "Decrement", "amount": 0.25]),
            (nil, ["__op": "Increment", "amount": 7]),
            (nil, ["__op": "Increment", "amount": 0.75]),
            (nil, ["__op": "Decrement", "amount": 4]),
            (.null, ["__op": "Increment", "amount": 3]),
            (9_007_199_254_740_993, ["__op": "Increment", "amount": 2]),
            // Doubles that need 17 digits at large exponents, where SQLite's printf rounds the last one wrong.
            (nil, ["__op": "Increment", "amount": 1.7976931348623157e308]),
            (nil, ["__op": "Increment", "amount": 1.2345678901234567e300]),
            (1.7976931348623157e308, ["__op": "Increment", "amount": 1]),
            (-1.7976931348623157e308, ["__op": "Decrement", "amount": 1]),
            (.double(.leastNonzeroMagnitude), ["__op": "Increment", "amount": .double(.leastNonzeroMagnitude)]),
        ]
        for (initial, operation) in cases {
            let expected = try oracle(initial, operation)
            try await verifyOperation(driver, "Counter", initial: initial, operation: operation, expected: expected)
        }
    }

    /// What the model's in-memory semantics give for one operation, the reference every store must match.
    static func oracle(_ initial: JSON?, _ operation: JSON) throws -> JSON? {
        let current = try initial.flatMap { json in json.isNull ? nil : try Value(wire: json) }
        return try FieldOperation(wire: operation).apply(to: current)?.wire
    }

    static func bitOperations(_ driver: StorageConformanceDriver) async throws {
        let cases: [(initial: JSON?, operation: JSON, expected: JSON)] = [
            (12, ["__op": "BitAnd", "value": 10], 8),
            (12, ["__op": "BitOr", "value": 10], 14),
            (12, ["__op": "BitXor", "value": 10], 6),
            (nil, ["__op": "BitAnd", "value": 10], 0),
            (nil, ["__op": "BitOr", "value": 10], 10),
            (nil, ["__op": "BitXor", "value": 10], 10),
            (-1, ["__op": "BitXor", "value": 5], -6),
            (-8, ["__op": "BitAnd", "value": 12], 8),
            (.int(1 << 62), ["__op": "BitOr", "value": 1], .int((1 << 62) | 1)),
            (.int(Int64.min), ["__op": "BitXor", "value": -1], .int(Int64.max)),
        ]
        for (initial, operation, expected) in cases {
            try verifyEqual(try oracle(initial, operation), expected, "the model's result for \(JSONWriter.string(operation))")
            try await verifyOperation(driver, "Bits", initial: initial, operation: operation, expected: expected)
        }
    }

    static func addElements(_ driver: StorageConformanceDriver) async throws {
        let date: JSON = ["__type": "Date", "iso": "2020-01-01T00:00:00.000Z"]
        try await verifyOperation(driver, "Adder", initial: [1, 2], operation: ["__op": "Add", "objects": [2, 3, 2]], expected: [1, 2, 2, 3, 2])
        try await verifyOperation(driver, "Adder", initial: nil, operation: ["__op": "Add", "objects": ["a", "a"]], expected: ["a", "a"])
        try await verifyOperation(
            driver, "Adder", initial: [], operation: ["__op": "Add", "objects": [["k": 1], [1, 2], date, nil, true, 1.5]],
            expected: [["k": 1], [1, 2], date, nil, true, 1.5]
        )
        try await verifyOperation(driver, "Adder", initial: ["x"], operation: ["__op": "Add", "objects": []], expected: ["x"])
        try await verifyOperation(driver, "Adder", initial: .null, operation: ["__op": "Add", "objects": [1]], expected: [1])
    }

    static func pointer(_ id: String, _ className: String = "Author") -> JSON {
        ["__type": "Pointer", "className": .string(className), "objectId": .string(id)]
    }

    static func addUniqueElements(_ driver: StorageConformanceDriver) async throws {
        let date: JSON = ["__type": "Date", "iso": "2020-01-01T00:00:00.000Z"]
        let cases: [(initial: JSON?, objects: JSON, expected: JSON)] = [
            ([1, "a"], [1.0, "a", "b", "b", 2], [1, "a", "b", 2]),
            ([1.0], [1], [1.0]),
            ([1], ["1", true], [1, "1", true]),
            ([true], [1, true, false], [true, 1, false]),
            ([nil], [nil, 0], [nil, 0]),
            (nil, ["x", "y", "x"], ["x", "y"]),
            ([], [nil, nil], [nil]),
            ([pointer("p1")], [pointer("p1"), pointer("p2"), pointer("p1", "Editor")], [pointer("p1"), pointer("p2"), pointer("p1", "Editor")]),
            ([["k": 1]], [["k": 1], ["k": 2], ["k": 2]], [["k": 1], ["k": 2]]),
            ([[1, 2]], [[1, 2], [2, 1]], [[1, 2], [2, 1]]),
            ([date], [date, ["__type": "Date", "iso": "2021-01-01T00:00:00.000Z"]], [date, ["__type": "Date", "iso": "2021-01-01T00:00:00.000Z"]]),
            (["a"], [], ["a"]),
            (.null, [nil, 1, 1], [nil, 1]),
        ]
        for (initial, objects, expected) in cases {
            try await verifyOperation(driver, "Unique", initial: initial, operation: ["__op": "AddUnique", "objects": objects], expected: expected)
        }
    }

    static func removeElements(_ driver: StorageConformanceDriver) async throws {
        let date: JSON = ["__type": "Date", "iso": "2020-01-01T00:00:00.000Z"]
        let cases: [(initial: JSON?, objects: JSON, expected: JSON)] = [
            ([1, 2, 1, "1", 1.0, 3, true], [1], [2, "1", 3, true]),
            ([1, 2, 3, 2, 1], [2, 3, 9], [1, 1]),
            (["a", "b", "a"], ["a"], ["b"]),
            ([["a": 1], ["a": 2], ["a": 1, "b": 0], ["a": 1]], [["a": 1]], [["a": 2], ["a": 1, "b": 0]]),
            ([[1, 2], [2, 1], [1, 2]], [[1, 2]], [[2, 1]]),
            ([["a": 1.0], ["a": "1"]], [["a": 1]], [["a": "1"]]),
            ([pointer("p1"), pointer("p2"), pointer("p1"), pointer("p1", "Editor")], [pointer("p1")], [pointer("p2"), pointer("p1", "Editor")]),
            ([date, "x", date], [date], ["x"]),
            ([nil, 1, nil], [nil], [1]),
            (["keep"], [], ["keep"]),
            (nil, ["x"], []),
            (.null, [nil], []),
        ]
        for (initial, objects, expected) in cases {
            try await verifyOperation(driver, "Remover", initial: initial, operation: ["__op": "Remove", "objects": objects], expected: expected)
        }
    }

    static func relationEdits(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Album", ["title": "first"], id: "album1")
        let tags = (1...4).map { Pointer(className: "Tag", objectId: "tag\($0)") }
        let added = try await driver.updated("Album", "album1", ["tags": ["__op": "AddRelation", "objects": .array(tags.prefix(3).map(\.wire))]])
        try verifyEqual(added, ["title": "first"], "the document after AddRelation (relations live outside it)")
        try verifyEqual(try await driver.store.relationTargets(className: "Album", objectId: "album1", field: "tags"), Array(tags.prefix(3)), "members after AddRelation")
        try await driver.updated("Album", "album1", ["tags": ["__op": "AddRelation", "objects": [tags[0].wire]]])
        try await driver.updated("Album", "album1", ["tags": ["__op": "RemoveRelation", "objects": [tags[1].wire]]])
        try verifyEqual(
            try await driver.store.relationTargets(className: "Album", objectId: "album1", field: "tags"), [tags[0], tags[2]],
            "members after adding an existing member again and removing one"
        )
        let batch: JSON = ["__op": "Batch", "ops": [["__op": "AddRelation", "objects": [tags[3].wire]], ["__op": "RemoveRelation", "objects": [tags[0].wire]]]]
        try await driver.updated("Album", "album1", ["tags": batch])
        try verifyEqual(try await driver.store.relationTargets(className: "Album", objectId: "album1", field: "tags"), [tags[2], tags[3]], "members after a Batch")
        try verifyEqual(try await driver.store.relationTargets(className: "Album", objectId: "album1", field: "other"), [], "members of another field")
        try verifyEqual(try await driver.store.loadSchema(of: "Album")?.fields["tags"], .relation(targetClass: "Tag"), "the recorded type of the relation")
        let missing = try await driver.update("Album", "nope", ["tags": ["__op": "AddRelation", "objects": [tags[0].wire]]])
        try verifyFailure(missing, .objectNotFound(className: "Album", objectId: "nope"), "AddRelation on a missing object")
        try verifyEqual(try await driver.store.relationTargets(className: "Album", objectId: "nope", field: "tags"), [], "members of a missing object")
        try await driver.insert("Album", ["title": "second"], id: "album2", relations: [("tags", [tags[0]])])
        try verifyEqual(try await driver.store.relationTargets(className: "Album", objectId: "album2", field: "tags"), [tags[0]], "members given at insert")
    }

    static func mixedUpdate(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Mixed", ["name": "old", "count": 1, "list": [1], "gone": true, "same": "x"], id: "mixed1")
        let body: JSON = [
            "name": "new", "count": ["__op": "Increment", "amount": 4], "list": ["__op": "AddUnique", "objects": [1, 2]],
            "gone": ["__op": "Delete"], "fresh": ["__type": "Date", "iso": "2020-01-01T00:00:00.000Z"],
        ]
        let expected: JSON = ["name": "new", "count": 5, "list": [1, 2], "same": "x", "fresh": ["__type": "Date", "iso": "2020-01-01T00:00:00.000Z"]]
        try verifyEqual(try await driver.updated("Mixed", "mixed1", body), expected, "the object after a mixed update")
        try verifyEqual(try await driver.fields("Mixed", "mixed1"), expected, "the fetched object after a mixed update")
    }
}
