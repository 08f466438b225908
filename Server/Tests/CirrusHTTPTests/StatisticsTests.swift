import CirrusModel
import CirrusTesting
import Testing

/// Bmob's statistics over REST (`sum`, `average`, `max`, `min`, `groupby`, `groupcount`, `having`), offered in
/// every dialect and computed in SQL.
@Suite("Statistics queries in each dialect")
struct StatisticsTests {
    /// Ann 10 and 30, Bob 5 and 25, Cid 100; `played` dates spread over two UTC days.
    static func seed(_ client: TestClient) async throws {
        let rows: [(String, Int64, String)] = [
            ("Ann", 10, "2024-01-01T10:00:00.000Z"), ("Ann", 30, "2024-01-01T20:00:00.000Z"), ("Bob", 5, "2024-01-02T01:00:00.000Z"),
            ("Bob", 25, "2024-01-02T12:00:00.000Z"), ("Cid", 100, "2024-01-02T23:00:00.000Z"),
        ]
        let requests: [JSON] = rows.map { name, score, played in
            let body: JSON = ["playerName": .string(name), "score": .int(score), "played": ["__type": "Date", "iso": .string(played)]]
            return ["method": "POST", "path": "/1.1/classes/GameScore", "body": body]
        }
        let reply = try await client.request(.leancloud, .post, "/batch", json: ["requests": .array(requests)])
        #expect(reply.status == 200)
    }

    static func results(_ client: TestClient, _ endpoint: Endpoint, _ query: String) async throws -> [JSON] {
        let reply = try await client.request(endpoint, .get, "/classes/GameScore?" + query)
        #expect(reply.status == 200, "\(reply.bodyText)")
        #expect(reply.keys == ["results"])
        return reply.json["results"]?.arrayValue ?? []
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let label: String
        let query: String
        let results: [JSON]
        var testDescription: String { label }
    }

    static let having = "having=" + URLQuery.encode(#"{"_sumScore":{"$gt":35}}"#)

    static let cases: [Case] = [
        Case(label: "sum", query: "sum=score", results: [["_sumScore": 170]]),
        Case(label: "max and min as comma lists", query: "max=score,playerName&min=score", results: [["_maxScore": 100, "_maxPlayerName": "Cid", "_minScore": 5]]),
        Case(label: "sum with where", query: "sum=score&" + URLQuery.whereClause(["score": ["$gt": 5]]), results: [["_sumScore": 165]]),
        Case(label: "groupby alone gives the distinct values", query: "groupby=playerName", results: [["playerName": "Ann"], ["playerName": "Bob"], ["playerName": "Cid"]]),
        Case(
            label: "groupby with sum ordered by the sum", query: "groupby=playerName&sum=score&order=-_sumScore",
            results: [["playerName": "Cid", "_sumScore": 100], ["playerName": "Ann", "_sumScore": 40], ["playerName": "Bob", "_sumScore": 30]]
        ),
        Case(
            label: "groupcount adds _count", query: "groupby=playerName&groupcount=true",
            results: [["playerName": "Ann", "_count": 2], ["playerName": "Bob", "_count": 2], ["playerName": "Cid", "_count": 1]]
        ),
        Case(
            label: "groupby two fields", query: "groupby=playerName,score&groupcount=true&limit=3",
            results: [["playerName": "Ann", "score": 10, "_count": 1], ["playerName": "Ann", "score": 30, "_count": 1], ["playerName": "Bob", "score": 5, "_count": 1]]
        ),
        Case(label: "groupcount alone counts everything", query: "groupcount=true", results: [["_count": 5]]),
        Case(
            label: "having on a sum", query: "groupby=playerName&sum=score&" + having,
            results: [["playerName": "Ann", "_sumScore": 40], ["playerName": "Cid", "_sumScore": 100]]
        ),
        Case(
            label: "having on _count with where", query: "groupby=playerName&groupcount=true&having=" + URLQuery.encode(#"{"_count":1}"#)
                + "&" + URLQuery.whereClause(["score": ["$gt": 5]]),
            results: [["playerName": "Bob", "_count": 1], ["playerName": "Cid", "_count": 1]]
        ),
        Case(
            label: "having with $in on a group key", query: "groupby=playerName&max=score&having=" + URLQuery.encode(#"{"playerName":{"$in":["Bob"]}}"#),
            results: [["playerName": "Bob", "_maxScore": 25]]
        ),
        Case(
            label: "limit and skip page the groups", query: "groupby=playerName&min=score&limit=1&skip=1",
            results: [["playerName": "Bob", "_minScore": 5]]
        ),
        Case(label: "a sum over no rows is 0", query: "sum=score&" + URLQuery.whereClause(["x": 1]), results: [["_sumScore": 0]]),
    ]

    @Test("statistics compute sums, extremes, groups, counts and having", arguments: Endpoint.all, cases)
    func statistics(_ endpoint: Endpoint, _ test: Case) async throws {
        try await TestServer.with { client in
            try await Self.seed(client)
            #expect(try await Self.results(client, endpoint, test.query) == test.results)
        }
    }

    @Test("a class that does not exist has no statistics rows", arguments: Endpoint.all)
    func missingClass(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let reply = try await client.request(endpoint, .get, "/classes/Nothing?sum=score&groupby=name")
            #expect(reply.status == 200, "\(reply.bodyText)")
            #expect(reply.json == ["results": []])
        }
    }

    @Test("average is the mean of the numbers", arguments: Endpoint.all)
    func average(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            try await Self.seed(client)
            let rows = try await Self.results(client, endpoint, "average=score&groupby=playerName&order=_avgScore")
            #expect(rows.map { $0["playerName"]?.stringValue } == ["Bob", "Ann", "Cid"])
            #expect(rows.map { $0["_avgScore"]?.doubleValue } == [15, 20, 100])
        }
    }

    /// Bmob groups a Date field by day in its own zone (Beijing); the other dialects by UTC day.
    @Test("groupby a Date field groups by day in the dialect's zone", arguments: Endpoint.all)
    func groupByDay(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            try await Self.seed(client)
            let rows = try await Self.results(client, endpoint, "groupby=played&groupcount=true")
            let expected: [JSON] = endpoint.isBmob
                ? [["played": "2024-01-01", "_count": 1], ["played": "2024-01-02", "_count": 3], ["played": "2024-01-03", "_count": 1]]
                : [["played": "2024-01-01", "_count": 2], ["played": "2024-01-02", "_count": 3]]
            #expect(rows == expected)
            let created = try await Self.results(client, endpoint, "groupby=createdAt&sum=score")
            #expect(created.count == 1)
            #expect(created.first?["_sumScore"] == 170)
            #expect(WireFormat.matches(created.first?["createdAt"]?.stringValue, "[0-9]{4}-[0-9]{2}-[0-9]{2}"))
        }
    }

