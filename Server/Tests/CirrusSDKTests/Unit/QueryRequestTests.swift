@testable import Cirrus
import CirrusModel
import Foundation
import Testing

/// The `where` documents and parameters LCQuery builds.
@Suite("Query requests")
struct QueryRequestTests {
    static let application = LCApplication()

    static let post = LCObject(application: application, className: "Post", objectId: "57328ca079bc44005c2472d0")

    /// A constraint on `key` and the `where` it gives.
    static let constraints: [(String, LCQuery.Constraint, String)] = [
        ("lastName", .equalTo("Smith"), #"{"lastName":"Smith"}"#),
        ("firstName", .notEqualTo("Jack"), #"{"firstName":{"$ne":"Jack"}}"#),
        ("age", .lessThan(18), #"{"age":{"$lt":18}}"#),
        ("age", .lessThanOrEqualTo(18), #"{"age":{"$lte":18}}"#),
        ("age", .greaterThan(18), #"{"age":{"$gt":18}}"#),
        ("age", .greaterThanOrEqualTo(18.5), #"{"age":{"$gte":18.5}}"#),
        ("priority", .containedIn([1, 2]), #"{"priority":{"$in":[1,2]}}"#),
        ("priority", .notContainedIn([1, 2]), #"{"priority":{"$nin":[1,2]}}"#),
        ("tags", .containedAllIn(["work", "sales"]), #"{"tags":{"$all":["work","sales"]}}"#),
        ("tags", .equalToSize(3), #"{"tags":{"$size":3}}"#),
        ("images", .existed, #"{"images":{"$exists":true}}"#),
        ("images", .notExisted, #"{"images":{"$exists":false}}"#),
        ("title", .prefixedBy("lunch"), #"{"title":{"$regex":"^\\Qlunch\\E"}}"#),
        ("title", .suffixedBy("lunch"), #"{"title":{"$regex":"\\Qlunch\\E$"}}"#),
        ("title", .matchedSubstring("lunch"), #"{"title":{"$regex":"\\Qlunch\\E"}}"#),
        ("title", .matchedRegularExpression("^((?!ticket).)*$", option: "i"), #"{"title":{"$regex":"^((?!ticket).)*$","$options":"i"}}"#),
        ("post", .equalTo(post), #"{"post":{"__type":"Pointer","className":"Post","objectId":"57328ca079bc44005c2472d0"}}"#),
        (
            "createdAt", .greaterThanOrEqualTo(Date(timeIntervalSince1970: 0)),
            #"{"createdAt":{"$gte":{"__type":"Date","iso":"1970-01-01T00:00:00.000Z"}}}"#
        ),
        (
            "location", .locatedNear(LCGeoPoint(latitude: 39.9, longitude: 116.4)),
            #"{"location":{"$nearSphere":{"__type":"GeoPoint","latitude":39.9,"longitude":116.4}}}"#
        ),
        (
            "location",
            .locatedNear(LCGeoPoint(latitude: 1, longitude: 2), from: .init(value: 1, unit: .kilometer), to: .init(value: 5, unit: .mile)),
            // Distances travel in radians of arc, as the model holds them (the server reads every unit).
            #"{"location":{"$nearSphere":{"__type":"GeoPoint","latitude":1.0,"longitude":2.0},"#
                + #""$minDistanceInRadians":\#(1.0 / 6371.0),"$maxDistanceInRadians":\#(5.0 / 3958.8)}}"#
        ),
        (
            "location", .locatedWithin(southwest: LCGeoPoint(latitude: 30, longitude: 115), northeast: LCGeoPoint(latitude: 40, longitude: 118)),
            #"{"location":{"$within":{"$box":[{"__type":"GeoPoint","latitude":30.0,"longitude":115.0},{"__type":"GeoPoint","latitude":40.0,"longitude":118.0}]}}}"#
        ),
    ]

    @Test("each condition gives its where operator", arguments: constraints.map { ($0.0, $0.1, $0.2) })
    func condition(key: String, constraint: LCQuery.Constraint, expected: String) throws {
        let query = LCQuery(application: Self.application, className: "Todo")
        query.whereKey(key, constraint)
        #expect(query.whereJSON == (try json(expected)))
    }

    @Test("inner queries become $inQuery, $notInQuery, $select and $dontSelect")
    func innerQueries() throws {
        let inner = LCQuery(application: Self.application, className: "Post")
        inner.whereKey("image", .existed)
        let query = LCQuery(application: Self.application, className: "Comment")
        query.whereKey("post", .matchedQuery(inner))
        query.whereKey("other", .notMatchedQuery(inner))
        query.whereKey("author", .matchedQueryAndKey(query: inner, key: "writer"))
        query.whereKey("editor", .notMatchedQueryAndKey(query: inner, key: "writer"))
        let innerJSON = #"{"where":{"image":{"$exists":true}},"className":"Post"}"#
        let expected = try json(#"""
        {"post":{"$inQuery":\#(innerJSON)},"other":{"$notInQuery":\#(innerJSON)},
        "author":{"$select":{"query":\#(innerJSON),"key":"writer"}},"editor":{"$dontSelect":{"query":\#(innerJSON),"key":"writer"}}}
        """#)
        #expect(query.whereJSON == expected)
    }

    @Test("conditions on one key combine; equalTo replaces them")
    func sameKey() throws {
        let query = LCQuery(application: Self.application, className: "Todo")
        query.whereKey("createdAt", .greaterThanOrEqualTo(1))
        query.whereKey("createdAt", .lessThan(5))
        #expect(query.whereJSON == (try json(#"{"createdAt":{"$gte":1,"$lt":5}}"#)))
        query.whereKey("createdAt", .equalTo(3))
        #expect(query.whereJSON == (try json(#"{"createdAt":3}"#)))
        query.whereKey("createdAt", .greaterThan(1))
        #expect(query.whereJSON == (try json(#"{"createdAt":{"$gt":1}}"#)))
    }

    @Test("or and and wrap both queries' where")
    func compound() throws {
        let priority = LCQuery(application: Self.application, className: "Todo")
        priority.whereKey("priority", .greaterThanOrEqualTo(3))
        let complete = LCQuery(application: Self.application, className: "Todo")
        complete.whereKey("isComplete", .equalTo(true))
        #expect(priority.or(complete).whereJSON == (try json(#"{"$or":[{"priority":{"$gte":3}},{"isComplete":true}]}"#)))
        #expect(priority.and(complete).whereJSON == (try json(#"{"$and":[{"priority":{"$gte":3}},{"isComplete":true}]}"#)))
    }

    @Test("order, keys, include, limit and skip become parameters of GET /1.1/classes/<class>")
    func parameters() async throws {
        let transport = RecordingTransport(json: [#"{"results":[{"objectId":"c1","post":{"__type":"Pointer","className":"Post","objectId":"p"}}]}"#])
        let query = LCQuery(application: try makeApplication(transport), className: "Comment")
        query.whereKey("createdAt", .descending)
        query.whereKey("likes", .ascending)
        query.whereKey("title", .selected)
        query.whereKey("content", .selected)
        query.whereKey("post", .included)
        query.whereKey("post.author", .included)
        query.limit = 10
        query.skip = 20
        let comments = try await query.find()
        let request = try #require(transport.requests.first)
        #expect(request.method == "GET")
        #expect(request.path == "/1.1/classes/Comment")
        #expect(request.query["order"] == "-createdAt,likes")
        #expect(request.query["keys"] == "title,content")
        #expect(request.query["include"] == "post,post.author")
        #expect(request.query["limit"] == "10")
        #expect(request.query["skip"] == "20")
        #expect(request.queryJSON("where") == .object([:]))
        #expect(comments.first?.objectId?.value == "c1")
        #expect((comments.first?.get("post") as? LCObject)?.className == "Post")
    }

    @Test("count asks count=1&limit=0 and reads count")
    func count() async throws {
        let transport = RecordingTransport(json: [#"{"results":[],"count":7}"#])
        let query = LCQuery(application: try makeApplication(transport), className: "Todo")
        query.limit = 5
        #expect(try await query.count() == 7)
        #expect(transport.requests.first?.query["count"] == "1")
        #expect(transport.requests.first?.query["limit"] == "0")
    }

    @Test("getFirst asks limit=1 and fails with 101 when nothing matches")
    func getFirst() async throws {
        let transport = RecordingTransport(json: [#"{"results":[]}"#])
        let query = LCQuery(application: try makeApplication(transport), className: "Todo")
        let error = try await #require(throws: LCError.self) { try await query.getFirst() }
        #expect(error.code == 101)
        #expect(transport.requests.first?.query["limit"] == "1")
    }

    @Test("a relation's query asks $relatedTo, with redirectClassNameForKey when the members' class is unknown")
    func relation() throws {
        let post = LCObject(application: Self.application, className: "Post", objectId: "p1")
        let query = post.relationForKey("likes").query
        #expect(query.whereJSON == (try json(#"{"$relatedTo":{"object":{"__type":"Pointer","className":"Post","objectId":"p1"},"key":"likes"}}"#)))
        #expect(query.parameters().contains { $0 == ("redirectClassNameForKey", "likes") })
    }

    @Test("query values are percent-encoded, + included")
    func encoding() async throws {
        let transport = RecordingTransport(json: [#"{"results":[]}"#])
        let query = LCQuery(application: try makeApplication(transport), className: "Todo")
        query.whereKey("phone", .equalTo("+19490008888 &x"))
        _ = try await query.find()
        let url = try #require(transport.requests.first?.url.absoluteString)
        #expect(url.contains("%2B19490008888%20%26x"))
        #expect(transport.requests.first?.queryJSON("where") == (try json(#"{"phone":"+19490008888 &x"}"#)))
    }

    @Test("get takes an objectId as String or LCString?, and refuses nil before sending")
    func getIds() async throws {
        let transport = RecordingTransport(json: [#"{"objectId":"u1","username":"Tom"}"#])
        let application = try makeApplication(transport)
        let user = LCUser(application: application, className: "_User", objectId: LCString("u1"))
        let query = LCQuery(application: application, className: "_User")
        let found = try await query.get(user.objectId)
        #expect(found is LCUser)
        #expect(transport.requests.first?.path == "/1.1/classes/_User/u1")
        let none: LCString? = nil
        await #expect(throws: LCError.self) { try await query.get(none) }
        #expect(transport.requests.count == 1)
    }
}

@Suite("Statistics requests")
struct StatisticsRequestTests {
    @Test("statistics add sum, average, max, min, groupby, groupcount and having to the find's parameters")
    func parameters() async throws {
        let transport = RecordingTransport(json: [#"{"results":[{"playerName":"Sean","_sumScore":60,"_count":2}]}"#])
        let query = LCQuery(application: try makeApplication(transport), className: "GameScore")
        query.whereKey("score", .greaterThan(0))
        query.sum(keys: ["score"])
        query.sum(keys: ["bonus"])
        query.average(keys: ["score"])
        query.max(keys: ["level"])
        query.min(keys: ["level"])
        query.groupBy(keys: ["playerName"])
        query.groupCount = true
        query.having("_sumScore", .greaterThan(50))
        let rows = try await query.calculate()
        let request = try #require(transport.requests.first)
        #expect(request.query["sum"] == "score,bonus")
        #expect(request.query["average"] == "score")
        #expect(request.query["max"] == "level")
        #expect(request.query["min"] == "level")
        #expect(request.query["groupby"] == "playerName")
        #expect(request.query["groupcount"] == "true")
        #expect(request.queryJSON("having") == (try json(#"{"_sumScore":{"$gt":50}}"#)))
        #expect(request.queryJSON("where") == (try json(#"{"score":{"$gt":0}}"#)))
        #expect(rows.first?["_sumScore"]?.intValue == 60)
        #expect(rows.first?["playerName"]?.stringValue == "Sean")
    }

    @Test("a find does not send the statistics")
    func findWithout() async throws {
        let transport = RecordingTransport(json: [#"{"results":[]}"#])
        let query = LCQuery(application: try makeApplication(transport), className: "GameScore")
        query.sum(keys: ["score"])
        _ = try await query.find()
        #expect(transport.requests.first?.query["sum"] == nil)
    }
}
