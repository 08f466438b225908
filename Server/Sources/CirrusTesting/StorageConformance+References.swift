import CirrusModel
import CirrusStorage

/// Sub-queries, relations and read permissions, evaluated by the store in SQL.
extension StorageConformance {
    /// Posts `p1`…`p4` (`p3` hidden from the public), teams `t1`…`t3`, comments `c1`…`c6` pointing at them,
    /// (`t3`, `c4` and `c6` hold values of another type than the schema records), and album `a1` whose Relation `photos` holds `c1` and `c2`.
    static func insertReferences(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Post", ["score": 10, "title": "a"], id: "p1", createdAt: stamp(1))
        try await driver.insert("Post", ["score": 3], id: "p2", createdAt: stamp(2))
        try await driver.insert("Post", ["score": 7], id: "p3", acl: [:], createdAt: stamp(3))
        try await driver.insert("Post", ["score": 20], id: "p4", createdAt: stamp(4))
        try await driver.insert("Team", ["hometown": "x", "won": true], id: "t1")
        try await driver.insert("Team", ["hometown": "y", "won": false], id: "t2")
        try await insertUntyped(driver, "Team", ["hometown": 5, "won": true], id: "t3")
        try await driver.insert("Team", ["hometown": "z", "won": true], id: "t4", acl: ["*": ["write": true]])
        try await driver.insert("Comment", ["post": pointer("p1", "Post"), "city": "x", "tags": ["q"]], id: "c1")
        try await driver.insert("Comment", ["post": pointer("p2", "Post"), "city": "y", "teamId": "t2"], id: "c2")
        try await driver.insert("Comment", ["posts": [pointer("p4", "Post"), pointer("p2", "Post")], "tags": ["x", "q"]], id: "c3")
        try await insertUntyped(driver, "Comment", ["post": pointer("p3", "Post"), "city": 5, "teamId": "t1"], id: "c4")
        try await driver.insert("Comment", ["city": "z"], id: "c5")
        try await insertUntyped(driver, "Comment", ["post": pointer("p1", "Other")], id: "c6")
        let members = [Pointer(className: "Comment", objectId: "c1"), Pointer(className: "Comment", objectId: "c2")]
        try await driver.insert("Album", ["name": "one"], id: "a1", relations: [("photos", members)])
    }

    /// Conditions on `Comment` and the ids they select among ``insertReferences(_:)``, for the master key.
    static var referenceCases: [(name: String, condition: Condition, ids: [String])] {
        func field(_ name: String) -> FieldPath { FieldPath(field: name) }
        func query(_ className: String, _ condition: Condition = .always, limit: Int = 100, skip: Int = 0) -> SubQuery {
            SubQuery(className: className, condition: condition, limit: limit, skip: skip)
        }
        let highScore = Condition.compare(field("score"), .greaterThan, .int(5))
        let won = Condition.compare(field("won"), .equal, .bool(true))
        let album = Pointer(className: "Album", objectId: "a1")
        return [
            ("$inQuery on a Pointer field", .inQuery(field("post"), query("Post", highScore), negated: false), ["c1", "c4"]),
            ("$inQuery on an array of pointers", .inQuery(field("posts"), query("Post", highScore), negated: false), ["c3"]),
            ("$notInQuery", .inQuery(field("post"), query("Post", highScore), negated: true), ["c2", "c3", "c5", "c6"]),
            ("$inQuery on a class that does not exist", .inQuery(field("post"), query("Nope"), negated: false), []),
            ("$notInQuery on a class that does not exist", .inQuery(field("post"), query("Nope"), negated: true), ["c1", "c2", "c3", "c4", "c5", "c6"]),
            ("$inQuery with an inner limit of 0", .inQuery(field("post"), query("Post", limit: 0), negated: false), []),
            ("$inQuery with an inner skip: the limit after it, oldest first", .inQuery(field("post"), query("Post", limit: 2, skip: 1), negated: false),
                ["c2", "c4"]),
            ("$inQuery on an array of pointers with an inner skip", .inQuery(field("posts"), query("Post", limit: 1, skip: 3), negated: false), ["c3"]),
            ("$select with an inner skip past the end", .select(field("city"), query("Team", won, skip: 10), key: field("hometown"), negated: false), []),
            ("nested $inQuery", .inQuery(field("post"), query("Post", .inQuery(field("x"), query("Team"), negated: false)), negated: false), []),
            ("$select", .select(field("city"), query("Team", won), key: field("hometown"), negated: false), ["c1", "c4", "c5"]),
            ("$select on an array field", .select(field("tags"), query("Team", won), key: field("hometown"), negated: false), ["c3"]),
            ("$dontSelect", .select(field("city"), query("Team", won), key: field("hometown"), negated: true), ["c2", "c3", "c6"]),
            ("$select of objectId", .select(field("teamId"), query("Team", .compare(field("won"), .equal, .bool(false))), key: field("objectId"), negated: false),
                ["c2"]),
            ("$select into the outer objectId", .select(field("objectId"), query("Team"), key: field("hometown"), negated: false), []),
            ("$select on a class that does not exist", .select(field("city"), query("Nope"), key: field("x"), negated: false), []),
            ("$dontSelect on a class that does not exist", .select(field("city"), query("Nope"), key: field("x"), negated: true),
                ["c1", "c2", "c3", "c4", "c5", "c6"]),
            ("$relatedTo", .relatedTo(album, key: "photos"), ["c1", "c2"]),
            ("$relatedTo with another key", .relatedTo(album, key: "other"), []),
            ("$relatedTo of a missing owner", .relatedTo(Pointer(className: "Album", objectId: "zz"), key: "photos"), []),
            ("$relatedTo with a condition", .and([.relatedTo(album, key: "photos"), .compare(field("city"), .equal, .string("y"))]), ["c2"]),
            ("pointer equality", .compare(field("post"), .equal, .pointer(Pointer(className: "Post", objectId: "p1"))), ["c1"]),
            ("pointer equality on an array of pointers", .compare(field("posts"), .equal, .pointer(Pointer(className: "Post", objectId: "p2"))), ["c3"]),
        ]
    }

