import CirrusModel
import CirrusTesting
import Foundation
import HTTPTypes
import Testing

/// Parse's `$text` where-condition and `$score` (docs/SEARCH.md) over HTTP on the test store, with Parse Server's own
/// full-text fixtures (spec/ParseQuery.FullTextSearch.spec.js) and CJK text.
@Suite("Parse $text and $score")
struct TextConditionTests {
    static let subjects = [
        "coffee", "Coffee Shopping", "Baking a cake", "baking", "Café Con Leche", "Сырники", "coffee and cream", "Cafe con Leche", "冰咖啡很好喝",
    ]

    /// A server with the subjects in `TestObject`, `subject` a search field (half stored before search was on).
    static func withSubjects(_ body: @Sendable (TestClient) async throws -> Void) async throws {
        try await TestServer.with { client in
            for subject in subjects.prefix(4) { _ = try await client.create(.parse, "TestObject", ["subject": .string(subject), "comment": .string(subject)]) }
            let enabled = try await client.request(.parse, .put, "/schemas/TestObject", json: ["search": ["fields": ["subject"]]], auth: .master)
            #expect(enabled.status == 200, "\(enabled.bodyText)")
            for subject in subjects.dropFirst(4) { _ = try await client.create(.parse, "TestObject", ["subject": .string(subject), "comment": .string(subject)]) }
            try await body(client)
        }
    }

    static func text(_ term: String, field: String = "subject", extra: [String: JSON] = [:]) -> JSON {
        .object([field: ["$text": ["$search": .object(["$term": .string(term)].merging(extra) { $1 })]]])
    }

    /// Parse's SDKs' find: a POST with `_method: GET`.
    static func find(_ client: TestClient, _ body: JSON, auth: TestClient.Auth = .appKey) async throws -> TestReply {
        guard case .object(var members) = body else { return try await client.request(.parse, .post, "/classes/TestObject", json: body, auth: auth) }
        members["_method"] = "GET"
        return try await client.request(.parse, .post, "/classes/TestObject", json: .object(members), auth: auth)
    }

    static func subjects(_ reply: TestReply) -> [String] {
        reply.json["results"]?.arrayValue?.compactMap { $0["subject"]?.stringValue } ?? []
    }

    @Test("$search finds what Parse Server's tests expect, CJK words included", arguments: [
        ("coffee", [:], ["coffee", "Coffee Shopping", "coffee and cream"]),
        ("leche", ["$language": "spanish"], ["Café Con Leche", "Cafe con Leche"]),
        ("CAFÉ", [:], ["Café Con Leche", "Cafe con Leche"]),
        ("CAFÉ", ["$diacriticSensitive": false], ["Café Con Leche", "Cafe con Leche"]),
        ("\"coffee and\"", [:], ["coffee and cream"]),
        ("coffee -cream", [:], ["coffee", "Coffee Shopping"]),
        ("咖啡", [:], ["冰咖啡很好喝"]),
        ("Сырники", [:], ["Сырники"]),
    ] as [(String, [String: JSON], [String])])
    func finds(_ term: String, _ extra: [String: JSON], _ expected: [String]) async throws {
        try await Self.withSubjects { client in
            let reply = try await Self.find(client, ["where": Self.text(term, extra: extra)])
            #expect(reply.status == 200, "\(reply.bodyText)")
            #expect(Set(Self.subjects(reply)) == Set(expected), "\(term): \(reply.bodyText)")
            let counted = try await Self.find(client, ["where": Self.text(term, extra: extra), "count": 1, "limit": 0])
            #expect(counted.json["count"]?.intValue == Int64(expected.count), "\(counted.bodyText)")
            let leancloud = try await client.request(.leancloud, .get, "/classes/TestObject?" + URLQuery.whereClause(Self.text(term, extra: extra)))
            #expect(Set(Self.subjects(leancloud)) == Set(expected), "the same condition in the LeanCloud dialect: \(leancloud.bodyText)")
        }
    }

