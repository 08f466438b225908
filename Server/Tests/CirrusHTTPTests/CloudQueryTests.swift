import CirrusModel
import CirrusTesting
import Testing

/// `GET /1.1/cloudQuery` (CQL) and Bmob's `GET /1/cloudQuery` (BQL).
@Suite("CQL and BQL over HTTP")
struct CloudQueryTests {
    /// a 10 Paris, b 20 Lyon, c 30 Paris, d 20 Nice, e 50 Lyon.
    static func seed(_ client: TestClient, _ endpoint: Endpoint = .leancloud) async throws {
        let rows: [(String, Int64, String)] = [("a", 10, "Paris"), ("b", 20, "Lyon"), ("c", 30, "Paris"), ("d", 20, "Nice"), ("e", 50, "Lyon")]
        for (name, score, city) in rows {
            _ = try await client.create(endpoint, "Score", ["name": .string(name), "score": .int(score), "city": .string(city)])
        }
    }

    static func cql(_ client: TestClient, _ statement: String, pvalues: String? = nil, _ endpoint: Endpoint = .leancloud) async throws -> TestReply {
        let parameter = endpoint.dialect == .bmob ? "bql" : "cql"
        var path = "/cloudQuery?\(parameter)=" + URLQuery.encode(statement)
        if let pvalues { path += (endpoint.dialect == .bmob ? "&values=" : "&pvalues=") + URLQuery.encode(pvalues) }
        return try await client.request(endpoint, .get, path)
    }

