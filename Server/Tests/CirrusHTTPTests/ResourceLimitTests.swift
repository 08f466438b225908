import CirrusModel
import CirrusServer
import CirrusTesting
import Foundation
import Testing

/// The resource-limit suite: every limit of ``QueryLimits``, reached, is answered quickly with its error in the
/// caller's dialect while a normal request is still answered; and every request that once crashed the server,
/// occupied it for many seconds or answered 500 now answers a clean 4xx or a correct result.
/// Serialized: each case measures how quickly the server answers, which cases running beside it would distort.
@Suite("Resource limits: refused quickly in each dialect, others still served", .serialized)
struct ResourceLimitTests {
    /// Generous, so that a loaded 2-core machine running debug builds and other suites does not fail the suite: the
    /// requests refused here once took 20 s to minutes, and take well under a second on an idle machine.
    static let quickly: Duration = .seconds(5)

    /// A find over `Item`, given as its query parameters (`where` as JSON); sent as a GET when short, else as a
    /// GET item of a batch, as the SDKs send long queries.
    struct Find: Sendable, CustomTestStringConvertible {
        let label: String
        let parameters: [String: JSON]
        var testDescription: String { label }
    }

    static func conditions(_ count: Int) -> JSON {
        .object(Dictionary(uniqueKeysWithValues: (0..<count).map { ("f\($0)", JSON.int(Int64($0))) }))
    }

    static func nestedOr(_ depth: Int) -> JSON {
        (0..<depth).reduce(["a": 1] as JSON) { inner, _ in ["$or": [inner, ["b": 2]]] }
    }

    static func nestedInQuery(_ depth: Int, field: String = "next") -> JSON {
        (0..<depth).reduce(["name": "leaf"] as JSON) { inner, _ in [field: ["$inQuery": ["className": "Item", "where": inner]]] }
    }

    static func list(_ count: Int) -> JSON {
        .array((0..<count).map { .string("id\($0)") })
    }

    static let limitsReached: [Find] = [
        Find(label: "2001 conditions", parameters: ["where": conditions(2001)]),
        Find(label: "$in with 10 001 values", parameters: ["where": ["tag": ["$in": list(10_001)]]]),
        Find(label: "$nin with 10 001 values", parameters: ["where": ["tag": ["$nin": list(10_001)]]]),
        Find(label: "$all with 10 001 values", parameters: ["where": ["tags": ["$all": list(10_001)]]]),
        Find(label: "$or nested 11 deep", parameters: ["where": nestedOr(11)]),
        Find(label: "$inQuery nested 4 deep", parameters: ["where": nestedInQuery(4)]),
        Find(label: "$inQuery nested 30 deep", parameters: ["where": nestedInQuery(30)]),
        Find(label: "$select nested 4 deep", parameters: ["where": (0..<4).reduce(["name": "leaf"] as JSON) { inner, _ in
            ["name": ["$select": ["query": ["className": "Item", "where": inner], "key": "name"]]]
        }]),
        Find(label: "17 order keys", parameters: ["order": .string((0..<17).map { "k\($0)" }.joined(separator: ","))]),
        Find(label: "1001 keys", parameters: ["keys": .string((0..<1001).map { "k\($0)" }.joined(separator: ","))]),
        Find(label: "an include 6 pointers deep", parameters: ["include": "a.b.c.d.e.f"]),
        Find(label: "arr.p repeated 1000 times", parameters: ["include": .string(Array(repeating: "p", count: 1000).joined(separator: "."))]),
        Find(label: "1001 include paths", parameters: ["include": .string((0..<1001).map { "k\($0)" }.joined(separator: ","))]),
        Find(label: "a regular expression of 1001 characters", parameters: ["where": ["name": ["$regex": .string(String(repeating: "a", count: 1001))]]]),
        Find(label: "statistics over 2001 conditions", parameters: ["where": conditions(2001), "sum": "n"]),
        Find(label: "statistics with a having of 2001 conditions", parameters: [
            "groupby": "name", "groupcount": "true",
            "having": .string(JSONWriter.string(["$or": .array((0..<2001).map { ["_count": .int(Int64($0))] })])),
        ]),
    ]