    @Test("order=$score ranks the best match first and keys=$score answers each object's score as Parse's `score`")
    func score() async throws {
        try await Self.withSubjects { client in
            let reply = try await Self.find(client, ["where": Self.text("coffee cream"), "order": "$score", "keys": "$score"])
            #expect(reply.status == 200, "\(reply.bodyText)")
            let results = reply.json["results"]?.arrayValue ?? []
            #expect(results.count == 3, "\(reply.bodyText)")
            let scores = results.compactMap { $0["score"]?.doubleValue }
            #expect(scores.count == 3 && scores.allSatisfy { $0 > 0 }, "\(reply.bodyText)")
            #expect(zip(scores, scores.dropFirst()).allSatisfy { $0 >= $1 }, "best first: \(scores)")
            #expect(results.allSatisfy { $0["subject"] == nil && $0["objectId"] != nil }, "keys=$score selects the score alone")
            let best = try #require(results.first?["objectId"]?.stringValue)
            #expect(try await client.fetch(.parse, "TestObject", best).json["subject"] == "coffee and cream", "both words rank first")

            let worstFirst = try await Self.find(client, ["where": Self.text("coffee cream"), "order": "-$score", "keys": "$score,subject"])
            #expect(worstFirst.json["results"]?.arrayValue?.last?["subject"] == "coffee and cream", "\(worstFirst.bodyText)")
            let sorted = try await Self.find(client, ["where": Self.text("coffee"), "order": "subject", "keys": "subject,$score"])
            #expect(Self.subjects(sorted) == ["Coffee Shopping", "coffee", "coffee and cream"], "another order, scores still given: \(sorted.bodyText)")
            #expect(sorted.json["results"]?.arrayValue?.allSatisfy { ($0["score"]?.doubleValue ?? 0) > 0 } == true)
        }
    }

    @Test("$text works in $or, in a sub-query on another class and in a conditional update")
    func composed() async throws {
        try await Self.withSubjects { client in
            let either = try await Self.find(client, ["where": ["$or": [Self.text("baking"), ["subject": "Сырники"]]]])
            #expect(Set(Self.subjects(either)) == ["Baking a cake", "baking", "Сырники"], "\(either.bodyText)")

            let found = try await Self.find(client, ["where": Self.text("cake")])
            let cake = try #require(found.json["results"]?.arrayValue?.first?["objectId"]?.stringValue)
            _ = try await client.create(.parse, "Order", ["item": ["__type": "Pointer", "className": "TestObject", "objectId": .string(cake)]])
            _ = try await client.create(.parse, "Order", ["item": ["__type": "Pointer", "className": "TestObject", "objectId": "none"]])
            let inner: JSON = ["item": ["$inQuery": ["className": "TestObject", "where": Self.text("cake")]]]
            let orders = try await client.request(.parse, .get, "/classes/Order?" + URLQuery.whereClause(inner))
            #expect(orders.json["results"]?.arrayValue?.count == 1, "\(orders.bodyText)")

            let update = "/classes/TestObject/\(cake)?" + URLQuery.whereClause(Self.text("cake"))
            #expect(try await client.request(.leancloud, .put, update, json: ["comment": "matched"]).status == 200)
            let missed = "/classes/TestObject/\(cake)?" + URLQuery.whereClause(Self.text("coffee"))
            let refused = try await client.request(.leancloud, .put, missed, json: ["comment": "not matched"])
            #expect(refused.json["code"] == 305, "\(refused.bodyText)")
            #expect(try await client.fetch(.parse, "TestObject", cake).json["comment"] == "matched")
        }
    }

