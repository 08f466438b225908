import CirrusModel
import CirrusTesting
import Testing

/// The parameters of `GET /classes/<Class>` in every dialect: `where`, `order`, `limit`, `skip`, `keys`,
/// `count`, `returnACL`, `redirectClassNameForKey`, and the batch form of a find.
@Suite("Find parameters in each dialect")
struct FindParameterTests {
    /// Five scores: a 10, b 20, c 30, d 20, e 50; `profile.city` Paris for a and c.
    static func seed(_ client: TestClient) async throws {
        let rows: [(String, Int64, String)] = [("a", 10, "Paris"), ("b", 20, "Lyon"), ("c", 30, "Paris"), ("d", 20, "Nice"), ("e", 50, "Lyon")]
        let requests: [JSON] = rows.map { name, score, city in
            ["method": "POST", "path": "/1.1/classes/Score", "body": ["name": .string(name), "score": .int(score), "profile": ["city": .string(city)]]]
        }
        let reply = try await client.request(.leancloud, .post, "/batch", json: ["requests": .array(requests)])
        #expect(reply.status == 200)
    }

    /// The `name` of each result, in order.
    static func names(_ reply: TestReply) -> [String] {
        (reply.json["results"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let label: String
        let query: String
        let names: [String]
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(label: "no parameters, ordered by name", query: "order=name", names: ["a", "b", "c", "d", "e"]),
        Case(label: "where object", query: URLQuery.whereClause(["score": 20]) + "&order=name", names: ["b", "d"]),
        Case(label: "where array means $and", query: URLQuery.whereClause([["score": 20], ["name": "d"]]), names: ["d"]),
        Case(label: "where on a dot path", query: URLQuery.whereClause(["profile.city": "Paris"]) + "&order=name", names: ["a", "c"]),
        Case(label: "where with $or", query: URLQuery.whereClause(["$or": [["score": 10], ["score": 50]]]) + "&order=-score", names: ["e", "a"]),
        Case(label: "order a,-b", query: "order=score,-name", names: ["a", "d", "b", "c", "e"]),
        Case(label: "order -a,b with spaces", query: "order=-score,%20name", names: ["e", "c", "b", "d", "a"]),
        Case(label: "order +a", query: "order=%2Bname", names: ["a", "b", "c", "d", "e"]),
        Case(label: "order by createdAt", query: "order=-createdAt&limit=1", names: ["e"]),
        Case(label: "limit", query: "order=name&limit=2", names: ["a", "b"]),
        Case(label: "skip", query: "order=name&skip=3", names: ["d", "e"]),
        Case(label: "limit and skip", query: "order=name&skip=1&limit=2", names: ["b", "c"]),
        Case(label: "skip past the end", query: "order=name&skip=10", names: []),
        Case(label: "limit 0 finds nothing", query: "limit=0", names: []),
        Case(label: "unknown include path is ignored", query: "order=name&include=nothing,profile&limit=1", names: ["a"]),
    ]

    @Test("where, order, limit and skip select and order the results", arguments: Endpoint.all, cases)
    func finds(_ endpoint: Endpoint, _ test: Case) async throws {
        try await TestServer.with { client in
            try await Self.seed(client)
            let reply = try await client.request(endpoint, .get, "/classes/Score?" + test.query)
            #expect(reply.status == 200, "\(reply.bodyText)")
            #expect(Self.names(reply) == test.names)
        }
    }

    struct BadCase: Sendable, CustomTestStringConvertible {
        let label: String
        let query: String
        /// The reason the server refuses it, as the code per dialect: LeanCloud, Parse, Bmob.
        let codes: [Dialect: Int64]
        var testDescription: String { label }
    }

    static let invalidJSON: [Dialect: Int64] = [.leancloud: 107, .parse: 107, .bmob: 107]
    static let invalidQuery: [Dialect: Int64] = [.leancloud: 1, .parse: 102, .bmob: 102]
    static let nearSphere: JSON = ["$nearSphere": ["__type": "GeoPoint", "latitude": 1, "longitude": 2]]

    static let badCases: [BadCase] = [
        BadCase(label: "malformed where", query: "where=%7B%22score%22", codes: invalidJSON),
        BadCase(label: "where that is not an object", query: "where=3", codes: invalidQuery),
        BadCase(label: "unknown operator", query: URLQuery.whereClause(["score": ["$bogus": 1]]), codes: invalidQuery),
        BadCase(label: "non-numeric limit", query: "limit=ten", codes: invalidQuery),
        BadCase(label: "non-numeric skip", query: "skip=x", codes: invalidQuery),
        BadCase(label: "negative skip", query: "skip=-1", codes: invalidQuery),
        BadCase(label: "order on an invalid key", query: "order=a%24b", codes: invalidQuery),
        BadCase(label: "malformed include picking", query: "include=post%5Btitle", codes: invalidQuery),
        BadCase(label: "geo inside $or", query: URLQuery.whereClause(["$or": [["loc": nearSphere], ["score": 1]]]), codes: invalidQuery),
        BadCase(label: "geo inside $and", query: URLQuery.whereClause(["$and": [["loc": nearSphere]]]), codes: invalidQuery),
        BadCase(
            label: "negative inner-query limit",
            query: URLQuery.whereClause(["p": ["$inQuery": ["className": "Score", "where": [:], "limit": -1]]]), codes: invalidQuery
        ),
    ]

    @Test("explain answers the store's plan for the find to the master key only, and a condition on an indexed field uses the index")
    func explain() async throws {
        try await TestServer.with { client in
            _ = try await client.create(.leancloud, "Plan", ["n": 1, "t": "a"])
            let indexed = try await client.request(.leancloud, .put, "/schemas/Plan", json: ["indexes": ["n_1": ["n": 1]]], auth: .master)
            #expect(indexed.status == 200, "\(indexed.bodyText)")
            let condition = URLQuery.encode(#"{"n":{"$gt":0}}"#)
            let plan = try await client.request(.leancloud, .get, "/classes/Plan?explain=true&where=\(condition)&order=n", auth: .master)
            let lines = plan.json["plan"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(!lines.isEmpty && lines.joined(separator: " ").lowercased().contains("index"), "\(lines)")
            let refused = try await client.request(.leancloud, .get, "/classes/Plan?explain=true", auth: .appKey)
            #expect(refused.status >= 400 && refused.json["plan"] == nil, "\(refused.bodyText)")
        }
    }

    @Test("bad parameters are refused with the dialect's error", arguments: Endpoint.all, badCases)
    func refuses(_ endpoint: Endpoint, _ test: BadCase) async throws {
        try await TestServer.with { client in
            try await Self.seed(client)
            let reply = try await client.request(endpoint, .get, "/classes/Score?" + test.query)
            #expect(reply.status == 400, "\(reply.bodyText)")
            #expect(reply.code == test.codes[endpoint.dialect])
            #expect(reply.json["error"]?.stringValue?.isEmpty == false)
        }
    }

    /// LeanCloud documents that a limit outside 1...1000 becomes 100 (a negative one too); Parse and Bmob refuse
    /// a negative limit.
    @Test("a negative limit means the default in LeanCloud and is refused by Parse and Bmob", arguments: Endpoint.all)
    func negativeLimit(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            try await Self.seed(client)
            let reply = try await client.request(endpoint, .get, "/classes/Score?limit=-1")
            if endpoint.dialect == .leancloud {
                #expect(reply.status == 200)
                #expect(Self.names(reply).count == 5)
            } else {
                #expect(reply.status == 400)
                #expect(reply.code == 102)
            }
        }
    }

    /// Inner queries take the normal limit: 100 by default, above 1000 clamped to 1000.
    @Test("an inner query may ask for a limit up to 1000, and more is clamped", arguments: Endpoint.all, [1, 1000, 5000])
    func innerQueryLimit(_ endpoint: Endpoint, _ limit: Int) async throws {
        try await TestServer.with { client in
            try await Self.seed(client)
            let inner: JSON = ["$inQuery": ["className": "Score", "where": ["score": 20], "limit": .int(Int64(limit))]]
            let reply = try await client.request(endpoint, .get, "/classes/Score?" + URLQuery.whereClause(["self": inner]))
            #expect(reply.status == 200, "\(reply.bodyText)")
        }
    }

    @Test("limit is 100 by default and at most 1000")
    func limitBounds() async throws {
        try await TestServer.with { client in
            for _ in 0..<3 {
                let requests: [JSON] = (0..<350).map { index in
                    ["method": "POST", "path": "/1.1/classes/Many", "body": ["n": .int(Int64(index))]]
                }
                let reply = try await client.request(.leancloud, .post, "/batch", json: ["requests": .array(requests)])
                #expect(reply.status == 200)
            }
            for endpoint in Endpoint.all {
                let plain = try await client.request(endpoint, .get, "/classes/Many")
                #expect(plain.json["results"]?.arrayValue?.count == 100, "\(endpoint)")
                let large = try await client.request(endpoint, .get, "/classes/Many?limit=5000&count=1")
                #expect(large.json["results"]?.arrayValue?.count == 1000, "\(endpoint)")
                #expect(large.json["count"] == 1050, "\(endpoint)")
                let exact = try await client.request(endpoint, .get, "/classes/Many?limit=1000&skip=1000")
                #expect(exact.json["results"]?.arrayValue?.count == 50, "\(endpoint)")
            }
        }
    }

    @Test("count=1 adds the count; with limit=0 the results are empty", arguments: Endpoint.all)
    func count(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            try await Self.seed(client)
            let only = try await client.request(endpoint, .get, "/classes/Score?count=1&limit=0&" + URLQuery.whereClause(["score": ["$gte": 20]]))
            #expect(only.json == ["results": [], "count": 4])
            let both = try await client.request(endpoint, .get, "/classes/Score?count=1&limit=1&order=name")
            #expect(both.json["count"] == 5)
            #expect(Self.names(both) == ["a"])
            let without = try await client.request(endpoint, .get, "/classes/Score?limit=1")
            #expect(without.json["count"] == nil)
            let missing = try await client.request(endpoint, .get, "/classes/Nothing?count=1&limit=0")
            #expect(missing.json == ["results": [], "count": 0])
        }
    }

    @Test("keys selects fields, -key excludes them (built-ins too), dot paths select sub-fields", arguments: Endpoint.all)
    func keys(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            try await Self.seed(client)
            func first(_ query: String) async throws -> [String: JSON] {
                let reply = try await client.request(endpoint, .get, "/classes/Score?order=name&limit=1&" + query)
                #expect(reply.status == 200, "\(reply.bodyText)")
                return reply.json["results"]?.arrayValue?.first?.objectValue ?? [:]
            }
            #expect(try await first("keys=name").keys.sorted() == ["createdAt", "name", "objectId", "updatedAt"])
            #expect(try await first("keys=name,score").keys.sorted() == ["createdAt", "name", "objectId", "score", "updatedAt"])
            #expect(try await first("keys=-score,-createdAt,-profile").keys.sorted() == ["name", "objectId", "updatedAt"])
            let nested = try await first("keys=profile.city")
            #expect(nested["profile"] == ["city": "Paris"])
            #expect(nested["name"] == nil)
        }
    }

    @Test("returnACL adds the ACL in LeanCloud; Parse and Bmob return it always", arguments: Endpoint.all)
    func returnACL(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let acl: JSON = ["*": ["read": true]]
            _ = try await client.create(.leancloud, "Guarded", ["name": "g", "ACL": acl])
            let plain = try await client.request(endpoint, .get, "/classes/Guarded")
            let flagged = try await client.request(endpoint, .get, "/classes/Guarded?returnACL=true")
            #expect(flagged.json["results"]?.arrayValue?.first?["ACL"] == acl)
            let expected: JSON? = endpoint.dialect == .leancloud ? JSON?.none : acl
            #expect(plain.json["results"]?.arrayValue?.first?["ACL"] == expected)
        }
    }