    static func names(_ reply: TestReply) -> [String] {
        (reply.json["results"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
    }

    @Test("select with keys, where, limit and order answers results and className")
    func select() async throws {
        try await TestServer.with { client in
            try await Self.seed(client)
            let reply = try await Self.cql(client, "select name from Score where score >= 20 limit 1, 2 order by -score, name")
            #expect(reply.status == 200, "\(reply.bodyText)")
            #expect(reply.keys == ["className", "results"])
            #expect(reply.json["className"] == "Score")
            #expect(Self.names(reply) == ["c", "b"])
            let first = try #require(reply.json["results"]?.arrayValue?.first?.objectValue)
            #expect(Set(first.keys) == ["name", "objectId", "createdAt", "updatedAt"])
        }
    }

    @Test("a form-encoded statement reads + as a space and %2B as a plus")
    func formEncoded() async throws {
        try await TestServer.with { client in
            try await Self.seed(client)
            let reply = try await client.request(.leancloud, .get, "/cloudQuery?cql=select+*+from+Score+where+score+%3E+15+order+by+%2Bname&pvalues=%5B%5D")
            #expect(reply.status == 200, "\(reply.bodyText)")
            #expect(Self.names(reply) == ["b", "c", "d", "e"])
        }
    }

    @Test("count(*) adds count; alone it returns no objects")
    func count() async throws {
        try await TestServer.with { client in
            try await Self.seed(client)
            let both = try await Self.cql(client, "select count(*), * from Score where score < 30")
            #expect(both.json["count"] == 3)
            #expect(both.json["results"]?.arrayValue?.count == 3)
            let only = try await Self.cql(client, "select count(objectId) from Score where city = 'Lyon'")
            #expect(only.json["count"] == 2)
            #expect(only.json["results"] == [])
        }
    }

    @Test("pvalues fill the placeholders, also when a client double-encodes the array")
    func placeholders() async throws {
        try await TestServer.with { client in
            try await Self.seed(client)
            let statement = "select * from Score where city = ? and score > ? order by name"
            let plain = try await Self.cql(client, statement, pvalues: #"["Paris", 15]"#)
            #expect(Self.names(plain) == ["c"])
            let doubled = try await Self.cql(client, statement, pvalues: #""[\"Lyon\", 15]""#)
            #expect(Self.names(doubled) == ["b", "e"])
            let limited = try await Self.cql(client, "select * from Score limit ? order by name", pvalues: "[2]")
            #expect(Self.names(limited) == ["a", "b"])
        }
    }

    @Test("like, regexp, in, exists and not filter in SQL")
    func predicates() async throws {
        try await TestServer.with { client in
            try await Self.seed(client)
            let cases: [(String, [String])] = [
                ("city like 'P%'", ["a", "c"]), ("city not like '%on'", ["a", "c", "d"]), ("city regexp '^N'", ["d"]),
                ("name in ('a', 'e')", ["a", "e"]), ("name not in ('a', 'e')", ["b", "c", "d"]), ("missing is not exists and score = 20", ["b", "d"]),
                ("not (score > 10) or name = 'e'", ["a", "e"]), ("(score = 10 or score = 50) and city = 'Lyon'", ["e"]),
            ]
            for (whereText, expected) in cases {
                let reply = try await Self.cql(client, "select * from Score where \(whereText) order by name")
                #expect(Self.names(reply) == expected, "\(whereText): \(reply.bodyText)")
            }
        }
    }

    @Test("include expands pointers, and a sub-select matches pointers to the objects it finds")
    func includeAndSubSelect() async throws {
        try await TestServer.with { client in
            let ann = try await client.create(.leancloud, "Author", ["name": "Ann"])
            let bob = try await client.create(.leancloud, "Author", ["name": "Bob"])
            for (title, author) in [("one", ann), ("two", bob)] {
                _ = try await client.create(.leancloud, "Post", ["title": .string(title), "author": ["__type": "Pointer", "className": "Author", "objectId": .string(author)]])
            }
            let included = try await Self.cql(client, "select include author, * from Post where author = pointer('Author', ?)", pvalues: "[\"\(ann)\"]")
            #expect(included.json["results"]?.arrayValue?.first?["author"]?["name"] == "Ann", "\(included.bodyText)")
            let sub = try await Self.cql(client, "select title from Post where author in (select * from Author where name = 'Bob')")
            #expect((sub.json["results"]?.arrayValue ?? []).compactMap { $0["title"]?.stringValue } == ["two"], "\(sub.bodyText)")
        }
    }

    @Test("near finds points nearest first within the distance")
    func near() async throws {
        try await TestServer.with { client in
            for (name, longitude, latitude) in [("far", 120.0, 30.0), ("near", 116.41, 39.91), ("here", 116.4, 39.9)] {
                _ = try await client.create(.leancloud, "Place", ["name": .string(name), "loc": ["__type": "GeoPoint", "latitude": .double(latitude), "longitude": .double(longitude)]])
            }
            let reply = try await Self.cql(client, "select * from Place where loc near geopoint(116.4, 39.9) max 10 km")
            #expect(Self.names(reply) == ["here", "near"], "\(reply.bodyText)")
        }
    }

    @Test("insert creates every row; update applies op(); delete removes the object")
    func writes() async throws {
        try await TestServer.with { client in
            let inserted = try await Self.cql(client, "insert into Todo(title, n) values ('x', 1), (?, 2)", pvalues: #"["y"]"#)
            #expect(inserted.status == 200, "\(inserted.bodyText)")
            #expect(inserted.json["className"] == "Todo")
            let ids = (inserted.json["results"]?.arrayValue ?? []).compactMap { $0["objectId"]?.stringValue }
            #expect(ids.count == 2)
            #expect(WireFormat.matches(inserted.json["results"]?[0]?["createdAt"]?.stringValue, WireFormat.iso))
            let id = try #require(ids.first)

            let updated = try await Self.cql(client, "update Todo set n = op('Increment', {'amount': 5}), title = 'z' where objectId = ?", pvalues: "[\"\(id)\"]")
            #expect(updated.json["results"]?[0]?["objectId"]?.stringValue == id, "\(updated.bodyText)")
            let fetched = try await client.fetch(.leancloud, "Todo", id)
            #expect(fetched.json["n"] == 6)
            #expect(fetched.json["title"] == "z")

            let unmatched = try await Self.cql(client, "update Todo set n = 0 where objectId = '\(id)' and n = 1")
            #expect(unmatched.status == 400)
            #expect(unmatched.code == 305)

            let deleted = try await Self.cql(client, "delete from Todo where objectId = '\(id)'")
            #expect(deleted.status == 200)
            #expect(deleted.json["results"] == [])
            let count = try await Self.cql(client, "select count(*) from Todo")
            #expect(count.json["count"] == 1)
        }
    }

    @Test("a syntax error is 400 with code 300 and LeanCloud's report")
    func syntaxError() async throws {
        try await TestServer.with { client in
            let reply = try await Self.cql(client, "select * GameScore limit 10")
            #expect(reply.status == 400)
            #expect(reply.code == 300)
            #expect(reply.json["error"]?.stringValue == "CQL syntax error.Detail: Parse error at line 1, column 10:\nselect * GameScore limit 10\n         ^\nExpected one of:\nfrom\n,\n")
            let missing = try await Self.cql(client, "select * from C where a = ?")
            #expect(missing.code == 300)
            #expect(missing.json["error"]?.stringValue?.contains("line 1, column 27") == true)
        }
    }

    @Test("pvalues that are not a JSON array are refused with 107", arguments: ["[1", "{\"a\":1}", "\"x\""])
    func badValues(_ pvalues: String) async throws {
        try await TestServer.with { client in
            let reply = try await Self.cql(client, "select * from C where a = ?", pvalues: pvalues)
            #expect(reply.status == 400)
            #expect(reply.code == 107)
        }
    }

    @Test("a request without cql is refused")
    func missingStatement() async throws {
        try await TestServer.with { client in
            let reply = try await client.request(.leancloud, .get, "/cloudQuery")
            #expect(reply.status == 400)
        }
    }

    @Test("BQL on Bmob: values, Bmob dates and no className")
    func bmobSelect() async throws {
        try await TestServer.with { client in
            try await Self.seed(client, .bmob)
            let reply = try await Self.cql(client, "select * from Score where city = ? limit ?, ? order by name", pvalues: #"["Paris", 0, 10]"#, .bmob)
            #expect(reply.status == 200, "\(reply.bodyText)")
            #expect(reply.keys == ["results"])
            #expect(Self.names(reply) == ["a", "c"])
            #expect(WireFormat.matches(reply.json["results"]?[0]?["createdAt"]?.stringValue, WireFormat.spaced))
            let count = try await Self.cql(client, "select count(*) from Score where createdAt > date(?)", pvalues: #"["2000-01-01 00:00:00"]"#, .bmob)
            #expect(count.json["count"] == 5)
        }
    }

    @Test("BQL statistics: group by, sum, groupcount, having and order on result keys")
    func bmobStatistics() async throws {
        try await TestServer.with { client in
            try await Self.seed(client, .bmob)
            let reply = try await Self.cql(
                client, "select city, sum(score), groupcount from Score where score > ? group by city having _sumScore > 20 order by -_sumScore", pvalues: "[5]", .bmob
            )
            #expect(reply.status == 200, "\(reply.bodyText)")
            #expect(reply.json["results"] == [["city": "Lyon", "_sumScore": 70, "_count": 2], ["city": "Paris", "_sumScore": 40, "_count": 2]])
        }
    }

    @Test("BQL errors are code 601; BQL-only syntax on the LeanCloud path is a CQL error")
    func bmobErrors() async throws {
        try await TestServer.with { client in
            let reply = try await Self.cql(client, "select * Score", .bmob)
            #expect(reply.status == 400)
            #expect(reply.code == 601)
            #expect(reply.json["error"]?.stringValue?.hasPrefix("BQL syntax error.Detail: Parse error at line 1, column 10") == true)
            let having = try await Self.cql(client, "select sum(score) from Score group by city having _sumScore > ?", pvalues: "[1]", .bmob)
            #expect(having.code == 601)
            let cql = try await Self.cql(client, "select sum(score) from Score group by city")
            #expect(cql.code == 300)
        }
    }
}