    @Test("objects the caller may not read are neither found nor counted, and a hidden field cannot be searched (119, as any condition on it)")
    func readRights() async throws {
        try await Self.withSubjects { client in
            let owner = try await client.signUp(.leancloud, "owner-\(UUID().uuidString.prefix(6))")
            let secret: JSON = ["subject": "secret coffee", "ACL": [owner.id: ["read": true, "write": true]]]
            #expect(try await client.send(.leancloud, .post, "/1.1/classes/TestObject", json: secret, auth: .session(owner.token)).status == 201)
            let anonymous = try await Self.find(client, ["where": Self.text("secret"), "count": 1])
            #expect(anonymous.json["results"] == [] && anonymous.json["count"] == 0, "\(anonymous.bodyText)")
            let mine = try await Self.find(client, ["where": Self.text("secret"), "count": 1], auth: .session(owner.token))
            #expect(Self.subjects(mine) == ["secret coffee"] && mine.json["count"] == 1, "\(mine.bodyText)")

            _ = try await client.request(.leancloud, .put, "/schemas/TestObject", json: ["fields": ["subject": ["type": "String", "hidden": true]]], auth: .master)
            let hidden = try await Self.find(client, ["where": Self.text("coffee")])
            #expect(hidden.status == 403 && hidden.json["code"] == 119, "a hidden field is not searchable by clients: \(hidden.bodyText)")
            #expect(try await Self.find(client, ["where": Self.text("coffee")], auth: .master).status == 200)
        }
    }

    @Test("bad $text is refused in the caller's dialect: malformed operands as INVALID_JSON, a field outside the index, $score without $text")
    func refusals() async throws {
        try await Self.withSubjects { client in
            let malformed: [JSON] = [
                ["subject": ["$text": ["$search": true]]],
                Self.text("leche", extra: ["$language": true]),
                Self.text("Coffee", extra: ["$caseSensitive": "string"]),
                Self.text("CAFÉ", extra: ["$diacriticSensitive": "string"]),
                Self.text("Coffee", extra: ["$caseSensitive": true]),
                Self.text("\"coffee"),
                Self.text("-coffee"),
            ]
            for condition in malformed {
                let reply = try await Self.find(client, ["where": condition])
                #expect(reply.status == 400 && reply.json["code"] == 107, "\(condition): \(reply.bodyText)")
            }
            let unindexed = try await Self.find(client, ["where": Self.text("coffee", field: "comment")])
            #expect(unindexed.status == 400 && unindexed.json["code"] == 102, "\(unindexed.bodyText)")
            #expect(unindexed.json["error"]?.stringValue?.contains("search fields") == true)
            let unranked = try await Self.find(client, ["where": ["subject": "coffee"], "order": "$score"])
            #expect(unranked.status == 400 && unranked.json["code"] == 102, "\(unranked.bodyText)")
            let bmob = try await client.request(.bmob, .get, "/classes/TestObject?" + URLQuery.whereClause(Self.text("coffee", field: "comment")))
            #expect(bmob.status == 400 && bmob.json["code"] != nil, "\(bmob.bodyText)")
        }
    }

    @Test("a Parse text index in the schema API makes its fields search fields, so $text answers on them")
    func textIndex() async throws {
        try await TestServer.with { client in
            _ = try await client.create(.parse, "Note", ["body": "Meet at the café", "tag": "plans"])
            let indexed = try await client.request(
                .parse, .put, "/schemas/Note", json: ["indexes": ["text_test": ["body": "text", "tag": "text"]]], auth: .master)
            #expect(indexed.status == 200 && indexed.json["search"]?["fields"] == ["body", "tag"], "\(indexed.bodyText)")
            let reply = try await client.request(.parse, .get, "/classes/Note?" + URLQuery.whereClause(Self.text("cafe", field: "body")))
            #expect(reply.json["results"]?.arrayValue?.count == 1, "\(reply.bodyText)")
            let tagged = try await client.request(.parse, .get, "/classes/Note?" + URLQuery.whereClause(Self.text("PLANS", field: "tag")))
            #expect(tagged.json["results"]?.arrayValue?.count == 1, "\(tagged.bodyText)")
        }
    }
}
