import CirrusModel
import CirrusTesting
import Testing

/// A field value and how a dialect writes it back, when that differs from what was sent.
struct TypedValue: Sendable, CustomTestStringConvertible {
    let name: String
    let sent: JSON
    /// What Bmob answers, when it differs (its dates).
    var bmob: JSON?

    var testDescription: String { name }
}

@Suite("Every data type round-trips exactly through each dialect")
struct DataTypeTests {
    static let values: [TypedValue] = [
        TypedValue(name: "string", sent: "héllo \"wörld\"\n\t\\ 😀 \u{0001}"),
        TypedValue(name: "empty string", sent: ""),
        TypedValue(name: "integer", sent: 42),
        TypedValue(name: "negative integer", sent: -7),
        TypedValue(name: "zero", sent: 0),
        TypedValue(name: "integer beyond 2^53", sent: .int(9_007_199_254_740_993)),
        TypedValue(name: "largest integer", sent: .int(Int64.max)),
        TypedValue(name: "fraction", sent: 3.25),
        TypedValue(name: "tiny double", sent: 1.0e-300),
        TypedValue(name: "huge double", sent: 1.7976931348623157e308),
        TypedValue(name: "true", sent: true),
        TypedValue(name: "false", sent: false),
        TypedValue(name: "null", sent: nil),
        TypedValue(name: "nested object", sent: ["a": ["b": [1, 2, ["c": nil]]], "d": "e", "f": 1.5]),
        TypedValue(name: "empty object", sent: [:]),
        TypedValue(name: "array of mixed values", sent: [1, "two", 3.5, false, nil, ["k": "v"], [1, [2]]]),
        TypedValue(name: "empty array", sent: []),
        TypedValue(
            name: "Date", sent: ["__type": "Date", "iso": "2015-06-21T18:02:52.249Z"],
            bmob: ["__type": "Date", "iso": "2015-06-22 02:02:52"]
        ),
        TypedValue(name: "Bytes", sent: ["__type": "Bytes", "base64": "VGhlIHF1aWNrIGJyb3duIGZveC4="]),
        TypedValue(name: "Pointer", sent: ["__type": "Pointer", "className": "Post", "objectId": "558e20cbe4b060308e3eb36c"]),
        TypedValue(name: "Pointer to a system class", sent: ["__type": "Pointer", "className": "_User", "objectId": "5d8308029c9235000886c4cf"]),
        TypedValue(name: "LeanCloud File", sent: ["__type": "File", "id": "5d8308029c9235000886c4cf"]),
        TypedValue(
            name: "Parse File", sent: ["__type": "File", "name": "tfss-a.txt", "url": "http://files.example.com/tfss-a.txt"],
            bmob: ["__type": "File", "filename": "tfss-a.txt", "url": "http://files.example.com/tfss-a.txt"]
        ),
        TypedValue(
            name: "LeanCloud File with metadata",
            sent: ["__type": "File", "id": "5d8308029c9235000886c4cf", "name": "a.png", "url": "http://f.example.com/a.png", "mime_type": "image/png", "metaData": ["size": 10]],
            bmob: ["__type": "File", "id": "5d8308029c9235000886c4cf", "filename": "a.png", "url": "http://f.example.com/a.png", "mime_type": "image/png", "metaData": ["size": 10]]
        ),
        TypedValue(name: "GeoPoint", sent: ["__type": "GeoPoint", "latitude": 39.9, "longitude": 116.4]),
        TypedValue(name: "Relation descriptor", sent: ["__type": "Relation", "className": "Post"]),
        TypedValue(name: "GeoPoint at the limits", sent: ["__type": "GeoPoint", "latitude": -90.0, "longitude": 180.0]),
        TypedValue(
            name: "array of typed values",
            sent: [["__type": "Date", "iso": "2020-01-01T00:00:00.000Z"], ["__type": "Pointer", "className": "Post", "objectId": "abc"]],
            bmob: [["__type": "Date", "iso": "2020-01-01 08:00:00"], ["__type": "Pointer", "className": "Post", "objectId": "abc"]]
        ),
        TypedValue(
            name: "object holding typed values",
            sent: ["when": ["__type": "Date", "iso": "2020-01-01T00:00:00.000Z"], "bytes": ["__type": "Bytes", "base64": "AAE="]],
            bmob: ["when": ["__type": "Date", "iso": "2020-01-01 08:00:00"], "bytes": ["__type": "Bytes", "base64": "AAE="]]
        ),
    ]

