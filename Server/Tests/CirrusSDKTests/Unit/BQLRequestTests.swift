@testable import Cirrus
import CirrusModel
import Foundation
import Testing

/// A subclass that BQL results of its class are made of.
final class BQLScore: LCObject, @unchecked Sendable {
    @LCField("playerName") var playerName: LCString?
    override class func objectClassName() -> String { "BQLScore" }
}

/// BQL on Bmob's path through an in-memory transport: the requests, and Bmob's replies read as LC values.
@Suite("BQL requests and replies")
struct BQLRequestTests {
    /// `2015-05-14 14:56:30` in Beijing time.
    static let beijing = Date(timeIntervalSince1970: 1_431_586_590)

    @Test("a statement is GET /1/cloudQuery with bql, values in their REST encoding and the X-Bmob-* headers")
    func request() async throws {
        let transport = RecordingTransport(json: [#"{"results":[]}"#])
        let application = try makeApplication(transport)
        _ = try await LCBQLClient.execute(
            application: application, "select * from GameScore where playerName = ? and score = ? and createdAt > ?",
            values: ["name2", 9, Date(timeIntervalSince1970: 0)]
        )
        let request = try #require(transport.requests.first)
        #expect(request.method == "GET")
        #expect(request.url.absoluteString.hasPrefix("https://api.example.com/1/cloudQuery?bql=select%20%2A%20from%20GameScore%20where"))
        #expect(request.query["bql"] == "select * from GameScore where playerName = ? and score = ? and createdAt > ?")
        #expect(request.queryJSON("values") == (try json(#"["name2",9,{"__type":"Date","iso":"1970-01-01T00:00:00.000Z"}]"#)))
        #expect(request.headers == ["X-Bmob-Application-Id": "test-app-id", "X-Bmob-REST-API-Key": "test-app-key"])
    }

    @Test("without placeholder values there is no values parameter; a logged-in user's token is X-Bmob-Session-Token")
    func session() async throws {
        let transport = RecordingTransport(json: [UserRequestTests.userReply, #"{"results":[]}"#, #"{"results":[]}"#])
        let application = try makeApplication(transport)
        _ = try await LCUser.logIn(application: application, username: "Tom", password: "p")
        _ = try await LCBQLClient.execute(application: application, "select * from Note")
        _ = try await LCBQLClient.statistics(application: application, "select sum(n) from Note", values: [1])
        let requests = transport.requests
        #expect(requests[1].query == ["bql": "select * from Note"])
        #expect(requests[1].headers["X-Bmob-Session-Token"] == "token-1")
        #expect(requests[1].headers["X-LC-Session"] == nil && requests[1].headers["X-LC-Id"] == nil)
        #expect(requests[2].path == "/1/cloudQuery")
        #expect(requests[2].query == ["bql": "select sum(n) from Note", "values": "[1]"])
        #expect(requests[2].headers["X-Bmob-Session-Token"] == "token-1")
    }

    @Test("Bmob's objects become objects of the statement's class, with Beijing-time dates at the right instant")
    func decoding() async throws {
        BQLScore.register()
        let reply = #"""
        {"results":[{"objectId":"a1","playerName":"name2","score":9,"createdAt":"2015-05-14 14:56:30","updatedAt":"2015-05-14 15:56:30",
          "played":{"__type":"Date","iso":"2015-05-14 14:56:30"},
          "dates":[{"__type":"Date","iso":"2015-05-14 14:56:30"}],
          "player":{"__type":"Object","className":"Player","objectId":"p1","createdAt":"2015-05-14 14:56:30","updatedAt":"2015-05-14 14:56:30",
            "born":{"__type":"Date","iso":"2000-01-01 08:00:00"}},
          "team":{"__type":"Pointer","className":"Team","objectId":"t1"},
          "photo":{"__type":"File","filename":"photo.png","url":"http://files.example.com/photo.png","cdn":"cirrus"},
          "ACL":{"*":{"read":true}}}]}
        """#
        let transport = RecordingTransport(json: [reply])
        let value = try await LCBQLClient.execute(application: try makeApplication(transport), "select * from BQLScore where score = ?", values: [9])
        #expect(value.className == "BQLScore")
        #expect(value.count == 0)
        let score = try #require(value.objects.first as? BQLScore)
        #expect(score.objectId?.value == "a1")
        #expect(score.playerName?.value == "name2")
        #expect(score.get("score")?.intValue == 9)
        #expect(score.createdAt?.value == Self.beijing)
        #expect(score.updatedAt?.value == Self.beijing.addingTimeInterval(3600))
        #expect(score.get("played")?.dateValue == Self.beijing)
        #expect(score.get("dates")?.arrayValue?.first?.dateValue == Self.beijing)
        let player = try #require(score.get("player") as? LCObject)
        #expect(player.className == "Player" && player.objectId?.value == "p1")
        #expect(player.createdAt?.value == Self.beijing)
        #expect(player.get("born")?.dateValue == Date(timeIntervalSince1970: 946_684_800))
        let team = try #require(score.get("team") as? LCObject)
        #expect(team.className == "Team" && team.objectId?.value == "t1")
        let photo = try #require(score.get("photo") as? LCFile)
        #expect(photo.name?.value == "photo.png")
        #expect(photo.url?.value == "http://files.example.com/photo.png")
        #expect(score.ACL?.getAccess(.read, forUserID: "*") == true)
    }

    @Test("select count(*) answers count; a statistics reply answers its rows as dictionaries")
    func countAndStatistics() async throws {
        let transport = RecordingTransport(json: [
            #"{"results":[],"count":5}"#,
            #"{"results":[{"playerName":"Sean","_sumScore":60,"_count":2},{"playerName":"Tom","_avgScore":7.5,"_maxPlayed":{"__type":"Date","iso":"2015-05-14 14:56:30"}}]}"#,
        ])
        let application = try makeApplication(transport)
        let counted = try await LCBQLClient.execute(application: application, "select count(*) from GameScore")
        #expect(counted.count == 5)
        #expect(counted.objects.isEmpty)
        let rows = try await LCBQLClient.statistics(application: application, "select sum(score) from GameScore group by playerName")
        #expect(rows.count == 2)
        #expect(rows[0]["playerName"]?.stringValue == "Sean")
        #expect(rows[0]["_sumScore"]?.intValue == 60)
        #expect(rows[0]["_count"]?.intValue == 2)
        #expect(rows[1]["_avgScore"]?.doubleValue == 7.5)
        #expect(rows[1]["_maxPlayed"]?.dateValue == Self.beijing)
    }

    @Test("Bmob's error replies are LCErrors with its code and message, in every call form")
    func errors() async throws {
        let body = #"{"code":601,"error":"BQL syntax error.Detail: Parse error at line 1, column 10"}"#
        let transport = RecordingTransport([TransportResponse(status: 400, body: Data(body.utf8))])
        let application = try makeApplication(transport)
        let thrown = try await #require(throws: LCError.self) { try await LCBQLClient.execute(application: application, "select * Score") }
        #expect(thrown.code == 601)
        #expect(thrown.reason == "BQL syntax error.Detail: Parse error at line 1, column 10")
        let statistics = try await #require(throws: LCError.self) { try await LCBQLClient.statistics(application: application, "select sum(x) Score") }
        #expect(statistics.code == 601)
        let handed: LCCQLResult = await withCheckedContinuation { continuation in
            _ = LCBQLClient.execute(application: application, "select * Score", completionQueue: .global()) { continuation.resume(returning: $0) }
        }
        #expect(handed.isFailure && handed.error?.code == 601 && handed.objects.isEmpty)
        let rows: LCQueryResult<LCDictionary> = await withCheckedContinuation { continuation in
            _ = LCBQLClient.statistics(application: application, "select sum(x) Score", completionQueue: .global()) { continuation.resume(returning: $0) }
        }
        #expect(rows.error?.code == 601)
    }

    @Test("a reply without results is malformed")
    func malformed() async throws {
        let transport = RecordingTransport(json: [#"{"count":1}"#])
        let application = try makeApplication(transport)
        let error = try await #require(throws: LCError.self) { try await LCBQLClient.execute(application: application, "select * from A") }
        #expect(error.code == LCError.InternalErrorCode.malformedData.rawValue)
    }

    @Test("the completion and blocking forms deliver the objects and the count")
    func callForms() async throws {
        let transport = RecordingTransport(json: [
            #"{"results":[{"objectId":"a"},{"objectId":"b"}]}"#, #"{"results":[],"count":3}"#, #"{"results":[{"_sumN":4}]}"#,
        ])
        let application = try makeApplication(transport)
        let found: LCCQLResult = await withCheckedContinuation { continuation in
            _ = LCBQLClient.execute(application: application, "select * from A", completionQueue: .global()) { continuation.resume(returning: $0) }
        }
        #expect(found.objects.compactMap { $0.objectId?.value } == ["a", "b"])
        #expect(found.objects.first?.className == "A")
        let (count, sum) = await onThread { () -> (Int, Int?) in
            let counted: LCCQLResult = LCBQLClient.execute(application: application, "select count(*) from A")
            let rows: LCQueryResult<LCDictionary> = LCBQLClient.statistics(application: application, "select sum(n) from A")
            return (counted.count, rows.objects?.first?["_sumN"]?.intValue)
        }
        #expect(count == 3 && sum == 4)
    }

    @Test("the class of a statement is read after its top-level from, into or leading update", arguments: [
        ("select * from GameScore_BQL", "GameScore_BQL"),
        ("SELECT count(*) FROM Todo WHERE a = 'from X'", "Todo"),
        ("select name, include post from Comment where post in (select objectId from Post where t = \"into Y\") limit 1", "Comment"),
        ("select * from Score where name = 'it\\'s from Z'", "Score"),
        ("insert into _User (username) values ('a')", "_User"),
        ("update Todo set n = 1 where objectId = 'x'", "Todo"),
        ("delete from Todo where objectId = 'x'", "Todo"),
        ("select sum(score), groupcount from 游戏 group by playerName", "游戏"),
    ])
    func className(statement: String, expected: String) {
        #expect(Bmob.className(of: statement) == expected)
    }

    @Test("a statement without a class names none")
    func noClassName() {
        #expect(Bmob.className(of: "select * where a = 'from X'") == nil)
    }
}

/// The query cache under BQL statements.
@Suite("BQL cache policies")
struct BQLCacheTests {
    static let first = #"{"results":[{"objectId":"a"}]}"#
    static let second = #"{"results":[{"objectId":"a"},{"objectId":"b"}]}"#

    func withCache<T: Sendable>(_ replies: [String], _ body: @Sendable (LCApplication, RecordingTransport) async throws -> T) async throws -> T {
        try await CachePolicyTests().withCache(replies.map(CachePolicyTests.ok)) { application, transport, _ in
            try await body(application, transport)
        }
    }

    static func ids(_ value: LCCQLValue) -> [String] { value.objects.compactMap { $0.objectId?.value } }

    @Test("onlyNetwork caches per statement and values; onlyCache answers without a request or fails with 120")
    func onlyNetworkThenCache() async throws {
        try await withCache([Self.first, Self.second]) { application, transport in
            let bql = "select * from A where n = ?"
            #expect(!LCBQLClient.hasCachedResult(application: application, bql, values: [1]))
            _ = try await LCBQLClient.execute(application: application, bql, values: [1])
            #expect(!LCBQLClient.hasCachedResult(application: application, bql, values: [1]))
            #expect(Self.ids(try await LCBQLClient.execute(application: application, bql, values: [1], cachePolicy: .onlyNetwork)) == ["a", "b"])
            #expect(LCBQLClient.hasCachedResult(application: application, bql, values: [1]))
            #expect(Self.ids(try await LCBQLClient.execute(application: application, bql, values: [1], cachePolicy: .onlyCache)) == ["a", "b"])
            let other = try await #require(throws: LCError.self) {
                try await LCBQLClient.execute(application: application, bql, values: [2], cachePolicy: .onlyCache)
            }
            #expect(other.code == 120)
            #expect(transport.requests.count == 2)
            LCBQLClient.clearCachedResult(application: application, bql, values: [1])
            #expect(!LCBQLClient.hasCachedResult(application: application, bql, values: [1]))
        }
    }

    @Test("cacheElseNetwork asks once; networkElseCache falls back on the cache; clearAllCachedResults clears BQL too")
    func fallbacks() async throws {
        let replies = [CachePolicyTests.ok(Self.first), CachePolicyTests.unavailable]
        try await CachePolicyTests().withCache(replies) { application, transport, _ in
            let bql = "select * from A"
            #expect(Self.ids(try await LCBQLClient.execute(application: application, bql, cachePolicy: .cacheElseNetwork)) == ["a"])
            #expect(Self.ids(try await LCBQLClient.execute(application: application, bql, cachePolicy: .cacheElseNetwork)) == ["a"])
            #expect(transport.requests.count == 1)
            #expect(Self.ids(try await LCBQLClient.execute(application: application, bql, cachePolicy: .networkElseCache)) == ["a"])
            #expect(transport.requests.count == 2)
            LCQuery.clearAllCachedResults(application: application)
            #expect(!LCBQLClient.hasCachedResult(application: application, bql))
            let error = try await #require(throws: LCError.self) {
                try await LCBQLClient.execute(application: application, bql, cachePolicy: .networkElseCache)
            }
            #expect(error.code == 503)
        }
    }

    @Test("a cached result older than maxCacheAge is not used")
    func maxCacheAge() async throws {
        try await CachePolicyTests().withCache([CachePolicyTests.ok(Self.first)]) { application, _, directory in
            _ = try await LCBQLClient.execute(application: application, "select * from A", cachePolicy: .onlyNetwork)
            #expect(LCBQLClient.hasCachedResult(application: application, "select * from A", maxCacheAge: 3600))
            let files = try FileManager.default.contentsOfDirectory(at: directory.appendingPathComponent("app/queries"), includingPropertiesForKeys: nil)
            for file in files {
                try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: file.path)
            }
            #expect(!LCBQLClient.hasCachedResult(application: application, "select * from A", maxCacheAge: 3600))
            let error = try await #require(throws: LCError.self) {
                try await LCBQLClient.execute(application: application, "select * from A", cachePolicy: .onlyCache, maxCacheAge: 3600)
            }
            #expect(error.code == 120)
            #expect(LCBQLClient.hasCachedResult(application: application, "select * from A"))
        }
    }

    @Test("cacheThenNetwork hands the cached objects, then the network's, to the completion handler; async refuses it")
    func cacheThenNetwork() async throws {
        try await withCache([Self.first, Self.second]) { application, _ in
            _ = try await LCBQLClient.execute(application: application, "select * from A", cachePolicy: .onlyNetwork)
            let counts = await withCheckedContinuation { continuation in
                let box = Counts()
                _ = LCBQLClient.execute(application: application, "select * from A", cachePolicy: .cacheThenNetwork, completionQueue: DispatchQueue(label: "serial")) { result in
                    if box.append(result.objects.count) == 2 { continuation.resume(returning: box.values) }
                }
            }
            #expect(counts == [1, 2])
            await #expect(throws: LCError.self) { try await LCBQLClient.execute(application: application, "select * from A", cachePolicy: .cacheThenNetwork) }
        }
    }
}
