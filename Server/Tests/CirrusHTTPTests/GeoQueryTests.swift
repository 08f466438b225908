import CirrusModel
import CirrusTesting
import Testing

/// Geo queries over HTTP in every dialect: `$nearSphere` with distances and nearest-first order, Bmob's
/// 100 km default, `$within` `$box`, `$geoWithin` `$polygon` and `$centerSphere`, and geo inside `$or`.
@Suite("Geo queries in each dialect")
struct GeoQueryTests {
    static func geo(_ latitude: Double, _ longitude: Double) -> JSON {
        ["__type": "GeoPoint", "latitude": .double(latitude), "longitude": .double(longitude)]
    }

    /// Places due north of (40, -30), created far ones first: a at it, b 5 km, c 50 km, d 150 km, e 500 km;
    /// and z without a location.
    static func seed(_ client: TestClient, _ endpoint: Endpoint) async throws {
        let places: [(String, JSON?)] = [
            ("e", geo(44.497, -30)), ("b", geo(40.045, -30)), ("z", nil), ("d", geo(41.349, -30)), ("a", geo(40, -30)), ("c", geo(40.45, -30)),
        ]
        for (name, location) in places {
            var body: [String: JSON] = ["name": .string(name)]
            if let location { body["location"] = location }
            _ = try await client.create(endpoint, "Place", .object(body))
        }
    }

    static func names(_ reply: TestReply) -> [String] {
        (reply.json["results"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
    }

    static func near(_ extra: [String: JSON] = [:]) -> JSON {
        var members: [String: JSON] = ["$nearSphere": geo(40, -30)]
        members.merge(extra) { $1 }
        return ["location": .object(members)]
    }

    static func find(_ client: TestClient, _ endpoint: Endpoint, _ condition: JSON, _ parameters: String = "") async throws -> TestReply {
        try await client.request(endpoint, .get, "/classes/Place?" + URLQuery.whereClause(condition) + parameters)
    }

    @Test("$nearSphere returns the nearest first; Bmob stops at 100 km when no maximum is given", arguments: Endpoint.dialects)
    func nearestFirst(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            try await Self.seed(client, endpoint)
            let reply = try await Self.find(client, endpoint, Self.near())
            #expect(reply.status == 200, "\(reply.bodyText)")
            #expect(Self.names(reply) == (endpoint.isBmob ? ["a", "b", "c"] : ["a", "b", "c", "d", "e"]))
            let limited = try await Self.find(client, endpoint, Self.near(), "&limit=2")
            #expect(Self.names(limited) == ["a", "b"])
        }
    }

    @Test("the maximum distance may be given in kilometres, miles or radians, and overrides Bmob's default", arguments: Endpoint.dialects)
    func maximumDistances(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            try await Self.seed(client, endpoint)
            let cases: [(JSON, [String])] = [
                (Self.near(["$maxDistanceInKilometers": 60]), ["a", "b", "c"]),
                (Self.near(["$maxDistanceInKilometers": 200]), ["a", "b", "c", "d"]),
                (Self.near(["$maxDistanceInMiles": 4]), ["a", "b"]),
                (Self.near(["$maxDistanceInRadians": 0.1]), ["a", "b", "c", "d", "e"]),
                (Self.near(["$maxDistance": 0.001]), ["a", "b"]),
                (Self.near(["$minDistanceInKilometers": 10, "$maxDistanceInKilometers": 1000]), ["c", "d", "e"]),
            ]
            for (condition, expected) in cases {
                let reply = try await Self.find(client, endpoint, condition)
                #expect(reply.status == 200, "\(reply.bodyText)")
                #expect(Self.names(reply) == expected, "\(JSONWriter.string(condition))")
            }
        }
    }

    @Test("an explicit order wins over the distance order", arguments: Endpoint.dialects)
    func explicitOrder(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            try await Self.seed(client, endpoint)
            let condition = Self.near(["$maxDistanceInKilometers": 1000])
            #expect(Self.names(try await Self.find(client, endpoint, condition, "&order=-name")) == ["e", "d", "c", "b", "a"])
            #expect(Self.names(try await Self.find(client, endpoint, condition, "&order=createdAt")) == ["e", "b", "d", "a", "c"])
        }
    }

    @Test("$within $box, $geoWithin $polygon and $centerSphere select the points inside", arguments: Endpoint.dialects)
    func shapes(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            try await Self.seed(client, endpoint)
            let cases: [(JSON, [String])] = [
                (["location": ["$within": ["$box": [Self.geo(39.9, -30.1), Self.geo(40.5, -29.9)]]]], ["a", "b", "c"]),
                (["location": ["$within": ["$box": [[-31, 41], [-29, 45]]]]], ["d", "e"]),
                (["location": ["$geoWithin": ["$polygon": [Self.geo(39.5, -31), Self.geo(40.2, -31), Self.geo(40.2, -29), Self.geo(39.5, -29)]]]], ["a", "b"]),
                (["location": ["$geoWithin": ["$polygon": [[-31, 40.3], [-29, 40.3], [-30, 42]]]]], ["c", "d"]),
                (["location": ["$geoWithin": ["$centerSphere": [[-30, 40], .double(100 / Condition.earthRadiusKilometers)]]]], ["a", "b", "c"]),
            ]
            for (condition, expected) in cases {
                let reply = try await Self.find(client, endpoint, condition, "&order=name")
                #expect(reply.status == 200, "\(reply.bodyText)")
                #expect(Self.names(reply) == expected, "\(JSONWriter.string(condition))")
            }
        }
    }

    @Test("a field that is not a GeoPoint never matches a geo condition", arguments: Endpoint.dialects)
    func notGeoPoint(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            _ = try await client.create(endpoint, "Spot", ["name": "object", "location": ["latitude": 40, "longitude": -30]])
            let near = try await client.request(endpoint, .get, "/classes/Spot?" + URLQuery.whereClause(Self.near(["$maxDistanceInRadians": 1])))
            #expect(near.status == 200, "\(near.bodyText)")
            #expect(Self.names(near) == [])
            let box = try await client.request(endpoint, .get, "/classes/Spot?" + URLQuery.whereClause(["location": ["$within": ["$box": [[-31, 39], [-29, 41]]]]]))
            #expect(Self.names(box) == [])
        }
    }

    @Test("geo conditions inside $or or $and are refused with the dialect's invalid-query error", arguments: Endpoint.dialects)
    func refusedInsideCompounds(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            try await Self.seed(client, endpoint)
            let expectedCode: Int64 = endpoint.dialect == .leancloud ? 1 : 102
            for condition: JSON in [["$or": [Self.near(), ["name": "z"]]], ["$and": [Self.near()]]] {
                let reply = try await Self.find(client, endpoint, condition)
                #expect(reply.status == 400, "\(reply.bodyText)")
                #expect(reply.json["code"]?.intValue == expectedCode, "\(reply.bodyText)")
            }
        }
    }
}
