import CirrusModel
import CirrusStorage

/// Inserting and reading back every value type and the built-in columns.
extension StorageConformance {
    static var valueChecks: [StorageCheck] {
        [
            StorageCheck("every value type round-trips unchanged through insert, fetch and find", roundTripEveryType),
            StorageCheck("values keep their exact form when another field of the object is updated", valuesSurviveUpdates),
            StorageCheck("objectId, createdAt, updatedAt and the ACL round-trip, and an object without ACL has none", builtInColumns),
            StorageCheck("inserting an existing objectId fails with duplicateObjectId and keeps the first object", duplicateObjectId),
        ]
    }

    /// A document with a field of every type, with awkward numbers and strings.
    static let everyType: JSON = [
        "text": "héllo \"quoted\" \\ back/slash\n\ttab ✓ 😀 \u{01}",
        "empty": "",
        "integer": 42, "negative": -7, "zero": 0,
        "largest": .int(Int64.max), "smallest": .int(Int64.min), "beyondDouble": 9_007_199_254_740_993,
        "real": 3.25, "whole": 3.0, "tiny": 1e-7, "huge": 1e20, "third": .double(1.0 / 3.0), "negativeReal": -0.5,
        "yes": true, "no": false, "nothing": nil,
        "object": ["a": 1, "b": ["c": [1, "two", nil, true]], "d": 2.5, "weird key": "spaces and ünïcode"],
        "array": [1, 2.0, "three", nil, false, ["nested": true], [1, [2]]],
        "emptyArray": [], "emptyObject": [:],
        "date": ["__type": "Date", "iso": "2015-06-21T18:02:52.249Z"],
        "bytes": ["__type": "Bytes", "base64": "AQIDBA=="],
        "pointer": ["__type": "Pointer", "className": "Author", "objectId": "55a39634e4b0ed48f0c1845c"],
        "file": ["__type": "File", "id": "55a39634e4b0ed48f0c1845d", "name": "photo.jpg", "url": "https://files.example.com/photo.jpg"],
        "geo": ["__type": "GeoPoint", "latitude": 39.9, "longitude": -116.4],
        "datesInArray": [["__type": "Date", "iso": "1999-12-31T23:59:59.999Z"], ["__type": "Pointer", "className": "Author", "objectId": "x1"]],
    ]

    static func roundTripEveryType(_ driver: StorageConformanceDriver) async throws {
        let inserted = try await driver.insert("Everything", everyType, id: "every1")
        try verifyEqual(JSON.object(inserted.fields), everyType, "the inserted object as reported")
        let fetched = try await driver.fields("Everything", "every1")
        try verifyEqual(fetched, everyType, "the fetched object")
        for (key, value) in everyType.objectValue! {
            try verifyEqual(fetched[key], value, "field \(key)")
        }
        let found = try await driver.store.find(StorageQuery(className: "Everything", schema: nil, condition: .always))
        try verifyEqual(found.map { JSON.object($0.fields) }, [everyType], "the objects found")
    }

    static func valuesSurviveUpdates(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Everything", everyType, id: "every2")
        let body: JSON = ["counter": ["__op": "Increment", "amount": 1], "object.added": "x", "array": ["__op": "Add", "objects": [9]]]
        let after = try await driver.updated("Everything", "every2", body)
        var expected = everyType.objectValue!
        expected["counter"] = 1
        expected["object"] = .object(everyType["object"]!.objectValue!.merging(["added": "x"]) { $1 })
        expected["array"] = .array(everyType["array"]!.arrayValue! + [9])
        try verifyEqual(after, .object(expected), "the object returned by the update")
        try verifyEqual(try await driver.fields("Everything", "every2"), .object(expected), "the object fetched after the update")
    }

    static func builtInColumns(_ driver: StorageConformanceDriver) async throws {
        let created = Timestamp(millisecondsSince1970: 1_434_909_772_249)
        let acl: JSON = ["*": ["read": true], "55a39634e4b0ed48f0c1845c": ["read": true, "write": true], "role:admin": ["write": true]]
        try await driver.insert("Builtin", ["n": 1], id: "builtin1", acl: acl, createdAt: created)
        try await driver.insert("Builtin", ["n": 2], id: "builtin2", createdAt: created)
        let first = try await driver.fetch("Builtin", "builtin1")
        try verifyEqual(first?.objectId, "builtin1", "objectId")
        try verifyEqual(first?.className, "Builtin", "className")
        try verifyEqual(first?.createdAt, created, "createdAt")
        try verifyEqual(first?.updatedAt, created, "updatedAt")
        try verifyEqual(first?.acl, acl, "the ACL")
        try verifyEqual(first?.fields, ["n": 1], "fields (built-ins are not part of the document)")
        let second = try await driver.fetch("Builtin", "builtin2")
        try verify(second != nil && second?.acl == nil, "an object inserted without ACL must read back without ACL, got \(String(describing: second?.acl))")

        let later = Timestamp(millisecondsSince1970: created.millisecondsSince1970 + 1_001)
        let command = try await driver.updateCommand("Builtin", "builtin1", ["n": 5], updatedAt: later)
        guard case .updated(let updated) = try verifySuccess(try await driver.perform(command), "the update") else {
            throw failure("an update did not report the updated object")
        }
        try verifyEqual(updated.updatedAt, later, "updatedAt after an update")
        try verifyEqual(updated.createdAt, created, "createdAt after an update")
        try verifyEqual(try await driver.fetch("Builtin", "builtin1")?.updatedAt, later, "the fetched updatedAt")

        let cleared = try await driver.update("Builtin", "builtin1", ["ACL": nil])
        try verifyEqual(try verifySuccess(cleared, "removing the ACL").acl, nil, "the ACL after removing it")
        let replaced = try await driver.update("Builtin", "builtin2", ["ACL": ["*": ["read": true]]])
        try verifyEqual(try verifySuccess(replaced, "setting an ACL").acl, ["*": ["read": true]], "the ACL after setting it")
        try verifyEqual(try await driver.fetch("Builtin", "builtin2")?.acl, ["*": ["read": true]], "the fetched ACL")
    }

    static func duplicateObjectId(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Duplicate", ["n": 1], id: "dup1")
        let again = try await driver.perform(try driver.insertCommand("Duplicate", ["n": 2], id: "dup1"))
        guard case .failure(.duplicateObjectId) = again else {
            throw failure("a second insert with the same id gave \(again)")
        }
        try verifyEqual(try await driver.fields("Duplicate", "dup1"), ["n": 1], "the first object")
        try verifyEqual(try await driver.count("Duplicate"), 1, "the number of objects")
    }
}