    /// The error code of a limit in each dialect.
    static func limitCode(_ dialect: Dialect) -> Int64 {
        switch dialect {
        case .leancloud: 1
        case .parse: 102
        case .bmob: 402
        }
    }

    /// A reply's status and body; a batch item's error counts as status 400, its success as 200.
    struct Answer: Sendable {
        let status: Int
        let json: JSON
        var code: Int64? { json["code"]?.intValue }
        var bodyText: String { JSONWriter.string(json) }

        init(status: Int, json: JSON) {
            self.status = status
            self.json = json
        }

        init(_ reply: TestReply) {
            self.init(status: reply.status, json: reply.json)
        }
    }

    /// Sends a find to `className`, as a GET when its query string is short, else as a GET item of a batch.
    static func find(_ client: TestClient, _ endpoint: Endpoint, _ parameters: [String: JSON], className: String = "Item") async throws -> Answer {
        let query = parameters.sorted { $0.key < $1.key }.map { name, value in
            "\(name)=" + URLQuery.encode(value.stringValue ?? JSONWriter.string(value))
        }.joined(separator: "&")
        if query.utf8.count <= 4096 { return Answer(try await client.request(endpoint, .get, "/classes/\(className)?" + query)) }
        let item: JSON = ["method": "GET", "path": .string(endpoint.prefix + "/classes/\(className)"), "params": .object(parameters)]
        let reply = try await client.request(endpoint, .post, "/batch", json: ["requests": [item]])
        #expect(reply.status == 200, "the batch: \(reply.bodyText.prefix(300))")
        let answer = reply.json.arrayValue?.first
        if let error = answer?["error"] { return Answer(status: 400, json: error) }
        return Answer(status: 200, json: answer?["success"] ?? .null)
    }

    /// Runs `request` while a normal find and a normal create run beside it; the normal ones must be answered
    /// within ``quickly``. Returns the reply and how long it took.
    static func beside(_ client: TestClient, _ request: @Sendable () async throws -> Answer) async throws -> (Answer, Duration) {
        let clock = ContinuousClock()
        async let normalFind = clock.measure { _ = try await client.request(.leancloud, .get, "/classes/Item?limit=1") }
        async let normalCreate = clock.measure { _ = try await client.create(.leancloud, "Other", ["n": 1]) }
        let start = clock.now
        let reply = try await request()
        let elapsed = clock.now - start
        let (findTime, createTime) = try await (normalFind, normalCreate)
        #expect(findTime < quickly && createTime < quickly, "normal requests took \(findTime) and \(createTime) beside it")
        return (reply, elapsed)
    }

    @Test("each limit reached is refused quickly with the dialect's code, while others are served", arguments: limitsReached)
    func limitReached(_ find: Find) async throws {
        try await TestServer.with { client in
            _ = try await client.create(.leancloud, "Item", ["name": "leaf", "tag": "id1", "tags": ["id1"], "n": 1])
            for endpoint in Endpoint.dialects {
                let (reply, elapsed) = try await Self.beside(client) { try await Self.find(client, endpoint, find.parameters) }
                #expect(reply.status == 400, "\(endpoint.testDescription): \(reply.bodyText.prefix(300))")
                #expect(reply.code == Self.limitCode(endpoint.dialect), "\(endpoint.testDescription): \(reply.bodyText.prefix(300))")
                #expect(reply.json["error"]?.stringValue?.contains("Query too complex") == true, "\(reply.bodyText.prefix(300))")
                #expect(elapsed < Self.quickly, "\(endpoint.testDescription) took \(elapsed)")
            }
        }
    }

