import CirrusModel
import CirrusStorage

/// Updates below the top level, and the element order of array operations on long arrays.
extension StorageConformance {
    static var nestedPathChecks: [StorageCheck] {
        [
            StorageCheck("a.b sets a member of an object and keeps its siblings", setMember),
            StorageCheck("a write below missing parents creates them as objects", createsParents),
            StorageCheck("arr.0.name writes into an element of an array, arr.1 into the element itself", writesIntoArrays),
            StorageCheck("scores.2019 writes the key \"2019\" of an object, never an array index", numericKeysOfObjects),
            StorageCheck("Delete, Increment and array operations work on nested paths", nestedOperations),
            StorageCheck("Increment and bit operations count a nested value that is not a number (or beyond 64 bits) as 0", nonNumbers),
        ]
    }

    static var arrayOrderChecks: [StorageCheck] {
        [
            StorageCheck("Remove and AddUnique keep the order of arrays of hundreds of elements", longArrayOrder),
            StorageCheck("Add, AddUnique and Remove accept a thousand elements in one operation", manyElements),
        ]
    }

    static func setMember(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Nested", ["a": ["c": 1, "d": ["e": true]], "top": 1], id: "n1")
        let after = try await driver.updated("Nested", "n1", ["a.b": 2, "a.d.f": "x"])
        let expected: JSON = ["a": ["b": 2, "c": 1, "d": ["e": true, "f": "x"]], "top": 1]
        try verifyEqual(after, expected, "the object after a.b and a.d.f")
        try verifyEqual(try await driver.fields("Nested", "n1"), expected, "the fetched object")
        try await driver.updated("Nested", "n1", ["a.c": ["replaced": [1, 2]]])
        try verifyEqual(try await driver.fields("Nested", "n1")["a"]?["c"], ["replaced": [1, 2]], "a.c after setting an object there")
    }

    static func createsParents(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Nested", ["top": 1], id: "n2")
        let after = try await driver.updated("Nested", "n2", ["x.y.z": 1, "stats.views": ["__op": "Increment", "amount": 3]])
        let expected: JSON = ["top": 1, "x": ["y": ["z": 1]], "stats": ["views": 3]]
        try verifyEqual(after, expected, "the object after writes below missing parents")
        try verifyEqual(try await driver.fields("Nested", "n2"), expected, "the fetched object")
    }

    static func writesIntoArrays(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Nested", ["arr": [["name": "old", "k": 1], ["name": "two"]], "nums": [1, 2, 3]], id: "n3")
        let after = try await driver.updated("Nested", "n3", ["arr.0.name": "new", "arr.1.extra": true, "nums.1": ["__op": "Increment", "amount": 10]])
        let expected: JSON = ["arr": [["name": "new", "k": 1], ["name": "two", "extra": true]], "nums": [1, 12, 3]]
        try verifyEqual(after, expected, "the object after writes into array elements")
        try await driver.updated("Nested", "n3", ["nums.0": "first"])
        try verifyEqual(try await driver.fields("Nested", "n3")["nums"], ["first", 12, 3], "nums after setting element 0")
    }

    static func numericKeysOfObjects(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Nested", ["scores": ["2018": 1]], id: "n4")
        let after = try await driver.updated("Nested", "n4", ["scores.2019": 5, "scores.2018": ["__op": "Increment", "amount": 2]])
        try verifyEqual(after["scores"], ["2018": 3, "2019": 5], "scores after writing numeric keys")
        try await driver.updated("Nested", "n4", ["scores.0": "zero", "later.7": 7])
        let fetched = try await driver.fields("Nested", "n4")
        try verifyEqual(fetched["scores"], ["0": "zero", "2018": 3, "2019": 5], "scores after writing the key 0")
        try verifyEqual(fetched["later"], ["7": 7], "a missing parent of a numeric key becomes an object")
    }

