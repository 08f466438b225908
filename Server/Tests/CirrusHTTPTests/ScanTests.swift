@testable import CirrusHTTP
import CirrusModel
import CirrusTesting
import Testing

/// LeanCloud's `GET /1.1/scan/classes/<Class>`: master key only, `scan_key`, `where`, `limit`, and an opaque
/// cursor valid for 10 minutes; `cursor: null` ends the scan (recording Queries/scan/should-works).
@Suite("Scanning a class")
struct ScanTests {
    /// `count` objects of `Item` with `n` = 0..<count and `even` set on the even ones.
    static func seed(_ client: TestClient, count: Int, className: String = "Item") async throws {
        var remaining = Array(0..<count)
        while !remaining.isEmpty {
            let chunk = remaining.prefix(500)
            remaining.removeFirst(chunk.count)
            let requests: [JSON] = chunk.map { index in
                ["method": "POST", "path": .string("/1.1/classes/\(className)"), "body": ["n": .int(Int64(index)), "even": .bool(index % 2 == 0)]]
            }
            let reply = try await client.request(.leancloud, .post, "/batch", json: ["requests": .array(requests)])
            #expect(reply.status == 200)
        }
    }

    static func scan(_ client: TestClient, _ query: String, className: String = "Item") async throws -> TestReply {
        try await client.request(.leancloud, .get, "/scan/classes/\(className)?" + query, auth: .master)
    }

    /// Every page of a scan, following the cursors until `null`.
    static func pages(_ client: TestClient, _ query: String) async throws -> [[JSON]] {
        var pages: [[JSON]] = []
        var cursor: String?
        repeat {
            let reply = try await scan(client, query + (cursor.map { "&cursor=" + URLQuery.encode($0) } ?? ""))
            #expect(reply.status == 200, "\(reply.bodyText)")
            #expect(reply.keys == ["cursor", "results"])
            pages.append(reply.json["results"]?.arrayValue ?? [])
            cursor = reply.json["cursor"]?.stringValue
            #expect(cursor != nil || reply.json["cursor"] == .null)
        } while cursor != nil && pages.count < 100
        return pages
    }

    @Test("pages follow objectId order by default and end with an empty page and cursor null")
    func defaultOrder() async throws {
        try await TestServer.with { client in
            try await Self.seed(client, count: 4)
            let pages = try await Self.pages(client, "limit=2")
            #expect(pages.map(\.count) == [2, 2, 0])
            let ids = pages.joined().compactMap { $0["objectId"]?.stringValue }
            #expect(ids == ids.sorted())
            #expect(Set(ids).count == 4)
            #expect(pages.joined().allSatisfy { WireFormat.matches($0["createdAt"]?.stringValue, WireFormat.iso) })
        }
    }

    @Test("where filters the scan; a short page ends it at once")
    func filtered() async throws {
        try await TestServer.with { client in
            try await Self.seed(client, count: 7)
            let pages = try await Self.pages(client, "limit=3&" + URLQuery.whereClause(["even": true]))
            #expect(pages.map(\.count) == [3, 1])
            #expect(pages.joined().compactMap { $0["n"]?.intValue }.sorted() == [0, 2, 4, 6])
        }
    }

    @Test("scan_key orders by another field, -key descending", arguments: ["n", "-n", "createdAt", "-objectId"])
    func scanKey(_ key: String) async throws {
        try await TestServer.with { client in
            try await Self.seed(client, count: 9)
            let pages = try await Self.pages(client, "limit=4&scan_key=" + URLQuery.encode(key))
            #expect(pages.map(\.count) == [4, 4, 1])
            let objects = Array(pages.joined())
            #expect(Set(objects.compactMap { $0["objectId"]?.stringValue }).count == 9)
            if key.hasSuffix("n") {
                let numbers = objects.compactMap { $0["n"]?.intValue }
                #expect(numbers == (key.hasPrefix("-") ? Array((0..<9).reversed()) : Array(0..<9)))
            }
        }
    }

    @Test("limit is 100 by default and at most 1000")
    func limits() async throws {
        try await TestServer.with { client in
            try await Self.seed(client, count: 1005)
            let plain = try await Self.scan(client, "")
            #expect(plain.json["results"]?.arrayValue?.count == 100)
            #expect(plain.json["cursor"]?.stringValue != nil)
            let large = try await Self.scan(client, "limit=5000")
            #expect(large.json["results"]?.arrayValue?.count == 1000)
            let pages = try await Self.pages(client, "limit=1000")
            #expect(pages.map(\.count) == [1000, 5])
        }
    }