    @Test("redirectClassNameForKey runs the query on the relation's target class", arguments: Endpoint.all)
    func redirect(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let person = try await client.create(.leancloud, "Person", ["name": "p"])
            let pointer: JSON = ["__type": "Pointer", "className": "Person", "objectId": .string(person)]
            let post = try await client.create(.leancloud, "Post", ["likes": ["__op": "AddRelation", "objects": [pointer]]])
            let related: JSON = ["$relatedTo": ["object": ["__type": "Pointer", "className": "Post", "objectId": .string(post)], "key": "likes"]]
            let reply = try await client.request(
                endpoint, .get, "/classes/Post?redirectClassNameForKey=likes&" + URLQuery.whereClause(related)
            )
            #expect(reply.status == 200, "\(reply.bodyText)")
            #expect(reply.json["className"] == "Person")
            // As Parse Server: a key that is not a relation leaves the class, which the reply still names.
            let unrelated = try await client.request(endpoint, .get, "/classes/Post?redirectClassNameForKey=nothing")
            #expect(unrelated.json["className"] == "Post")
            #expect(unrelated.json["results"]?.arrayValue?.count == 1)
        }
    }

    @Test("a batch GET takes its find parameters from params", arguments: Endpoint.all)
    func batchParams(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            try await Self.seed(client)
            let item: JSON = [
                "method": "GET", "path": .string(endpoint.prefix + "/classes/Score"),
                "params": ["where": ["score": ["$gt": 10]], "order": "-score", "limit": 2, "keys": "name", "count": 1],
            ]
            let reply = try await client.request(endpoint, .post, "/batch", json: ["requests": [item]])
            #expect(reply.status == 200, "\(reply.bodyText)")
            let success = try #require(reply.json.arrayValue?.first?["success"])
            #expect((success["results"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue } == ["e", "c"])
            #expect(success["results"]?.arrayValue?.first?["score"] == nil)
            #expect(success["count"] == 4)
        }
    }
}