    static func referenceTable(_ driver: StorageConformanceDriver) async throws {
        try await insertReferences(driver)
        for choice in [StorageConformanceDriver.SchemaChoice.current, .none] {
            let label = if case .none = choice { "without schema" } else { "with schema" }
            for (name, condition, expected) in referenceCases {
                try verifyEqual(try await driver.findIds("Comment", condition, schema: choice).sorted(), expected, "\(name) (\(label))")
                try verifyEqual(try await driver.count("Comment", condition, schema: choice), expected.count, "count of \(name) (\(label))")
            }
        }
        let bareIds = Condition.inList(FieldPath(field: "post"), [.string("p1"), .string("p2")], negated: false)
        try verifyEqual(try await driver.findIds("Comment", bareIds).sorted(), ["c1", "c2"], "bare objectIds in $in on a Pointer field")
        let notBareIds = Condition.inList(FieldPath(field: "post"), [.string("p1")], negated: true)
        try verifyEqual(try await driver.findIds("Comment", notBareIds).sorted(), ["c2", "c3", "c4", "c5", "c6"], "bare objectIds in $nin")
    }

    static func innerLimit(_ driver: StorageConformanceDriver) async throws {
        try await insertReferences(driver)
        let referenced = Condition.inList(FieldPath(field: "objectId"), [.string("p1"), .string("p3")], negated: false)
        for limit in [1, 2] {
            let condition = Condition.inQuery(FieldPath(field: "post"), SubQuery(className: "Post", condition: referenced, limit: limit), negated: false)
            let found = try await driver.findIds("Comment", condition)
            try verifyEqual(found.count, limit, "the comments whose post is among \(limit) of the inner objects")
            try verify(Set(found).isSubset(of: ["c1", "c4"]), "comments on p1 or p3 only, got \(found)")
        }
    }

