import CirrusModel
import CirrusStorage

/// The schema registry: recorded types, conflicts, class names, relation rows.
extension StorageConformance {
    static var schemaChecks: [StorageCheck] {
        [
            StorageCheck("loadSchemas and loadSchema return the recorded type of every field", loadSchemas),
            StorageCheck("an insert with a type that conflicts with the recorded one fails with typeConflict and stores nothing", insertTypeConflict),
            StorageCheck("an update with a conflicting type fails with typeConflict even when the service's schema is stale", updateTypeConflict),
            StorageCheck("classes whose names differ only in case are kept apart", classesDifferingInCase),
            StorageCheck("classes with long names that share their first 63 characters are kept apart", classesSharingLongPrefix),
            StorageCheck("deleting an object removes its relation rows", deleteRemovesRelations),
        ]
    }

    static func loadSchemas(_ driver: StorageConformanceDriver) async throws {
        try verifyEqual(try await driver.store.loadSchemas(), [], "the schemas of an empty store")
        try await driver.insert("Everything", everyType, id: "s1")
        try await driver.insert("Other", ["title": "x"], id: "s2", relations: [("members", [Pointer(className: "_User", objectId: "u1")])])
        let expected: [String: FieldType] = [
            "text": .string, "empty": .string, "integer": .number, "negative": .number, "zero": .number, "largest": .number,
            "smallest": .number, "beyondDouble": .number, "real": .number, "whole": .number, "tiny": .number, "huge": .number,
            "third": .number, "negativeReal": .number, "yes": .boolean, "no": .boolean, "object": .object, "array": .array,
            "emptyArray": .array, "emptyObject": .object, "date": .date, "bytes": .bytes, "pointer": .pointer(targetClass: "Author"),
            "file": .file, "geo": .geoPoint, "datesInArray": .array,
        ]
        let all = try await driver.store.loadSchemas().sorted { $0.className < $1.className }
        try verifyEqual(all.map(\.className), ["Everything", "Other"], "the classes")
        try verifyEqual(all.first?.fields, expected, "the fields of Everything")
        try verifyEqual(all.last?.fields, ["title": .string, "members": .relation(targetClass: "_User")], "the fields of Other")
        try verifyEqual(try await driver.store.loadSchema(of: "Everything"), ClassSchema(className: "Everything", fields: expected), "loadSchema")
        try verifyEqual(try await driver.store.loadSchema(of: "Nothing"), nil, "the schema of a missing class")
        try verifyEqual(try await driver.store.loadSchema(of: "everything"), nil, "the schema of a class named in another case")
        try await driver.updated("Other", "s2", ["added": 1.5, "nested.key": true])
        try verifyEqual(
            try await driver.store.loadSchema(of: "Other")?.fields,
            ["title": .string, "members": .relation(targetClass: "_User"), "added": .number, "nested": .object],
            "the fields after an update introduced some"
        )
    }

    static func insertTypeConflict(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Typed", ["score": 1, "name": "a"], id: "t1")
        let conflicting = try await driver.perform(try driver.insertCommand("Typed", ["score": "high", "extra": true], id: "t2"))
        try verifyFailure(conflicting, .typeConflict(field: "score", recorded: .number, attempted: .string), "inserting a string into a Number field")
        try verifyEqual(try await driver.findIds("Typed"), ["t1"], "the objects after the refused insert")
        try verifyEqual(try await driver.store.loadSchema(of: "Typed")?.fields, ["score": .number, "name": .string], "the schema after the refused insert")
        let first = try await driver.perform(try driver.insertCommand("Typed", ["owner": pointer("a", "Author")], id: "t3"))
        try verifySuccess(first, "inserting a pointer")
        let otherTarget = try await driver.perform(try driver.insertCommand("Typed", ["owner": pointer("b", "Editor")], id: "t4"))
        try verifyFailure(
            otherTarget, .typeConflict(field: "owner", recorded: .pointer(targetClass: "Author"), attempted: .pointer(targetClass: "Editor")),
            "inserting a pointer to another class"
        )
        try await driver.insert("Untyped", ["score": "a string is fine in another class"])
    }