    static func nestedOperations(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Nested", ["o": ["gone": 1, "kept": 2, "list": [1], "bits": 12, "n": 1.5]], id: "n5")
        let body: JSON = [
            "o.gone": ["__op": "Delete"], "o.list": ["__op": "Add", "objects": [2, 2]], "o.bits": ["__op": "BitXor", "value": 10],
            "o.n": ["__op": "Increment", "amount": 1], "o.tags": ["__op": "AddUnique", "objects": ["a", "a"]],
        ]
        let expected: JSON = ["o": ["kept": 2, "list": [1, 2, 2], "bits": 6, "n": 2.5, "tags": ["a"]]]
        try verifyEqual(try await driver.updated("Nested", "n5", body), expected, "the object after nested operations")
        try await driver.updated("Nested", "n5", ["o.list": ["__op": "Remove", "objects": [2]], "o.missing": ["__op": "Delete"]])
        try verifyEqual(try await driver.fields("Nested", "n5")["o"]?["list"], [1], "o.list after Remove")
    }

    static func nonNumbers(_ driver: StorageConformanceDriver) async throws {
        let inner: JSON = ["text": "12", "flag": true, "huge": 1e300, "real": -7.9, "list": [3]]
        try await driver.insert("Nested", ["o": inner], id: "n6")
        let operations: [(String, JSON)] = [
            ("text", ["__op": "Increment", "amount": 1]), ("flag", ["__op": "BitOr", "value": 1]), ("huge", ["__op": "BitOr", "value": 1]),
            ("real", ["__op": "BitAnd", "value": -1]), ("list", ["__op": "Increment", "amount": 2.5]),
        ]
        var body: [String: JSON] = [:]
        var expected: [String: JSON] = [:]
        for (key, operation) in operations {
            body["o." + key] = operation
            expected[key] = try oracle(inner[key], operation)
        }
        try verifyEqual(try await driver.updated("Nested", "n6", .object(body))["o"], .object(expected), "non-numbers under Increment and bit operations")
    }

    static func longArrayOrder(_ driver: StorageConformanceDriver) async throws {
        let numbers = (0..<400).map { JSON.int(Int64($0)) }
        let words = (0..<300).map { JSON.string("w\(($0 * 7919) % 1000)") }
        try await driver.insert("Long", ["numbers": .array(numbers), "words": .array(words)], id: "long1")

        let removed = stride(from: 0, to: 400, by: 3).map { JSON.int(Int64($0)) }
        try await driver.updated("Long", "long1", ["numbers": ["__op": "Remove", "objects": .array(removed)]])
        let remaining = numbers.filter { !removed.contains($0) }
        try verifyEqual(try await driver.fields("Long", "long1")["numbers"], .array(remaining), "numbers after removing every third")

        let extra: [JSON] = [words[5], "new1", words[250], "new2", "new1"]
        try await driver.updated("Long", "long1", ["words": ["__op": "AddUnique", "objects": .array(extra)]])
        try verifyEqual(try await driver.fields("Long", "long1")["words"], .array(words + ["new1", "new2"]), "words after AddUnique")

        try await driver.updated("Long", "long1", ["words": ["__op": "Remove", "objects": [words[0], words[299]]]])
        try verifyEqual(
            try await driver.fields("Long", "long1")["words"], .array(Array(words[1..<299]) + ["new1", "new2"]), "words after Remove"
        )
    }

    static func manyElements(_ driver: StorageConformanceDriver) async throws {
        let thousand = (0..<1000).map { JSON.int(Int64($0)) }
        try await driver.insert("Long", ["list": []], id: "many1")
        try await driver.updated("Long", "many1", ["list": ["__op": "Add", "objects": .array(thousand)]])
        try verifyEqual(try await driver.fields("Long", "many1")["list"], .array(thousand), "the list after adding 1000 elements")
        let more = (500..<1500).map { JSON.int(Int64($0)) }
        try await driver.updated("Long", "many1", ["list": ["__op": "AddUnique", "objects": .array(more)]])
        let all = (0..<1500).map { JSON.int(Int64($0)) }
        try verifyEqual(try await driver.fields("Long", "many1")["list"], .array(all), "the list after AddUnique of 1000 elements")
        let odd = all.filter { ($0.intValue ?? 0) % 2 == 1 }
        try await driver.updated("Long", "many1", ["list": ["__op": "Remove", "objects": .array(odd)]])
        try verifyEqual(
            try await driver.fields("Long", "many1")["list"], .array(all.filter { ($0.intValue ?? 0) % 2 == 0 }), "the list after removing 750 elements"
        )
    }
}
