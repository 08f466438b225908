import CirrusModel
import CirrusTesting
import Foundation
import Testing

/// Requests that once answered 500, crashed the server or occupied it for minutes (issue 15, classes 1, 2, 3, 14 and
/// 15): each now answers a clean 4xx or a correct result, quickly, on both stores and in every dialect.
@Suite("Edge-case queries answer 4xx or a correct result, never 500", .serialized)
struct QueryEdgeCaseTests {
    typealias Answer = ResourceLimitTests.Answer

    struct Statistics: Sendable, CustomTestStringConvertible {
        let label: String
        let query: String
        /// The rows expected, or `nil` for a 400.
        let rows: [JSON]?
        var testDescription: String { label }
    }

    static let having = "having=" + URLQuery.encode(#"{"_count":{"$gt":1}}"#)

    static let statistics: [Statistics] = [
        Statistics(label: "an empty groupby is no statistics", query: "groupby=", rows: nil),
        Statistics(label: "a groupby of commas", query: "groupby=,", rows: nil),
        Statistics(label: "an empty groupby with groupcount", query: "groupby=&groupcount=true", rows: [["_count": 3]]),
        Statistics(label: "an empty groupby with sum", query: "groupby=&sum=n", rows: [["_sumN": 6]]),
        Statistics(label: "an empty groupby ordered by _count", query: "groupby=&groupcount=true&order=-_count", rows: [["_count": 3]]),
        Statistics(
            label: "groupby with having and order=-_count", query: "groupby=player&groupcount=true&order=-_count&" + having,
            rows: [["player": "ann", "_count": 2]]
        ),
        Statistics(label: "having on _count without groupcount", query: "groupby=player&order=-_count&" + having, rows: nil),
        Statistics(label: "order=-_count without groupcount", query: "groupby=player&order=-_count", rows: nil),
        Statistics(
            label: "order repeating _count", query: "groupby=player&groupcount=true&order=" + Array(repeating: "-_count", count: 3000).joined(separator: ","),
            rows: [["player": "ann", "_count": 2], ["player": "bob", "_count": 1]]
        ),
        Statistics(label: "sum with having on the sum", query: "groupby=player&sum=n&having=" + URLQuery.encode(#"{"_sumN":{"$gte":3}}"#),
                   rows: [["player": "ann", "_sumN": 3], ["player": "bob", "_sumN": 3]]),
    ]

    static func seedPlayers(_ client: TestClient) async throws {
        for (player, n) in [("ann", 1), ("ann", 2), ("bob", 3)] {
            _ = try await client.create(.leancloud, "Score", ["player": .string(player), "n": .int(Int64(n))])
        }
    }

    @Test("statistics edge cases answer rows or 400 in every dialect", arguments: statistics)
    func statisticsEdge(_ statistics: Statistics) async throws {
        try await TestServer.with { client in
            try await Self.seedPlayers(client)
            for endpoint in Endpoint.dialects {
                let reply = try await client.request(endpoint, .get, "/classes/Score?" + statistics.query)
                if let rows = statistics.rows {
                    #expect(reply.status == 200, "\(endpoint.testDescription): \(reply.bodyText)")
                    #expect(reply.json["results"] == .array(rows), "\(endpoint.testDescription): \(reply.bodyText)")
                } else if statistics.query == "groupby=" {
                    #expect(reply.status == 200, "\(endpoint.testDescription): \(reply.bodyText)")
                    #expect(reply.json["results"]?.arrayValue?.count == 3, "\(endpoint.testDescription): \(reply.bodyText)")
                } else {
                    #expect(reply.status == 400, "\(endpoint.testDescription): \(reply.bodyText)")
                }
            }
        }
    }

    @Test("BQL and CQL statistics with group by, having and order answer rows or a statement error")
    func statementStatistics() async throws {
        try await TestServer.with { client in
            try await Self.seedPlayers(client)
            let statements: [(String, Dialect, JSON?)] = [
                ("select player, sum(n) from Score group by player having _sumN > 2 order by -_sumN", .bmob, [["player": "bob", "_sumN": 3], ["player": "ann", "_sumN": 3]]),
                ("select sum(n) from Score group by player having _sumN > 2", .bmob, [["player": "ann", "_sumN": 3], ["player": "bob", "_sumN": 3]]),
                ("select player, count(*) from Score group by player having _count > 1 order by -_count", .bmob, [["player": "ann", "_count": 2]]),
                ("select sum(n) from Score having _sumN > 2", .bmob, [["_sumN": 6]]),
                ("select sum(n) from Score group by player having sum(n) > 2", .bmob, nil),
                ("select sum(n) from Score group by player having _count > 1", .bmob, nil),
                ("select player, sum(n) from Score group by player having _sumN > 2 order by -_sumN", .leancloud, nil),
            ]
            for (statement, dialect, rows) in statements {
                let parameter = dialect == .bmob ? "bql" : "cql"
                let endpoint: Endpoint = dialect == .bmob ? .bmob : .leancloud
                let reply = try await client.request(endpoint, .get, "/cloudQuery?\(parameter)=" + URLQuery.encode(statement))
                if let rows {
                    #expect(reply.status == 200, "\(statement): \(reply.bodyText)")
                    let found = Set((reply.json["results"]?.arrayValue ?? []).map(JSONWriter.string))
                    #expect(found == Set((rows.arrayValue ?? []).map(JSONWriter.string)), "\(statement): \(reply.bodyText)")
                } else {
                    #expect(reply.status == 400, "\(statement): \(reply.bodyText)")
                }
            }
        }
    }

    @Test("after n = 9223372036854775807 is stored, sums answer in REST and BQL, in every dialect")
    func sumBeyond64Bits() async throws {
        try await TestServer.with { client in
            _ = try await client.create(.leancloud, "Big", ["n": .int(.max)])
            _ = try await client.create(.leancloud, "Big", ["n": 1])
            for endpoint in Endpoint.dialects {
                let rest = try await client.request(endpoint, .get, "/classes/Big?sum=n&max=n&average=n")
                #expect(rest.status == 200, "\(endpoint.testDescription): \(rest.bodyText)")
                let row = rest.json["results"]?.arrayValue?.first
                #expect(row?["_sumN"] == .double(9_223_372_036_854_775_808), "\(rest.bodyText)")
                #expect(row?["_maxN"] == .int(.max), "\(rest.bodyText)")
                #expect(row?["_avgN"]?.doubleValue == 4_611_686_018_427_387_904, "\(rest.bodyText)")
            }
            let bql = try await client.request(.bmob, .get, "/cloudQuery?bql=" + URLQuery.encode("select sum(n) from Big"))
            #expect(bql.status == 200 && bql.json["results"] == [["_sumN": .double(9_223_372_036_854_775_808)]], "\(bql.bodyText)")
            _ = try await client.create(.leancloud, "Big", ["n": -1])
            let exact = try await client.request(.leancloud, .get, "/classes/Big?sum=n")
            #expect(exact.json["results"] == [["_sumN": .int(.max)]], "an exact sum back inside 64 bits: \(exact.bodyText)")
        }
    }

    @Test("Increment beyond 64 bits gives a double and beyond the largest double answers 400 in every dialect")
    func incrementOverflow() async throws {
        try await TestServer.with { client in
            for endpoint in Endpoint.dialects {
                let id = try await client.create(endpoint, "Counter", ["n": .int(.max), "d": 1.7e308])
                let past = try await client.request(endpoint, .put, "/classes/Counter/\(id)?fetchWhenSave=true", json: ["n": ["__op": "Increment", "amount": 1]])
                #expect(past.status == 200 && past.json["n"] == .double(9_223_372_036_854_775_808), "\(endpoint.testDescription): \(past.bodyText)")
                let infinite = try await client.request(endpoint, .put, "/classes/Counter/\(id)", json: ["d": ["__op": "Increment", "amount": 1e308]])
                #expect(infinite.status == 400, "\(endpoint.testDescription): \(infinite.bodyText)")
                #expect(infinite.code == (endpoint.dialect == .leancloud ? 1 : 107), "\(endpoint.testDescription): \(infinite.bodyText)")
                let batch = try await client.request(endpoint, .post, "/batch", json: ["requests": [
                    ["method": "PUT", "path": .string(endpoint.prefix + "/classes/Counter/\(id)"), "body": ["d": ["__op": "Decrement", "amount": 1e308]]],
                    ["method": "PUT", "path": .string(endpoint.prefix + "/classes/Counter/\(id)"), "body": ["d": ["__op": "Increment", "amount": 1.7e308]]],
                ]])
                let items = batch.json.arrayValue ?? []
                #expect(batch.status == 200 && items.count == 2 && items[0]["success"] != nil && items[1]["error"] != nil, "\(batch.bodyText)")
                let stored = try await client.fetch(endpoint, "Counter", id)
                #expect(stored.json["d"]?.doubleValue == 1.7e308 - 1e308, "\(stored.bodyText)")
                let literal = try await client.request(endpoint, .post, "/classes/Counter", body: #"{"d":1e999}"#)
                #expect(literal.status == 400, "a number literal beyond the largest double: \(literal.bodyText)")
            }
        }
    }

    @Test("(a+)+$ on a stored 1000-character string is refused quickly, and eight at once leave reads and writes answered")
    func backtrackingRegex() async throws {
        try await TestServer.with { client in
            _ = try await client.create(.leancloud, "Text", ["body": .string(String(repeating: "a", count: 1000) + "!")])
            let attack = "/classes/Text?" + URLQuery.whereClause(["body": ["$regex": "(a+)+$"]])
            let clock = ContinuousClock()
            let elapsed = try await clock.measure {
                try await withThrowingTaskGroup(of: Answer.self) { group in
                    for _ in 0..<8 { group.addTask { Answer(try await client.request(.leancloud, .get, attack)) } }
                    let (normal, _) = try await ResourceLimitTests.beside(client) { Answer(try await client.request(.leancloud, .get, "/classes/Text")) }
                    #expect(normal.status == 200)
                    for try await reply in group {
                        // PostgreSQL's regular expressions do not backtrack: the query answers, finding nothing.
                        #expect(reply.status == 400 && reply.code == 1 || reply.status == 200 && reply.json["results"] == [], "\(reply.bodyText)")
                    }
                }
            }
            #expect(elapsed < ResourceLimitTests.quickly, "eight backtracking patterns took \(elapsed)")
        }
    }

    @Test("include fanning out over arrays of pointers is refused quickly; a small one expands")
    func includeFanOut() async throws {
        try await TestServer.with { client in
            let count = 150
            var requests: [JSON] = []
            for index in 0..<count {
                requests.append(["method": "POST", "path": "/1.1/classes/Node", "body": ["index": .int(Int64(index))]])
            }
            let created = try await client.request(.leancloud, .post, "/batch", json: ["requests": .array(requests)])
            let ids = (created.json.arrayValue ?? []).compactMap { $0["success"]?["objectId"]?.stringValue }
            #expect(ids.count == count)
            let pointers = JSON.array(ids.map { ["__type": "Pointer", "className": "Node", "objectId": .string($0)] })
            let updates = ids.map { id -> JSON in ["method": "PUT", "path": .string("/1.1/classes/Node/\(id)"), "body": ["arr": pointers, "p": pointers.arrayValue?.first ?? .null]] }
            let updated = try await client.request(.leancloud, .post, "/batch", json: ["requests": .array(updates)])
            #expect(updated.status == 200)
            for endpoint in Endpoint.dialects {
                for include in ["arr,arr.arr,arr.arr.arr", "arr.arr", Array(repeating: "p", count: 1000).joined(separator: ".")] {
                    let (reply, elapsed) = try await ResourceLimitTests.beside(client) {
                        Answer(try await client.request(endpoint, .get, "/classes/Node?limit=150&include=" + include))
                    }
                    #expect(reply.status == 400 && reply.code == ResourceLimitTests.limitCode(endpoint.dialect), "\(endpoint.testDescription) \(include.prefix(40)): \(reply.bodyText.prefix(300))")
                    #expect(elapsed < ResourceLimitTests.quickly, "\(include.prefix(40)) took \(elapsed)")
                }
                let small = try await client.request(endpoint, .get, "/classes/Node?limit=1&include=arr,p.p.p.p")
                #expect(small.status == 200, "\(small.bodyText.prefix(300))")
                #expect(small.json["results"]?.arrayValue?.first?["arr"]?.arrayValue?.count == count)
            }
        }
    }

    @Test(
        "the issue's heavy wheres are refused in every dialect, in time that grows with their size only",
        arguments: [
            ResourceLimitTests.Find(label: "50 000 field conditions", parameters: ["where": ResourceLimitTests.conditions(50_000)]),
            ResourceLimitTests.Find(label: "$all with 100 000 values", parameters: ["where": ["tags": ["$all": ResourceLimitTests.list(100_000)]]]),
            ResourceLimitTests.Find(label: "$in with 500 000 values", parameters: ["where": ["tag": ["$in": ResourceLimitTests.list(500_000)]]]),
            ResourceLimitTests.Find(label: "$inQuery nested 30 deep", parameters: ["where": ResourceLimitTests.nestedInQuery(30)]),
        ]
    )
    func heavyWheres(_ find: ResourceLimitTests.Find) async throws {
        let (label, condition) = (find.label, find.parameters["where"] ?? .null)
        let megabytes = Double(JSONWriter.string(condition).utf8.count) / 1_000_000
        // Parsing a body of several megabytes takes seconds in a debug build; the limit itself costs next to nothing.
        let bound = ResourceLimitTests.quickly + .milliseconds(Int(megabytes * 2000))
        try await TestServer.with { client in
            for endpoint in Endpoint.dialects {
                let (reply, elapsed) = try await ResourceLimitTests.beside(client) {
                    try await ResourceLimitTests.find(client, endpoint, ["where": condition])
                }
                #expect(reply.status == 400 && reply.code == ResourceLimitTests.limitCode(endpoint.dialect), "\(label): \(reply.bodyText.prefix(300))")
                #expect(elapsed < bound, "\(label) (\(megabytes) MB) took \(elapsed) in \(endpoint.testDescription)")
            }
        }
    }

    @Test("nested sub-queries on a field the schema does not know answer correctly within the depth limit")
    func nestedSubQueries() async throws {
        try await TestServer.with { client in
            let leaf = try await client.create(.leancloud, "Chain", ["name": "leaf"])
            var previous = leaf
            for _ in 0..<3 {
                previous = try await client.create(.leancloud, "Chain", ["next": ["__type": "Pointer", "className": "Chain", "objectId": .string(previous)]])
            }
            let condition = (0..<3).reduce(["name": "leaf"] as JSON) { inner, _ in ["next": ["$inQuery": ["className": "Chain", "where": inner]]] }
            let reply = try await ResourceLimitTests.find(client, .leancloud, ["where": condition], className: "Chain")
            #expect(reply.status == 200 && reply.json["results"]?.arrayValue?.first?["objectId"]?.stringValue == previous, "\(reply.bodyText)")
        }
    }

    @Test("Bmob's $all takes one value as an array of it (seed 004 L794); the other dialects want an array")
    func scalarAll() async throws {
        try await TestServer.with { client in
            _ = try await client.create(.bmob, "Hero", ["name": "a", "skill": ["P1", "P2"]])
            _ = try await client.create(.bmob, "Hero", ["name": "b", "skill": ["P2"]])
            let either: JSON = ["$or": [["skill": ["$all": "P1"]], ["skill": ["$all": "P3"]]]]
            let bmob = try await client.request(.bmob, .get, "/classes/Hero?" + URLQuery.whereClause(either))
            #expect(bmob.json["results"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["a"], "\(bmob.bodyText)")
            for endpoint in [Endpoint.leancloud, .parse] {
                let refused = try await client.request(endpoint, .get, "/classes/Hero?" + URLQuery.whereClause(["skill": ["$all": "P1"]]))
                #expect(refused.status == 400, "\(endpoint.testDescription): \(refused.bodyText)")
            }
        }
    }

    @Test("an inner query's skip pages through its matches, oldest first, in every dialect", arguments: Endpoint.dialects)
    func innerSkip(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            for index in 0..<4 {
                let post = try await client.create(endpoint, "Post", ["index": .int(Int64(index))])
                _ = try await client.create(endpoint, "Comment", ["index": .int(Int64(index)), "post": ["__type": "Pointer", "className": "Post", "objectId": .string(post)]])
            }
            let condition: JSON = ["post": ["$inQuery": ["className": "Post", "where": [:], "limit": 2, "skip": 1]]]
            let reply = try await client.request(endpoint, .get, "/classes/Comment?" + URLQuery.whereClause(condition))
            #expect(Set(reply.json["results"]?.arrayValue?.compactMap { $0["index"]?.intValue } ?? []) == [1, 2], "\(reply.bodyText)")
            let negative: JSON = ["post": ["$inQuery": ["className": "Post", "where": [:], "skip": -1]]]
            #expect(try await client.request(endpoint, .get, "/classes/Comment?" + URLQuery.whereClause(negative)).status == 400)
        }
    }
}