    @Test("only the master key may scan", arguments: [TestClient.Auth.appKey, .none])
    func masterOnly(_ auth: TestClient.Auth) async throws {
        try await TestServer.with { client in
            try await Self.seed(client, count: 1)
            let reply = try await client.request(.leancloud, .get, "/scan/classes/Item", auth: auth)
            #expect(reply.status == 400 || reply.status == 401)
            #expect(reply.json["results"] == nil)
            if case .appKey = auth {
                #expect(reply.json == ["code": 1, "error": "The request must be signed by master key."])
            }
        }
    }

    @Test("Parse and Bmob have no scan endpoint", arguments: [Endpoint.parse, .parseMounted, .bmob])
    func otherDialects(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            try await Self.seed(client, count: 1)
            let reply = try await client.request(endpoint, .get, "/scan/classes/Item", auth: .master)
            #expect(reply.status == 404)
        }
    }

    struct BadCase: Sendable, CustomTestStringConvertible {
        let label: String
        let query: String
        var testDescription: String { label }
    }

    static let badCases: [BadCase] = [
        BadCase(label: "a cursor that is not ours", query: "cursor=9B1jj4e9mHEzWjF0"),
        BadCase(label: "a non-numeric limit", query: "limit=many"),
        BadCase(label: "two scan keys", query: "scan_key=n,objectId"),
        BadCase(label: "the scan key inside where", query: "scan_key=n&" + URLQuery.whereClause(["n": 1])),
        BadCase(label: "a malformed where", query: "where=%7B"),
    ]

    @Test("invalid scans are refused", arguments: badCases)
    func refuses(_ test: BadCase) async throws {
        try await TestServer.with { client in
            try await Self.seed(client, count: 3)
            let reply = try await Self.scan(client, test.query)
            #expect(reply.status == 400, "\(reply.bodyText)")
            #expect(reply.code != nil)
        }
    }

    @Test("a tampered cursor, or one for another class or scan key, is refused")
    func tampered() async throws {
        try await TestServer.with { client in
            try await Self.seed(client, count: 3)
            try await Self.seed(client, count: 3, className: "Other")
            let first = try await Self.scan(client, "limit=1")
            let cursor = try #require(first.json["cursor"]?.stringValue)
            let parts = cursor.split(separator: ".").map(String.init)
            #expect(parts.count == 2)
            // Change one character of the payload: the MAC no longer matches.
            var payload = Array(parts[0])
            payload[payload.count / 2] = payload[payload.count / 2] == "A" ? "B" : "A"
            let altered = String(payload) + "." + parts[1]
            let refused = try await Self.scan(client, "limit=1&cursor=" + URLQuery.encode(altered))
            #expect(refused.status == 400)
            #expect(refused.json["error"] == "Invalid scan cursor.")
            let otherClass = try await Self.scan(client, "limit=1&cursor=" + URLQuery.encode(cursor), className: "Other")
            #expect(otherClass.status == 400)
            let otherKey = try await Self.scan(client, "limit=1&scan_key=n&cursor=" + URLQuery.encode(cursor))
            #expect(otherKey.status == 400)
            let honest = try await Self.scan(client, "limit=1&cursor=" + URLQuery.encode(cursor))
            #expect(honest.status == 200)
        }
    }

    @Test("a cursor is valid for ten minutes")
    func expiry() throws {
        let codec = ScanCursorCodec(masterKey: "m")
        let issued = Timestamp(millisecondsSince1970: 1_700_000_000_000)
        let cursor = ScanCursor(
            className: "Item", key: "objectId", lastValue: "abc",
            expiresAt: Timestamp(millisecondsSince1970: issued.millisecondsSince1970 + ScanCursor.lifetimeMilliseconds)
        )
        let text = codec.seal(cursor)
        let almost = Timestamp(millisecondsSince1970: issued.millisecondsSince1970 + 10 * 60 * 1000 - 1)
        #expect(try codec.open(text, className: "Item", key: "objectId", now: almost) == cursor)
        let late = Timestamp(millisecondsSince1970: issued.millisecondsSince1970 + 10 * 60 * 1000)
        #expect(throws: APIError.self) { try codec.open(text, className: "Item", key: "objectId", now: late) }
        #expect(throws: APIError.self) { try ScanCursorCodec(masterKey: "other").open(text, className: "Item", key: "objectId", now: almost) }
    }
}