    static let withinLimits: [Find] = [
        Find(label: "2000 conditions", parameters: ["where": conditions(2000)]),
        Find(label: "$in with 10 000 values", parameters: ["where": ["tag": ["$in": list(10_000)]]]),
        Find(label: "$all with 10 000 values", parameters: ["where": ["tags": ["$all": list(10_000)]]]),
        Find(label: "$or nested 10 deep", parameters: ["where": nestedOr(10)]),
        Find(label: "$inQuery nested 3 deep on a field no object has", parameters: ["where": nestedInQuery(3, field: "missing")]),
        Find(label: "3 sub-queries around 7 levels of $nor", parameters: ["where": (0..<3).reduce((0..<7).reduce(["name": "leaf"] as JSON) { inner, _ in ["$nor": [inner]] }) { inner, _ in
            ["missing": ["$inQuery": ["className": "Item", "where": inner]]]
        }]),
        Find(label: "16 order keys, repeats counting once", parameters: ["order": .string((0..<16).map { "k\($0)" }.joined(separator: ",") + ",k0,-k1")]),
        Find(label: "one key repeated 5000 times in order", parameters: ["order": .string(Array(repeating: "-n", count: 5000).joined(separator: ","))]),
        Find(label: "an include 5 pointers deep", parameters: ["include": "a.b.c.d.e"]),
        Find(label: "the same include path 5000 times", parameters: ["include": .string(Array(repeating: "a", count: 5000).joined(separator: ","))]),
    ]

    @Test("queries just within the limits are answered", arguments: withinLimits)
    func withinLimit(_ find: Find) async throws {
        try await TestServer.with { client in
            _ = try await client.create(.leancloud, "Item", ["name": "leaf", "tag": "id1", "tags": ["id1"], "n": 1])
            for endpoint in Endpoint.dialects {
                let (reply, elapsed) = try await Self.beside(client) { try await Self.find(client, endpoint, find.parameters) }
                #expect(reply.status == 200, "\(endpoint.testDescription): \(reply.bodyText.prefix(300))")
                #expect(reply.json["results"]?.arrayValue != nil, "\(reply.bodyText.prefix(300))")
                #expect(elapsed < .seconds(10), "\(endpoint.testDescription) took \(elapsed)")
            }
        }
    }

    @Test("a server configured with lower limits refuses at them")
    func configuredLimits() async throws {
        try await TestServer.with(configure: { configuration in
            configuration.queryLimits.maximumConditions = 3
            configuration.queryLimits.maximumOrderKeys = 1
            configuration.queryLimits.maximumIncludedObjects = 2
        }) { client in
            let three = try await Self.find(client, .leancloud, ["where": Self.conditions(3)])
            #expect(three.status == 200)
            let four = try await Self.find(client, .leancloud, ["where": Self.conditions(4)])
            #expect(four.status == 400 && four.code == 1)
            let order = try await Self.find(client, .leancloud, ["order": "a,-b"])
            #expect(order.status == 400 && order.code == 1)
            let targets = try await [client.create(.leancloud, "Item", ["n": 1]), client.create(.leancloud, "Item", ["n": 2]), client.create(.leancloud, "Item", ["n": 3])]
            let pointers = JSON.array(targets.map { ["__type": "Pointer", "className": "Item", "objectId": .string($0)] })
            let holder = try await client.create(.leancloud, "Holder", ["arr": pointers])
            let included = try await client.fetch(.leancloud, "Holder", holder, query: "include=arr")
            #expect(included.status == 400 && included.code == 1, "\(included.bodyText)")
            let cql = try await client.request(.leancloud, .get, "/cloudQuery?cql=" + URLQuery.encode("select * from Item where a = 1 and b = 2 and c = 3 and d = 4"))
            #expect(cql.status == 400 && cql.json["error"]?.stringValue?.contains("Query too complex") == true, "\(cql.bodyText)")
        }
    }
}