    static func selectBuiltInDates(_ driver: StorageConformanceDriver) async throws {
        let times = [1_700_000_000_007, 1_700_000_123_450, 1_700_000_999_999].map { Timestamp(millisecondsSince1970: $0) }
        for (index, time) in times.enumerated() {
            try await driver.insert("Event", ["n": .int(Int64(index))], id: "e\(index)", createdAt: time)
        }
        try await driver.insert("Reminder", ["at": Value.date(times[1]).wire], id: "m1", createdAt: times[2])
        try await driver.insert("Reminder", ["at": Value.date(Timestamp(millisecondsSince1970: 1_700_000_123_451)).wire], id: "m2")
        let events = SubQuery(className: "Event", condition: .always)
        let byCreation = Condition.select(FieldPath(field: "at"), events, key: FieldPath(field: "createdAt"), negated: false)
        try verifyEqual(try await driver.findIds("Reminder", byCreation), ["m1"], "a Date field against the inner createdAt")
        let excluded = Condition.select(FieldPath(field: "at"), events, key: FieldPath(field: "createdAt"), negated: true)
        try verifyEqual(try await driver.findIds("Reminder", excluded), ["m2"], "$dontSelect on the inner createdAt")
        let reminders = SubQuery(className: "Reminder", condition: .always)
        let outer = Condition.select(FieldPath(field: "createdAt"), reminders, key: FieldPath(field: "at"), negated: false)
        try verifyEqual(try await driver.findIds("Event", outer), ["e1"], "the outer createdAt against an inner Date field")
        let updated = Condition.select(FieldPath(field: "updatedAt"), reminders, key: FieldPath(field: "at"), negated: false)
        try verifyEqual(try await driver.findIds("Event", updated), ["e1"], "the outer updatedAt (equal to createdAt on insert)")
    }

    /// Objects of `Secret` with every kind of ACL.
    static let secrets: [(id: String, acl: JSON?)] = [
        ("r1", nil),
        ("r2", ["*": ["read": true, "write": true]]),
        ("r3", [:]),
        ("r4", ["*": ["write": true]]),
        ("r5", ["u1": ["read": true]]),
        ("r6", ["*": ["read": false]]),
        ("r7", ["role:admin": ["read": true]]),
    ]

    static func readAccess(_ driver: StorageConformanceDriver) async throws {
        for (offset, secret) in secrets.enumerated() {
            try await driver.insert("Secret", ["n": .int(Int64(offset))], id: secret.id, acl: secret.acl)
        }
        let schema = try await driver.store.loadSchema(of: "Secret")
        let cases: [(readers: [String]?, ids: [String])] = [
            (nil, ["r1", "r2", "r3", "r4", "r5", "r6", "r7"]),
            (["*"], ["r1", "r2"]),
            (["*", "u1"], ["r1", "r2", "r5"]),
            (["role:admin"], ["r1", "r7"]),
            ([], ["r1"]),
        ]
        for (readers, expected) in cases {
            let label = readers.map { "readers \($0)" } ?? "the master key"
            for condition in [Condition.always, .compare(FieldPath(field: "n"), .greaterThanOrEqual, .int(0))] {
                let query = StorageQuery(className: "Secret", schema: schema, condition: condition, readers: readers)
                try verifyEqual(try await driver.store.find(query).map(\.objectId).sorted(), expected, "find for \(label)")
                try verifyEqual(try await driver.store.count(query), expected.count, "count for \(label)")
                let sum = Aggregation(className: "Secret", functions: [(.sum, FieldPath(field: "n"))], countsGroups: true)
                let rows = try await driver.store.aggregate(StorageAggregation(query: query, aggregation: sum))
                try verifyEqual(rows.first?.objectValue?["_count"], .int(Int64(expected.count)), "the statistics count for \(label)")
            }
        }
    }

    static func readAccessInSubQueries(_ driver: StorageConformanceDriver) async throws {
        try await insertReferences(driver)
        let schema = try await driver.store.loadSchema(of: "Comment")
        let highScore = Condition.compare(FieldPath(field: "score"), .greaterThan, .int(5))
        let won = Condition.compare(FieldPath(field: "won"), .equal, .bool(true))
        let cases: [(String, Condition, [String])] = [
            ("$inQuery skips hidden inner objects", .inQuery(FieldPath(field: "post"), SubQuery(className: "Post", condition: highScore), negated: false), ["c1"]),
            ("$notInQuery counts hidden inner objects as not found",
                .inQuery(FieldPath(field: "post"), SubQuery(className: "Post", condition: highScore), negated: true), ["c2", "c3", "c4", "c5", "c6"]),
            ("$select skips hidden inner objects",
                .select(FieldPath(field: "city"), SubQuery(className: "Team", condition: won), key: FieldPath(field: "hometown"), negated: false), ["c1", "c4"]),
        ]
        for (name, condition, expected) in cases {
            let query = StorageQuery(className: "Comment", schema: schema, condition: condition, readers: ["*"])
            try verifyEqual(try await driver.store.find(query).map(\.objectId).sorted(), expected, name)
            try verifyEqual(try await driver.store.count(query), expected.count, "count: \(name)")
        }
    }
}
