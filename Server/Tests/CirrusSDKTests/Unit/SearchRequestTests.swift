@testable import Cirrus
import CirrusModel
import Foundation
import Testing

/// The requests LCSearchQuery builds (`GET /1.1/search/select`) and how it reads recorded-style replies; no server.
@Suite("Search requests")
struct SearchRequestTests {
    /// A reply of LeanCloud's search: two hits of a class-less search, the first highlighted, and a scroll id.
    static let firstPage = #"""
        {"hits":3,"sid":"cXVlcnlUaGVuRmV0Y2g7Mzs0","results":[
          {"objectId":"s1","className":"GameScore","playerName":"dennis ZX","score":99,"createdAt":"2026-01-02T03:04:05.678Z",
           "updatedAt":"2026-01-02T03:04:06.000Z","_app_url":"https://example.com/s1","_deeplink":"app://s1",
           "player":{"__type":"Pointer","className":"_User","objectId":"u1"},
           "_highlight":{"playerName":["<em>dennis</em> ZX"],"bio":["likes <em>dennis</em>","and more"]}},
          {"objectId":"u2","className":"_User","username":"dennis","_highlight":null}
        ]}
        """#

    /// The last page: one hit and no scroll id.
    static let lastPage = #"{"hits":3,"sid":null,"results":[{"objectId":"s3","playerName":"Dennis"}]}"#

    @Test("a find is GET /1.1/search/select with q, clazz, limit, skip, highlights, fields, include and order")
    func parameters() async throws {
        let transport = RecordingTransport(json: [#"{"hits":0,"results":[],"sid":null}"#])
        let query = LCSearchQuery(application: try makeApplication(transport), queryString: "dennis AND score:>10", className: "GameScore")
        query.limit = 20
        query.skip = 40
        query.highlights = ["playerName", "bio"]
        query.fields = ["playerName", "score"]
        query.include = ["player", "player.team"]
        query.order = "-score,createdAt"
        _ = try await query.find()
        let request = try #require(transport.requests.first)
        #expect(request.method == "GET")
        #expect(request.path == "/1.1/search/select")
        #expect(request.body == nil)
        #expect(request.query == [
            "q": "dennis AND score:>10", "clazz": "GameScore", "limit": "20", "skip": "40", "highlights": "playerName,bio",
            "fields": "playerName,score", "include": "player,player.team", "order": "-score,createdAt",
        ])
        #expect(request.url.query?.contains("q=dennis%20AND%20score%3A%3E10") == true, "the query string is percent-encoded")
    }

    @Test("a class-less search sends no clazz; highlights of every field are *; nothing unset is sent")
    func minimal() async throws {
        let transport = RecordingTransport(json: [#"{"hits":0,"results":[],"sid":null}"#])
        let query = LCSearchQuery(application: try makeApplication(transport), queryString: "*")
        query.highlights = ["*"]
        _ = try await query.find()
        #expect(transport.requests.first?.query == ["q": "*", "highlights": "*"])
    }

    @Test("the sort builder's fields and _geo_distance are sent as the sort JSON array, in the order added")
    func sort() async throws {
        let transport = RecordingTransport(json: [#"{"hits":0,"results":[],"sid":null}"#])
        let query = LCSearchQuery(application: try makeApplication(transport), queryString: "*", className: "Place")
        let builder = LCSearchSortBuilder()
        builder.ascending("name").descending("scores", mode: .max, missing: .first)
        builder.whereNear(key: "location", point: LCGeoPoint(latitude: 39.9, longitude: 116.4), order: .ascending, unit: .kilometers, mode: .min)
        query.sortBuilder = builder
        _ = try await query.find()
        let expected = try json(#"""
            [{"name":{"order":"asc","mode":"avg","missing":"_last"}},
             {"scores":{"order":"desc","mode":"max","missing":"_first"}},
             {"_geo_distance":{"location":{"lat":39.9,"lon":116.4},"order":"asc","unit":"km","mode":"min"}}]
            """#)
        #expect(transport.requests.first?.queryJSON("sort") == expected)
        #expect(transport.requests.first?.query["order"] == nil)
        #expect(try JSONParser.parse(builder.build()) == expected)
    }

    @Test("the geo sort's defaults are LeanCloud's: ascending, avg, kilometers")
    func geoDefaults() throws {
        let builder = LCSearchSortBuilder().whereNear(key: "at", point: LCGeoPoint(latitude: 1.5, longitude: -2.25))
        #expect(try JSONParser.parse(builder.build()) == (try json(#"[{"_geo_distance":{"at":{"lat":1.5,"lon":-2.25},"order":"asc","unit":"km","mode":"avg"}}]"#)))
    }

    @Test("a sort and an order together, or no query string, fail before anything is sent")
    func refusals() async throws {
        let transport = RecordingTransport(json: [#"{"hits":0,"results":[],"sid":null}"#])
        let application = try makeApplication(transport)
        let both = LCSearchQuery(application: application, queryString: "*", className: "Place")
        both.order = "name"
        both.sortBuilder = LCSearchSortBuilder().descending("score")
        let error = try await #require(throws: LCError.self) { try await both.find() }
        #expect(error.code == LCError.InternalErrorCode.inconsistency.rawValue)
        let empty = LCSearchQuery(application: application, queryString: "", className: "Place")
        await #expect(throws: LCError.self) { try await empty.find() }
        #expect(transport.requests.isEmpty)
        both.sortBuilder = LCSearchSortBuilder()
        _ = try await both.find()
        #expect(transport.requests.first?.query["order"] == "name", "an empty sort builder is no sort")
    }

    @Test("results become objects of their className with their fields and highlights; hits and sid are kept")
    func decoding() async throws {
        let transport = RecordingTransport(json: [Self.firstPage])
        let query = LCSearchQuery(application: try makeApplication(transport), queryString: "dennis")
        let objects = try await query.find()
        #expect(query.hits == 3)
        #expect(query.sid == "cXVlcnlUaGVuRmV0Y2g7Mzs0")
        #expect(query.hasMore)
        #expect(objects.count == 2)
        let score = try #require(objects.first)
        #expect(score.className == "GameScore")
        #expect(score.objectId?.value == "s1")
        #expect(score.get("playerName")?.stringValue == "dennis ZX")
        #expect(score.get("score")?.intValue == 99)
        #expect(score.createdAt?.isoString == "2026-01-02T03:04:05.678Z")
        #expect((score.get("player") as? LCUser)?.objectId?.value == "u1")
        #expect(score.highlights == ["playerName": ["<em>dennis</em> ZX"], "bio": ["likes <em>dennis</em>", "and more"]])
        #expect(score.get("_highlight") is LCDictionary, "the JavaScript SDK's get('_highlight') reads them too")
        #expect(score.get("_app_url") == nil && score.get("_deeplink") == nil && score.get("className") == nil)
        #expect(!score.hasDataToUpload, "nothing of a result is a change to save")
        let user = try #require(objects.last as? LCUser)
        #expect(user.username?.value == "dennis")
        #expect(user.highlights == nil)
        #expect(user.get("_highlight") == nil)
    }

    @Test("the next find sends the kept sid; a null sid ends the search; results without className are of the query's class")
    func paging() async throws {
        let transport = RecordingTransport(json: [Self.firstPage, Self.lastPage])
        let query = LCSearchQuery(application: try makeApplication(transport), queryString: "dennis", className: "GameScore")
        _ = try await query.find()
        let last = try await query.find()
        #expect(transport.requests.first?.query["sid"] == nil)
        #expect(transport.requests.last?.query["sid"] == "cXVlcnlUaGVuRmV0Y2g7Mzs0")
        #expect(last.map(\.className) == ["GameScore"])
        #expect(last.first?.objectId?.value == "s3")
        #expect(query.sid == nil)
        #expect(!query.hasMore)
        #expect(query.hits == 3)
        query.reset()
        #expect(query.hasMore && query.sid == nil && query.hits == 0)
    }

    @Test("a class-less result without className is refused as malformed; a server error keeps its code")
    func failures() async throws {
        let malformed = RecordingTransport(json: [#"{"hits":1,"sid":null,"results":[{"objectId":"x"}]}"#])
        let classless = LCSearchQuery(application: try makeApplication(malformed), queryString: "x")
        let error = try await #require(throws: LCError.self) { try await classless.find() }
        #expect(error.code == LCError.InternalErrorCode.malformedData.rawValue)
        let refused = RecordingTransport([TransportResponse(status: 400, body: Data(#"{"code":1,"error":"Search is not enabled for class Nope."}"#.utf8))])
        let query = LCSearchQuery(application: try makeApplication(refused), queryString: "x", className: "Nope")
        let server = try await #require(throws: LCError.self) { try await query.find() }
        #expect(server.code == 1)
        #expect(query.hasMore, "a failed find changes nothing")
    }

    @Test("a search carries the current user's session, so ACLs apply; the completion form yields LCQueryResult")
    func sessionAndCompletion() async throws {
        let transport = RecordingTransport(json: [Self.lastPage])
        let application = try makeApplication(transport)
        let user = LCUser(application: application)
        user.merge(["objectId": "u1", "sessionToken": "token-1"], decoder: ObjectDecoder(application: application))
        application.currentUser = user
        let query = LCSearchQuery(application: application, queryString: "dennis", className: "GameScore")
        let result: LCQueryResult<LCObject> = await withCheckedContinuation { continuation in
            _ = query.find(completionQueue: .global()) { continuation.resume(returning: $0) }
        }
        #expect(result.objects?.count == 1)
        #expect(transport.requests.first?.headers["X-LC-Session"] == "token-1")
    }
}
