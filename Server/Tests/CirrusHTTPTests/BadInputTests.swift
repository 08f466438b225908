import CirrusModel
import CirrusTesting
import Foundation
import Testing

/// The error codes one kind of bad input gets in LeanCloud, Parse and Bmob.
struct Codes: Sendable {
    let leancloud: Int64
    let parse: Int64
    let bmob: Int64

    func code(_ dialect: Dialect) -> Int64 {
        switch dialect {
        case .leancloud: leancloud
        case .parse: parse
        case .bmob: bmob
        }
    }

    static let invalidJSON = Codes(leancloud: 107, parse: 107, bmob: 107)
    static let className = Codes(leancloud: 103, parse: 103, bmob: 103)
    static let keyName = Codes(leancloud: 105, parse: 105, bmob: 105)
    static let nestedKey = Codes(leancloud: 121, parse: 121, bmob: 105)
    static let pointer = Codes(leancloud: 106, parse: 106, bmob: 106)
    static let geoPoint = Codes(leancloud: 302, parse: 107, bmob: 117)
    static let incorrectType = Codes(leancloud: 111, parse: 111, bmob: 111)
    static let tooLarge = Codes(leancloud: 116, parse: 116, bmob: 107)
    static let invalidParameter = Codes(leancloud: 1, parse: 107, bmob: 118)
    static let invalidACL = Codes(leancloud: 123, parse: 123, bmob: 107)
    static let objectId = Codes(leancloud: 104, parse: 104, bmob: 103)
}

/// A request that must fail with 400 and the given codes, and must not write anything.
struct BadRequest: Sendable, CustomTestStringConvertible {
    let name: String
    let method: HTTPRequest.Method
    /// Below the dialect prefix; `{id}` stands for an existing object of class `Bad`.
    let path: String
    let body: String?
    let codes: Codes

    var testDescription: String { name }

    static func create(_ name: String, _ body: String, _ codes: Codes, className: String = "Bad") -> BadRequest {
        BadRequest(name: name, method: .post, path: "/classes/\(className)", body: body, codes: codes)
    }

    static func update(_ name: String, _ body: String, _ codes: Codes, query: String = "") -> BadRequest {
        BadRequest(name: name, method: .put, path: "/classes/Bad/{id}" + query, body: body, codes: codes)
    }
}

