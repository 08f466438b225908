import CirrusModel
import CirrusTesting
import Testing

@Suite("Replies to creates, fetches, updates and deletes in each dialect")
struct ObjectRepliesTests {
    @Test("a create answers 201 with a Location and {objectId, createdAt} in the dialect's formats", arguments: Endpoint.all)
    func createReply(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let reply = try await client.request(endpoint, .post, "/classes/GameScore", json: ["score": 1337, "playerName": "Sean"])
            #expect(reply.status == 201)
            #expect(reply.keys == ["createdAt", "objectId"])
            let id = try #require(reply.json["objectId"]?.stringValue)
            #expect(WireFormat.matches(id, WireFormat.objectId(endpoint.dialect)))
            #expect(WireFormat.matches(reply.json["createdAt"]?.stringValue, WireFormat.date(endpoint.dialect)))
            #expect(reply.header("Location") == "\(endpoint.prefix)/classes/GameScore/\(id)")
        }
    }

    @Test("a fetch returns the fields and the built-in keys, dates in the dialect's format", arguments: Endpoint.all)
    func fetchReply(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let id = try await client.create(endpoint, "GameScore", ["score": 1337, "playerName": "Sean"])
            let fetched = try await client.fetch(endpoint, "GameScore", id)
            #expect(fetched.status == 200)
            #expect(fetched.keys == ["createdAt", "objectId", "playerName", "score", "updatedAt"])
            #expect(fetched.json["objectId"] == .string(id))
            #expect(fetched.json["score"] == 1337)
            #expect(WireFormat.matches(fetched.json["createdAt"]?.stringValue, WireFormat.date(endpoint.dialect)))
            #expect(fetched.json["createdAt"] == fetched.json["updatedAt"])
        }
    }

    @Test("Bmob writes createdAt and updatedAt in Beijing time without a zone")
    func bmobBuiltInDates() async throws {
        try await TestServer.with { client in
            let id = try await client.create(.bmob, "Moment", ["n": 1])
            let bmob = try await client.fetch(.bmob, "Moment", id)
            let leancloud = try await client.fetch(.leancloud, "Moment", id)
            let iso = try #require(leancloud.json["createdAt"]?.stringValue)
            #expect(bmob.json["createdAt"]?.stringValue == WireFormat.beijing(iso))
            #expect(bmob.json["updatedAt"]?.stringValue == WireFormat.beijing(try #require(leancloud.json["updatedAt"]?.stringValue)))
        }
    }

    @Test("Bmob reads a Date without a zone as Beijing time and writes it back the same way")
    func bmobDateValues() async throws {
        try await TestServer.with { client in
            let id = try await client.create(.bmob, "Moment", [
                "local": ["__type": "Date", "iso": "2024-01-02 03:04:05"],
                "utc": ["__type": "Date", "iso": "2024-01-02T03:04:05.678Z"],
            ])
            let leancloud = try await client.fetch(.leancloud, "Moment", id)
            #expect(leancloud.json["local"] == ["__type": "Date", "iso": "2024-01-01T19:04:05.000Z"])
            #expect(leancloud.json["utc"] == ["__type": "Date", "iso": "2024-01-02T03:04:05.678Z"])
            let bmob = try await client.fetch(.bmob, "Moment", id)
            #expect(bmob.json["local"] == ["__type": "Date", "iso": "2024-01-02 03:04:05"])
            #expect(bmob.json["utc"] == ["__type": "Date", "iso": "2024-01-02 11:04:05"])
        }
    }

    @Test("LeanCloud and Parse read a Date without a zone as UTC")
    func zonelessDatesElsewhere() async throws {
        try await TestServer.with { client in
            for endpoint in [Endpoint.leancloud, .parse] {
                let id = try await client.create(endpoint, "Moment", ["local": ["__type": "Date", "iso": "2024-01-02 03:04:05"]])
                let fetched = try await client.fetch(endpoint, "Moment", id)
                #expect(fetched.json["local"] == ["__type": "Date", "iso": "2024-01-02T03:04:05.000Z"])
            }
        }
    }

    @Test("an update answers {updatedAt, objectId} in LeanCloud and {updatedAt} elsewhere", arguments: Endpoint.all)
    func updateReply(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let id = try await client.create(endpoint, "GameScore", ["score": 1])
            let reply = try await client.request(endpoint, .put, "/classes/GameScore/\(id)", json: ["score": 2])
            #expect(reply.status == 200)
            #expect(reply.keys == (endpoint.dialect == .leancloud ? ["objectId", "updatedAt"] : ["updatedAt"]))
            #expect(WireFormat.matches(reply.json["updatedAt"]?.stringValue, WireFormat.date(endpoint.dialect)))
            if endpoint.dialect == .leancloud { #expect(reply.json["objectId"] == .string(id)) }
            let fetched = try await client.fetch(endpoint, "GameScore", id)
            #expect(fetched.json["score"] == 2)
            #expect(fetched.json["updatedAt"] == reply.json["updatedAt"])
        }
    }

    @Test("fetchWhenSave=true and new=true on create return the whole object with Relation descriptors", arguments: ["fetchWhenSave=true", "new=true"])
    func fetchWhenSaveOnCreate(_ flag: String) async throws {
        try await TestServer.with { client in
            let post = try await client.create(.leancloud, "Post", ["title": "p"])
            _ = try await client.create(.leancloud, "Person", [
                "pname": "first", "likes": ["__op": "AddRelation", "objects": [["__type": "Pointer", "className": "Post", "objectId": .string(post)]]],
            ])
            let reply = try await client.request(.leancloud, .post, "/classes/Person?\(flag)", json: ["pname": "dennis"])
            #expect(reply.status == 201)
            #expect(reply.keys == ["createdAt", "likes", "objectId", "pname", "updatedAt"])
            #expect(reply.json["likes"] == ["__type": "Relation", "className": "Post"])
            #expect(reply.json["pname"] == "dennis")
            #expect(reply.json["createdAt"] == reply.json["updatedAt"])
            let id = try #require(reply.json["objectId"]?.stringValue)
            #expect(reply.header("Location") == "/1.1/classes/Person/\(id)")
        }
    }

    /// Recording Objects/Relational-Data/should-fetch-when-save: `PUT …?new=true` with an Increment returns
    /// the changed field, `updatedAt`, `objectId` and the Relation descriptors.
    @Test("fetchWhenSave on update returns only the changed fields, like the recording")
    func fetchWhenSaveOnUpdate() async throws {
        try await TestServer.with { client in
            let post = try await client.create(.leancloud, "Post", ["title": "p"])
            let id = try await client.create(.leancloud, "Person", [
                "pname": "plike1", "age": 30, "company": "leancloud",
                "likes": ["__op": "AddRelation", "objects": [["__type": "Pointer", "className": "Post", "objectId": .string(post)]]],
            ])
            let plain = try await client.request(.leancloud, .put, "/classes/Person/\(id)", json: ["age": 9])
            #expect(plain.keys == ["objectId", "updatedAt"])
            let reply = try await client.request(.leancloud, .put, "/classes/Person/\(id)?new=true", json: ["age": ["__op": "Increment", "amount": 10]])
            #expect(reply.status == 200)
            #expect(reply.keys == ["age", "likes", "objectId", "updatedAt"])
            #expect(reply.json["age"] == 19)
            #expect(reply.json["likes"] == ["__type": "Relation", "className": "Post"])
            #expect(reply.json["objectId"] == .string(id))
        }
    }

    @Test("fetchWhenSave on update reports a deleted key as absent and a sub-path update by its top-level key")
    func fetchWhenSaveChangedShapes() async throws {
        try await TestServer.with { client in
            let id = try await client.create(.leancloud, "Profile", ["gone": 1, "kept": 2, "address": ["city": "Paris", "zip": "75001"]])
            let reply = try await client.request(.leancloud, .put, "/classes/Profile/\(id)?fetchWhenSave=true", json: [
                "gone": ["__op": "Delete"], "address.city": "Lyon",
            ])
            #expect(reply.status == 200)
            #expect(reply.keys == ["address", "objectId", "updatedAt"])
            #expect(reply.json["address"] == ["city": "Lyon", "zip": "75001"])
        }
    }

    @Test("fetchWhenSave on a Parse or Bmob update adds the changed fields to {updatedAt}", arguments: [Endpoint.parse, .bmob])
    func fetchWhenSaveOtherDialects(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let id = try await client.create(endpoint, "GameScore", ["score": 1, "name": "a"])
            let reply = try await client.request(endpoint, .put, "/classes/GameScore/\(id)?new=true", json: ["score": ["__op": "Increment", "amount": 4]])
            #expect(reply.status == 200)
            #expect(reply.keys == ["score", "updatedAt"])
            #expect(reply.json["score"] == 5)
        }
    }

    @Test("a delete answers {} (Bmob {\"msg\":\"ok\"}) and the object is gone", arguments: Endpoint.all)
    func deleteReply(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let id = try await client.create(endpoint, "GameScore", ["score": 1])
            let reply = try await client.request(endpoint, .delete, "/classes/GameScore/\(id)")
            #expect(reply.status == 200)
            #expect(reply.json == (endpoint.isBmob ? ["msg": "ok"] : [:]))
            let count = try await client.request(.leancloud, .get, "/classes/GameScore?count=1&limit=0")
            #expect(count.json == ["results": [], "count": 0])
        }
    }

    @Test("a LeanCloud delete accepts a body, as the SDKs send one")
    func deleteWithBody() async throws {
        try await TestServer.with { client in
            let id = try await client.create(.leancloud, "GameScore", ["score": 1])
            let reply = try await client.request(.leancloud, .delete, "/classes/GameScore/\(id)", json: [:])
            #expect(reply.status == 200)
            #expect(reply.json == [:])
        }
    }

    @Test("LeanCloud deletes every object of a comma-separated id list")
    func commaSeparatedDelete() async throws {
        try await TestServer.with { client in
            var ids: [String] = []
            for number in 0..<3 { ids.append(try await client.create(.leancloud, "deletedAll", ["number": .int(Int64(number))])) }
            let reply = try await client.request(.leancloud, .delete, "/classes/deletedAll/\(ids[0]),\(ids[2])")
            #expect(reply.status == 200)
            #expect(reply.json == [:])
            let remaining = try await client.request(.leancloud, .get, "/classes/deletedAll")
            #expect(remaining.json["results"]?.arrayValue?.compactMap { $0["objectId"]?.stringValue } == [ids[1]])
        }
    }

    @Test("deleting a missing object succeeds in LeanCloud and is error 101 elsewhere", arguments: Endpoint.all)
    func deleteMissing(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            _ = try await client.create(endpoint, "GameScore", ["score": 1])
            let reply = try await client.request(endpoint, .delete, "/classes/GameScore/missing0001")
            switch endpoint.dialect {
            case .leancloud:
                #expect(reply.status == 200)
                #expect(reply.json == [:])
            case .parse:
                #expect(reply.status == 404)
                #expect(reply.json == ["code": 101, "error": "Object not found."])
            case .bmob:
                #expect(reply.code == 101)
            }
        }
    }

    @Test("fetching a missing object: LeanCloud 200 {}, Parse 404 code 101, Bmob code 101", arguments: Endpoint.all)
    func fetchMissing(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            _ = try await client.create(endpoint, "GameScore", ["score": 1])
            for id in ["5d8308029c9235000886c4cf", "123"] {
                let reply = try await client.fetch(endpoint, "GameScore", id)
                switch endpoint.dialect {
                case .leancloud:
                    #expect(reply.status == 200)
                    #expect(reply.bodyText == "{}")
                case .parse:
                    #expect(reply.status == 404)
                    #expect(reply.json == ["code": 101, "error": "Object not found."])
                case .bmob:
                    #expect(reply.status == 400)
                    #expect(reply.code == 101)
                }
            }
            let withKeys = try await client.fetch(endpoint, "GameScore", "5d8308029c9235000886c4cf", query: "keys=score")
            #expect(withKeys.status == (endpoint.dialect == .leancloud ? 200 : endpoint.isBmob ? 400 : 404))
        }
    }

    @Test("a missing class is error 101 for fetches and updates; LeanCloud deletes nothing and succeeds", arguments: Endpoint.all)
    func missingClass(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let status = endpoint.isBmob ? 400 : 404
            let fetched = try await client.fetch(endpoint, "NoSuchClass", "5d8308029c9235000886c4cf")
            #expect(fetched.status == status)
            #expect(fetched.code == 101)
            if endpoint.dialect == .leancloud { #expect(fetched.json["error"] == "Class or object doesn't exists.") }
            let updated = try await client.request(endpoint, .put, "/classes/NoSuchClass/5d8308029c9235000886c4cf", json: ["a": 1])
            #expect(updated.status == status)
            #expect(updated.code == 101)
            let deleted = try await client.request(endpoint, .delete, "/classes/NoSuchClass/5d8308029c9235000886c4cf")
            #expect(deleted.status == (endpoint.dialect == .leancloud ? 200 : status))
            let classes = try await client.request(.leancloud, .get, "/classes/NoSuchClass?count=1&limit=0")
            #expect(classes.json["count"] == 0)
        }
    }

    @Test("ACL comes back only with returnACL=true in LeanCloud", arguments: [Endpoint.leancloud])
    func leancloudACL(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let acl: JSON = ["*": ["read": true, "write": true], "read-only": ["read": true], "role:write-only-role": ["write": true]]
            let id = try await client.create(endpoint, "GameScore", ["score": 2, "ACL": acl])
            let plain = try await client.fetch(endpoint, "GameScore", id)
            #expect(plain.json["ACL"] == nil)
            let withACL = try await client.fetch(endpoint, "GameScore", id, query: "returnACL=true")
            #expect(withACL.json["ACL"] == acl)
            let found = try await client.request(endpoint, .get, "/classes/GameScore?returnACL=true")
            #expect(found.json["results"]?.arrayValue?.first?["ACL"] == acl)
            let foundPlain = try await client.request(endpoint, .get, "/classes/GameScore")
            #expect(foundPlain.json["results"]?.arrayValue?.first?["ACL"] == nil)
            let publicId = try await client.create(endpoint, "GameScore", ["score": 3])
            let publicACL = try await client.fetch(endpoint, "GameScore", publicId, query: "returnACL=true")
            #expect(publicACL.json["ACL"] == ["*": ["read": true, "write": true]])
        }
    }

    @Test("ACL always comes back in Parse and Bmob", arguments: [Endpoint.parse, .parseMounted, .bmob])
    func alwaysACL(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let acl: JSON = ["*": ["read": true], "someUser": ["read": true, "write": true]]
            let id = try await client.create(endpoint, "GameScore", ["score": 2, "ACL": acl])
            let fetched = try await client.fetch(endpoint, "GameScore", id)
            #expect(fetched.json["ACL"] == acl)
            let found = try await client.request(endpoint, .get, "/classes/GameScore")
            #expect(found.json["results"]?.arrayValue?.first?["ACL"] == acl)
        }
    }

    @Test("an update replaces the ACL, and ACL null removes it")
    func updateACL() async throws {
        try await TestServer.with { client in
            let id = try await client.create(.parse, "GameScore", ["score": 2, "ACL": ["*": ["read": true, "write": true]]])
            _ = try await client.request(.parse, .put, "/classes/GameScore/\(id)", json: ["ACL": ["u1": ["write": true]]])
            // Only the master key may read the object now: its ACL no longer grants public read.
            #expect(try await client.request(.parse, .get, "/classes/GameScore/\(id)", auth: .master).json["ACL"] == ["u1": ["write": true]])
            // Nor write it: the public may not remove the ACL, the master key may.
            #expect(try await client.request(.parse, .put, "/classes/GameScore/\(id)", json: ["ACL": nil]).status == 404)
            _ = try await client.request(.parse, .put, "/classes/GameScore/\(id)", json: ["ACL": nil], auth: .master)
            #expect(try await client.fetch(.parse, "GameScore", id).json["ACL"] == nil)
        }
    }
}