    static let cases: [(Endpoint, TypedValue)] = Endpoint.all.flatMap { endpoint in values.map { (endpoint, $0) } }

    @Test("a value saved through a dialect comes back identical through it", arguments: cases)
    func roundTrip(_ endpoint: Endpoint, _ value: TypedValue) async throws {
        try await TestServer.with { client in
            let id = try await client.create(endpoint, "Typed", ["value": value.sent])
            let expected = endpoint.isBmob ? (value.bmob ?? value.sent) : value.sent
            let fetched = try await client.fetch(endpoint, "Typed", id)
            #expect(fetched.json["value"] == expected)
            let found = try await client.request(endpoint, .get, "/classes/Typed")
            #expect(found.json["results"]?[0]?["value"] == expected)
            let updatedId = try await client.create(endpoint, "Typed", ["other": 1])
            let updated = try await client.request(endpoint, .put, "/classes/Typed/\(updatedId)", json: ["value": value.sent])
            #expect(updated.status == 200, "\(updated.bodyText)")
            #expect(try await client.fetch(endpoint, "Typed", updatedId).json["value"] == expected)
        }
    }

    @Test("integers stay integers on the wire, fractions stay fractions", arguments: Endpoint.dialects)
    func numberText(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let fields: JSON = ["i": 1, "f": 1.5, "big": .int(9_007_199_254_740_993), "huge": .double(1e308), "large": .double(1e20)]
            let id = try await client.create(endpoint, "Numbers", fields)
            let text = try await client.fetch(endpoint, "Numbers", id).bodyText
            #expect(text.contains("\"i\":1,") || text.contains("\"i\":1}"))
            #expect(text.contains("\"f\":1.5"))
            #expect(text.contains("\"big\":9007199254740993"))
            // Doubles beyond 64-bit integers stay doubles (PostgreSQL's jsonb writes them as long integers).
            #expect(text.contains("\"huge\":1e+308"), "\(text)")
            #expect(text.contains("\"large\":1e+20"), "\(text)")
            let incremented = try await client.request(endpoint, .put, "/classes/Numbers/\(id)", json: ["i": ["__op": "Increment", "amount": 2]])
            #expect(incremented.status == 200)
            #expect(try await client.fetch(endpoint, "Numbers", id).json["i"] == 3)
        }
    }

    @Test("a value saved through one dialect reads back in every other")
    func crossDialect() async throws {
        try await TestServer.with { client in
            let fields: JSON = [
                "s": "x", "n": 1, "d": ["__type": "Date", "iso": "2015-06-21T18:02:52.249Z"],
                "p": ["__type": "Pointer", "className": "Post", "objectId": "abc"],
            ]
            let id = try await client.create(.leancloud, "Shared", fields)
            for endpoint in Endpoint.all {
                let fetched = try await client.fetch(endpoint, "Shared", id)
                #expect(fetched.json["s"] == "x")
                #expect(fetched.json["n"] == 1)
                #expect(fetched.json["p"] == fields["p"])
                #expect(fetched.json["d"]?["iso"] == (endpoint.isBmob ? "2015-06-22 02:02:52" : "2015-06-21T18:02:52.249Z"))
            }
        }
    }

    @Test("Bmob's File with group and filename round-trips through Bmob and reads as name elsewhere")
    func bmobFile() async throws {
        try await TestServer.with { client in
            let file: JSON = ["__type": "File", "group": "group1", "filename": "1.xml", "url": "M00/01/14/sd2lkds0.xml"]
            let id = try await client.create(.bmob, "Typed", ["file": file])
            #expect(try await client.fetch(.bmob, "Typed", id).json["file"] == file)
            let leancloud: JSON = ["__type": "File", "group": "group1", "name": "1.xml", "url": "M00/01/14/sd2lkds0.xml"]
            #expect(try await client.fetch(.leancloud, "Typed", id).json["file"] == leancloud)
            let found = try await client.request(.bmob, .get, "/classes/Typed?" + URLQuery.whereClause(["file": file]))
            #expect(found.json["results"]?.arrayValue?.count == 1)
        }
    }
}
