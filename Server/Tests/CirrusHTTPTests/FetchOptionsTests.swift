import CirrusModel
import CirrusTesting
import Testing

@Suite("Fetching with keys and include")
struct FetchOptionsTests {
    /// Recording Objects/Relational-Data/fetchOptions-keys: `keys=pname` keeps pname and the built-in keys.
    @Test("keys selects fields and keeps objectId, createdAt and updatedAt", arguments: Endpoint.all)
    func keysSelect(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let id = try await client.create(endpoint, "Person", ["pname": "dennis", "age": 1, "city": "Paris"])
            let reply = try await client.fetch(endpoint, "Person", id, query: "keys=pname")
            #expect(reply.keys == ["createdAt", "objectId", "pname", "updatedAt"])
            let two = try await client.fetch(endpoint, "Person", id, query: "keys=pname,age")
            #expect(two.keys == ["age", "createdAt", "objectId", "pname", "updatedAt"])
            let found = try await client.request(endpoint, .get, "/classes/Person?keys=age")
            #expect(found.json["results"]?.arrayValue?.first?.objectValue?.keys.sorted() == ["age", "createdAt", "objectId", "updatedAt"])
        }
    }

    @Test("keys=-name excludes fields and built-in keys")
    func keysExclude() async throws {
        try await TestServer.with { client in
            let id = try await client.create(.leancloud, "Person", ["pname": "dennis", "age": 1])
            let reply = try await client.fetch(.leancloud, "Person", id, query: "keys=-age,-createdAt")
            #expect(reply.keys == ["objectId", "pname", "updatedAt"])
            let parse = try await client.fetch(.parse, "Person", id, query: "excludeKeys=age")
            #expect(parse.keys == ["createdAt", "objectId", "pname", "updatedAt"])
        }
    }

    @Test("keys with dot paths select or exclude sub-fields")
    func keysDotPaths() async throws {
        try await TestServer.with { client in
            let id = try await client.create(.leancloud, "Person", ["profile": ["name": "a", "age": 3, "tags": ["x"]], "other": 1])
            let selected = try await client.fetch(.leancloud, "Person", id, query: "keys=profile.name")
            #expect(selected.keys == ["createdAt", "objectId", "profile", "updatedAt"])
            #expect(selected.json["profile"] == ["name": "a"])
            let excluded = try await client.fetch(.leancloud, "Person", id, query: "keys=-profile.age")
            #expect(excluded.json["profile"] == ["name": "a", "tags": ["x"]])
            #expect(excluded.json["other"] == 1)
        }
    }

    /// Recordings Objects/Relational-Data/should-compatible-with-previous-include-option-of-fetch and
    /// Queries/Query-Constraints/include-with-multi-params.
    @Test("include expands pointers: LeanCloud keeps __type Pointer, Parse and Bmob say Object", arguments: Endpoint.all)
    func includeShape(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let author = try await client.create(endpoint, "Person", ["name": "1", "born": ["__type": "Date", "iso": "2000-01-01T00:00:00.000Z"]])
            let pointer: JSON = ["__type": "Pointer", "className": "Person", "objectId": .string(author)]
            let id = try await client.create(endpoint, "Post", ["author1": pointer, "score": 1000])
            let plain = try await client.fetch(endpoint, "Post", id)
            #expect(plain.json["author1"] == pointer)
            let reply = try await client.fetch(endpoint, "Post", id, query: "include=author1%2C%20score")
            #expect(reply.status == 200)
            let included = try #require(reply.json["author1"])
            #expect(included["__type"] == (endpoint.dialect == .leancloud ? "Pointer" : "Object"))
            #expect(included["className"] == "Person")
            #expect(included["objectId"] == .string(author))
            #expect(included["name"] == "1")
            #expect(WireFormat.matches(included["createdAt"]?.stringValue, WireFormat.date(endpoint.dialect)))
            #expect(WireFormat.matches(included["updatedAt"]?.stringValue, WireFormat.date(endpoint.dialect)))
            let born = endpoint.isBmob ? "2000-01-01 08:00:00" : "2000-01-01T00:00:00.000Z"
            #expect(included["born"] == ["__type": "Date", "iso": .string(born)])
            #expect(reply.json["score"] == 1000)
        }
    }

    @Test("include follows dot paths through several levels")
    func includeDotPaths() async throws {
        try await TestServer.with { client in
            let department = try await client.create(.leancloud, "Department", ["title": "R&D"])
            let author = try await client.create(.leancloud, "Person", [
                "name": "a", "department": ["__type": "Pointer", "className": "Department", "objectId": .string(department)],
            ])
            let post = try await client.create(.leancloud, "Post", ["author": ["__type": "Pointer", "className": "Person", "objectId": .string(author)]])
            let comment = try await client.create(.leancloud, "Comment", ["post": ["__type": "Pointer", "className": "Post", "objectId": .string(post)]])

            let one = try await client.fetch(.leancloud, "Comment", comment, query: "include=post")
            #expect(one.json["post"]?["author"] == ["__type": "Pointer", "className": "Person", "objectId": .string(author)])
            let deep = try await client.fetch(.leancloud, "Comment", comment, query: "include=post.author.department")
            #expect(deep.json["post"]?["author"]?["name"] == "a")
            #expect(deep.json["post"]?["author"]?["department"]?["title"] == "R&D")
            #expect(deep.json["post"]?["author"]?["department"]?["__type"] == "Pointer")
            let parse = try await client.fetch(.parse, "Comment", comment, query: "include=post.author")
            #expect(parse.json["post"]?["__type"] == "Object")
            #expect(parse.json["post"]?["author"]?["__type"] == "Object")
            #expect(parse.json["post"]?["author"]?["department"]?["__type"] == "Pointer")
        }
    }

    @Test("include expands arrays of pointers and leaves missing targets as pointers")
    func includeArrays() async throws {
        try await TestServer.with { client in
            let first = try await client.create(.leancloud, "Person", ["name": "first"])
            let second = try await client.create(.leancloud, "Person", ["name": "second"])
            let missing: JSON = ["__type": "Pointer", "className": "Person", "objectId": "5d8308029c9235000886c4cf"]
            let team = try await client.create(.leancloud, "Team", [
                "members": [
                    ["__type": "Pointer", "className": "Person", "objectId": .string(first)],
                    ["__type": "Pointer", "className": "Person", "objectId": .string(second)],
                    missing, "not a pointer",
                ],
            ])
            let reply = try await client.fetch(.leancloud, "Team", team, query: "include=members")
            let members = try #require(reply.json["members"]?.arrayValue)
            #expect(members.count == 4)
            #expect(members[0]["name"] == "first")
            #expect(members[1]["name"] == "second")
            #expect(members[2] == missing)
            #expect(members[3] == "not a pointer")
            let found = try await client.request(.parse, .get, "/classes/Team?include=members")
            #expect(found.json["results"]?[0]?["members"]?[0]?["__type"] == "Object")
        }
    }

    @Test("including a key that holds no pointer is ignored", arguments: ["score", "score,test", "nothing", "score.deeper"])
    func includeNonPointer(_ include: String) async throws {
        try await TestServer.with { client in
            let test = try await client.create(.leancloud, "TestClass", ["foo": "bar"])
            _ = try await client.create(.leancloud, "GameScore", [
                "score": 1000, "players": ["a", "b"], "test": ["__type": "Pointer", "className": "TestClass", "objectId": .string(test)],
            ])
            let reply = try await client.request(.leancloud, .get, "/classes/GameScore?include=\(include)")
            #expect(reply.status == 200)
            let object = try #require(reply.json["results"]?[0])
            #expect(object["score"] == 1000)
            #expect(object["players"] == ["a", "b"])
            #expect(object["test"]?["foo"] == (include.contains("test") ? "bar" : nil))
        }
    }
}

extension JSON {
    /// The element at `index` of an array, or `nil`.
    subscript(index: Int) -> JSON? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }
}