    static func updateTypeConflict(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Typed", ["score": 1], id: "t5")
        let conflict = StorageError.typeConflict(field: "score", recorded: .number, attempted: .string)
        let stale = try await driver.update("Typed", "t5", ["score": "high"], schema: .none)
        try verifyFailure(stale, conflict, "setting a string with no schema known to the service")
        let older = try await driver.update("Typed", "t5", ["score": "high", "fine": 1], schema: .given(ClassSchema(className: "Typed")))
        try verifyFailure(older, conflict, "setting a string with a stale schema")
        let array = try await driver.update("Typed", "t5", ["score": ["__op": "Add", "objects": [1]]], schema: .none)
        try verifyFailure(array, .typeConflict(field: "score", recorded: .number, attempted: .array), "adding to a Number field")
        try verifyEqual(try await driver.fields("Typed", "t5"), ["score": 1], "the object after refused updates")
        try verifyEqual(try await driver.store.loadSchema(of: "Typed")?.fields, ["score": .number], "the schema after refused updates")
        try verifySuccess(try await driver.update("Typed", "t5", ["score": 2.5], schema: .none), "setting a double in a Number field")
    }

    static func classesSharingLongPrefix(_ driver: StorageConformanceDriver) async throws {
        // PostgreSQL cuts identifiers at 63 bytes: these would have named one table, and one's objects the other's.
        let prefix = String(repeating: "Shared", count: 20)
        try await driver.insert(prefix + "One", ["secret": "one's"], id: "l1")
        try await driver.insert(prefix + "Two", ["open": 2], id: "l2")
        try verifyEqual(try await driver.findIds(prefix + "One"), ["l1"], "objects of the first class")
        try verifyEqual(try await driver.findIds(prefix + "Two"), ["l2"], "objects of the second class")
        try verifyEqual(try await driver.store.loadSchema(of: prefix + "Two")?.fields, ["open": .number], "the schema of the second class")
        try await driver.updated(prefix + "Two", "l2", ["open": ["__op": "Increment"]])
        try verifyEqual(try await driver.fields(prefix + "One", "l1"), ["secret": "one's"], "the first class's object after the second's update")
    }

    static func classesDifferingInCase(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Post", ["title": "upper"], id: "p1")
        try await driver.insert("post", ["title": 2], id: "p2")
        try await driver.insert("POST", ["other": true], id: "p1")
        try verifyEqual(try await driver.findIds("Post"), ["p1"], "objects of Post")
        try verifyEqual(try await driver.findIds("post"), ["p2"], "objects of post")
        try verifyEqual(try await driver.fields("POST", "p1"), ["other": true], "the POST object sharing an id with a Post object")
        try verifyEqual(try await driver.fetch("Post", "p2"), nil, "a post object fetched as Post")
        try verifyEqual(try await driver.store.loadSchema(of: "post")?.fields, ["title": .number], "the schema of post")
        try verifyEqual(try await driver.store.loadSchema(of: "Post")?.fields, ["title": .string], "the schema of Post")
        try await driver.updated("post", "p2", ["title": ["__op": "Increment"]])
        try verifySuccess(try await driver.perform(try await driver.deleteCommand("POST", ["p1"])), "deleting POST/p1")
        try verifyEqual(try await driver.fields("Post", "p1"), ["title": "upper"], "Post/p1 after deleting POST/p1")
        try verifyEqual(try await driver.fields("post", "p2"), ["title": 3], "post/p2 after its update")
        try verifyEqual(try await driver.store.loadSchemas().map(\.className).sorted(), ["POST", "Post", "post"], "the classes")
    }

    static func deleteRemovesRelations(_ driver: StorageConformanceDriver) async throws {
        let members = [Pointer(className: "_User", objectId: "u1"), Pointer(className: "_User", objectId: "u2")]
        try await driver.insert("Team", ["name": "a"], id: "team1", relations: [("members", members)])
        try await driver.insert("Team", ["name": "b"], id: "team2", relations: [("members", [members[0]])])
        try verifyEqual(try await driver.store.relationTargets(className: "Team", objectId: "team1", field: "members"), members, "members before delete")
        try verifySuccess(try await driver.perform(try await driver.deleteCommand("Team", ["team1"])), "deleting the team")
        try verifyEqual(try await driver.store.relationTargets(className: "Team", objectId: "team1", field: "members"), [], "members after delete")
        try verifyEqual(
            try await driver.store.relationTargets(className: "Team", objectId: "team2", field: "members"), [members[0]], "members of another object"
        )
        try await driver.insert("Team", ["name": "again"], id: "team1")
        try verifyEqual(
            try await driver.store.relationTargets(className: "Team", objectId: "team1", field: "members"), [], "members of a new object with the same id"
        )
    }
}