    @Test("max and min of a Date field are dates in the dialect's format", arguments: Endpoint.all)
    func dateExtremes(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            try await Self.seed(client)
            let row = try #require(try await Self.results(client, endpoint, "max=played&min=played").first)
            let latest = endpoint.isBmob ? WireFormat.beijing("2024-01-02T23:00:00.000Z") : "2024-01-02T23:00:00.000Z"
            #expect(row["_maxPlayed"]?["iso"]?.stringValue == latest)
            #expect(row["_maxPlayed"]?["__type"] == "Date")
        }
    }

    /// bmobpy sends `having` as Python's `str(dict)`; Bmob reads it, the other dialects want JSON.
    @Test("Bmob reads a Python dict literal in having; LeanCloud and Parse refuse it", arguments: Endpoint.all)
    func pythonHaving(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            try await Self.seed(client)
            let query = "groupby=playerName&sum=score&having=" + URLQuery.encode("{'_sumScore': {'$gt': 35}, '$or': [{'playerName': 'Ann'}, {'playerName': None}]}")
            let reply = try await client.request(endpoint, .get, "/classes/GameScore?" + query)
            if endpoint.isBmob {
                #expect(reply.status == 200, "\(reply.bodyText)")
                #expect(reply.json["results"]?.arrayValue?.compactMap { $0["playerName"]?.stringValue } == ["Ann"])
            } else {
                #expect(reply.status == 400)
                #expect(reply.code == 107)
            }
        }
    }

    struct BadCase: Sendable, CustomTestStringConvertible {
        let label: String
        let query: String
        var testDescription: String { label }
    }

    static let badCases: [BadCase] = [
        BadCase(label: "sum over a String field", query: "sum=playerName"),
        BadCase(label: "average over a Date field", query: "average=played"),
        BadCase(label: "having on a key that is not a result key", query: "sum=score&having=" + URLQuery.encode(#"{"score":{"$gt":1}}"#)),
        BadCase(label: "having that is not JSON", query: "sum=score&having=%7B"),
        BadCase(label: "having with an unsupported operator", query: "sum=score&having=" + URLQuery.encode(#"{"_sumScore":{"$regex":"1"}}"#)),
        BadCase(label: "order on a key that is not a result key", query: "groupby=playerName&order=score"),
        BadCase(label: "an invalid field name", query: "sum=a%24b"),
        BadCase(label: "a malformed where", query: "sum=score&where=%7B"),
    ]

    @Test("invalid statistics queries are refused", arguments: Endpoint.all, badCases)
    func refuses(_ endpoint: Endpoint, _ test: BadCase) async throws {
        try await TestServer.with { client in
            try await Self.seed(client)
            let reply = try await client.request(endpoint, .get, "/classes/GameScore?" + test.query)
            #expect(reply.status == 400, "\(reply.bodyText)")
            #expect(reply.code != nil)
        }
    }
}