@Suite("Bad input is refused with the dialect's code and changes nothing")
struct BadInputTests {
    static let requests: [BadRequest] = [
        .create("malformed JSON", #"{"a":"#, .invalidJSON),
        .create("JSON with trailing garbage", #"{"a":1} x"#, .invalidJSON),
        .create("an array body", "[1,2]", .invalidJSON),
        .create("a string body", #""text""#, .invalidJSON),
        .create("a number body", "42", .invalidJSON),
        .create("an empty body", "", .invalidJSON),
        .update("malformed JSON on update", "{", .invalidJSON),
        .update("an array body on update", "[]", .invalidJSON),
        .update("an empty body on update", "", .invalidJSON),
        .create("a class name starting with a digit", #"{"a":1}"#, .className, className: "1Bad"),
        .create("a class name with a dash", #"{"a":1}"#, .className, className: "Bad-Name"),
        .create("an unknown system class", #"{"a":1}"#, .className, className: "_Private"),
        .create("a class name over 128 characters", #"{"a":1}"#, .className, className: "C" + String(repeating: "x", count: 128)),
        .create("a key starting with a digit", #"{"1abc":1}"#, .keyName),
        .create("a key with a dash", #"{"a-b":1}"#, .keyName),
        .create("a key with a space", #"{"a b":1}"#, .keyName),
        .create("a non-ASCII key", #"{"ключ":1}"#, .keyName),
        .create("an empty key", #"{"":1}"#, .keyName),
        .create("a key starting with $", #"{"$set":1}"#, .keyName),
        .create("a dotted key on create", #"{"a.b":1}"#, .keyName),
        .create("objectid in lower case", #"{"objectid":"x"}"#, .keyName),
        .create("OBJECTID in upper case", #"{"OBJECTID":"x"}"#, .keyName),
        .create("createdat in lower case", #"{"createdat":"x"}"#, .keyName),
        .create("UpdatedAt capitalised", #"{"UpdatedAt":"x"}"#, .keyName),
        .create("acl in lower case", #"{"acl":{}}"#, .keyName),
        .create("Acl capitalised", #"{"Acl":{}}"#, .keyName),
        .create("aCL mixed case", #"{"aCL":{}}"#, .keyName),
        .create("classname in lower case", #"{"classname":"x"}"#, .keyName),
        .create("a top-level __ key", #"{"__type":"x"}"#, .keyName),
        .create("a top-level __op key", #"{"__op":"Delete"}"#, .keyName),
        .update("a reserved key on update", #"{"objectid":"x"}"#, .keyName),
        .update("a sub-path of a reserved key", #"{"ACL.foo":1}"#, .keyName),
        .create("$ in a nested key", #"{"a":{"$b":1}}"#, .nestedKey),
        .create(". in a nested key", #"{"a":{"b.c":1}}"#, .nestedKey),
        .create("__ prefix in a nested key", #"{"a":{"__b":1}}"#, .nestedKey),
        .create("$ in a key inside an array", #"{"a":[{"ok":{"$b":1}}]}"#, .nestedKey),
        .update("$ in a nested key on update", #"{"a":{"x$":1}}"#, .nestedKey),
        .update("$ in a nested key added by Add", #"{"list":{"__op":"Add","objects":[{"$b":1}]}}"#, .nestedKey),
        .create("a pointer without objectId", #"{"p":{"__type":"Pointer","className":"Post"}}"#, .pointer),
        .create("a pointer without className", #"{"p":{"__type":"Pointer","objectId":"abc"}}"#, .pointer),
        .create("a pointer to an invalid class", #"{"p":{"__type":"Pointer","className":"1Post","objectId":"abc"}}"#, .pointer),
        .create("a pointer with an invalid objectId", #"{"p":{"__type":"Pointer","className":"Post","objectId":"a/b"}}"#, .pointer),
        .create("a pointer with a numeric objectId", #"{"p":{"__type":"Pointer","className":"Post","objectId":12}}"#, .pointer),
        .create("AddRelation with a non-pointer", #"{"r":{"__op":"AddRelation","objects":[1]}}"#, .pointer),
        .create("latitude over 90", #"{"g":{"__type":"GeoPoint","latitude":90.5,"longitude":0}}"#, .geoPoint),
        .create("latitude under -90", #"{"g":{"__type":"GeoPoint","latitude":-91,"longitude":0}}"#, .geoPoint),
        .create("longitude over 180", #"{"g":{"__type":"GeoPoint","latitude":0,"longitude":180.1}}"#, .geoPoint),
        .create("longitude under -180", #"{"g":{"__type":"GeoPoint","latitude":0,"longitude":-181}}"#, .geoPoint),
        .create("a GeoPoint without numbers", #"{"g":{"__type":"GeoPoint","latitude":"0","longitude":0}}"#, .geoPoint),
        .create("two GeoPoint fields in one object", #"{"g1":{"__type":"GeoPoint","latitude":1,"longitude":1},"g2":{"__type":"GeoPoint","latitude":2,"longitude":2}}"#, .incorrectType),
        .create("a second GeoPoint field in the class", #"{"other":{"__type":"GeoPoint","latitude":1,"longitude":1}}"#, .incorrectType),
        .create("a string where the class has a number", #"{"score":"high"}"#, .incorrectType),
        .create("a Date where the class has a string", #"{"name":{"__type":"Date","iso":"2020-01-01T00:00:00.000Z"}}"#, .incorrectType),
        .create("a pointer to another class than recorded", #"{"owner":{"__type":"Pointer","className":"Other","objectId":"abc"}}"#, .incorrectType),
        .update("a string where the class has a number, on update", #"{"score":"high"}"#, .incorrectType),
        .update("Increment on a string field", #"{"name":{"__op":"Increment","amount":1}}"#, .incorrectType),
        .update("Add on a number field", #"{"score":{"__op":"Add","objects":[1]}}"#, .incorrectType),
        .update("a sub-path into a number field", #"{"score.x":1}"#, .incorrectType),
        .create("a Date with a malformed iso", #"{"d":{"__type":"Date","iso":"yesterday"}}"#, .incorrectType),
        .create("Bytes that are not base64", #"{"b":{"__type":"Bytes","base64":"***"}}"#, .incorrectType),
        .create("an unknown __type", #"{"x":{"__type":"Polygon2"}}"#, .incorrectType),
        .create("an unknown __op", #"{"x":{"__op":"Explode"}}"#, .invalidParameter),
        .update("an unknown __op on update", #"{"score":{"__op":"Multiply","amount":2}}"#, .invalidParameter),
        .update("Increment with a string amount", #"{"score":{"__op":"Increment","amount":"2"}}"#, .invalidParameter),
        .update("BitOr with a fraction", #"{"score":{"__op":"BitOr","value":1.5}}"#, .invalidParameter),
        .update("Add without objects", #"{"list":{"__op":"Add"}}"#, .invalidParameter),
        .update("a key and its sub-path together", #"{"meta":{"a":1},"meta.a":2}"#, .invalidParameter),
        .update("an array and one of its elements together", #"{"list":[1],"list.0":2}"#, .invalidParameter),
        .update("malformed where JSON", #"{"score":2}"#, .invalidJSON, query: "?where=%7Bbad"),
        .create("an ACL that is not an object", #"{"ACL":"public"}"#, .invalidACL),
        .create("an ACL with a non-boolean permission", #"{"ACL":{"*":{"read":"yes"}}}"#, .invalidACL),
        BadRequest(name: "an invalid objectId in the path", method: .put, path: "/classes/Bad/a$b", body: #"{"score":2}"#, codes: .objectId),
    ]

    static let cases: [(Endpoint, BadRequest)] = Endpoint.dialects.flatMap { endpoint in requests.map { (endpoint, $0) } }

    @Test("bad input gets HTTP 400, the dialect's code and leaves the data as it was", arguments: cases)
    func refused(_ endpoint: Endpoint, _ request: BadRequest) async throws {
        try await TestServer.with { client in
            let seed: JSON = [
                "score": 1, "name": "n", "meta": ["a": 0], "list": [1],
                "owner": ["__type": "Pointer", "className": "Person", "objectId": "abc"],
                "where": ["__type": "GeoPoint", "latitude": 0, "longitude": 0],
            ]
            let id = try await client.create(endpoint, "Bad", seed)
            let before = try await client.fetch(.leancloud, "Bad", id)
            let path = request.path.replacingOccurrences(of: "{id}", with: id)
            let reply = try await client.request(endpoint, request.method, path, body: request.body)
            #expect(reply.status == 400, "\(reply.bodyText)")
            #expect(reply.code == request.codes.code(endpoint.dialect), "\(reply.bodyText)")
            #expect(reply.json["error"]?.stringValue?.isEmpty == false)
            let after = try await client.fetch(.leancloud, "Bad", id)
            #expect(after.json == before.json)
            let count = try await client.request(.leancloud, .get, "/classes/Bad?count=1&limit=0")
            #expect(count.json["count"] == 1)
        }
    }

    @Test("an object over the size limit is refused on create and on update (116)", arguments: Endpoint.dialects)
    func objectTooLarge(_ endpoint: Endpoint) async throws {
        try await TestServer.with(maximumObjectSize: 1024) { client in
            let big = String(repeating: "x", count: 1100)
            let created = try await client.request(endpoint, .post, "/classes/Big", json: ["text": .string(big)])
            #expect(created.status == 400)
            #expect(created.code == Codes.tooLarge.code(endpoint.dialect))
            let id = try await client.create(endpoint, "Big", ["text": "small"])
            let grown = try await client.request(endpoint, .put, "/classes/Big/\(id)", json: ["text": .string(big)])
            #expect(grown.status == 400)
            #expect(grown.code == Codes.tooLarge.code(endpoint.dialect))
            let appended = try await client.request(endpoint, .put, "/classes/Big/\(id)", json: [
                "list": ["__op": "Add", "objects": .array(Array(repeating: "abcdefghij", count: 120))],
            ])
            #expect(appended.code == Codes.tooLarge.code(endpoint.dialect), "\(appended.bodyText)")
            let fetched = try await client.fetch(.leancloud, "Big", id)
            #expect(fetched.json["text"] == "small")
            #expect(fetched.json["list"] == nil)
            let fits = try await client.request(endpoint, .put, "/classes/Big/\(id)", json: ["text": .string(String(repeating: "y", count: 900))])
            #expect(fits.status == 200)
        }
    }

    @Test("a conditional update or delete whose where does not match is 305 and changes nothing", arguments: Endpoint.dialects)
    func conditionNotMatched(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let id = try await client.create(endpoint, "GameScore", ["score": 1])
            let condition = URLQuery.whereClause(["score": -1])
            let updated = try await client.request(endpoint, .put, "/classes/GameScore/\(id)?\(condition)", json: ["score": 10000])
            #expect(updated.status == 400)
            #expect(updated.code == 305)
            if endpoint.dialect == .leancloud {
                #expect(updated.json == ["code": 305, "error": "No effect on updating/deleting a document."])
            }
            let deleted = try await client.request(endpoint, .delete, "/classes/GameScore/\(id)?\(condition)")
            #expect(deleted.status == 400)
            #expect(deleted.code == 305)
            let fetched = try await client.fetch(endpoint, "GameScore", id)
            #expect(fetched.json["score"] == 1)
            #expect(fetched.json["updatedAt"] == fetched.json["createdAt"])
        }
    }

    @Test("a conditional update or delete whose where matches goes through", arguments: Endpoint.dialects)
    func conditionMatched(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let id = try await client.create(endpoint, "GameScore", ["score": 1])
            let condition = URLQuery.whereClause(["score": ["$ne": -1]])
            let updated = try await client.request(endpoint, .put, "/classes/GameScore/\(id)?new=true&\(condition)", json: ["score": 10000])
            #expect(updated.status == 200)
            #expect(try await client.fetch(endpoint, "GameScore", id).json["score"] == 10000)
            let deleted = try await client.request(endpoint, .delete, "/classes/GameScore/\(id)?\(URLQuery.whereClause(["score": 10000]))")
            #expect(deleted.status == 200)
            #expect(try await client.request(.leancloud, .get, "/classes/GameScore?count=1&limit=0").json["count"] == 0)
        }
    }

    @Test("a query with a malformed where is 107", arguments: Endpoint.dialects)
    func badWhereInQuery(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            _ = try await client.create(endpoint, "GameScore", ["score": 1])
            let reply = try await client.request(endpoint, .get, "/classes/GameScore?where=%7Bnot-json")
            #expect(reply.status == 400)
            #expect(reply.code == 107)
        }
    }
}
