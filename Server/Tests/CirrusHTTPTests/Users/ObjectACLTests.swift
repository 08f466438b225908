import CirrusModel
import CirrusTesting
import Testing

/// Object ACLs between logged-in users, and roles granting rights to their members.
@Suite("Object ACL")
struct ObjectACLTests {
    @Test("an object private to its owner is hidden from another user, who cannot change or delete it", arguments: Endpoint.dialects)
    func privateObject(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let owner = try await client.signUp(endpoint, "acl-owner")
            let other = try await client.signUp(endpoint, "acl-other")
            let acl: JSON = [.init(stringLiteral: owner.id): ["read": true, "write": true]]
            let created = try await client.request(endpoint, .post, "/classes/Diary", json: ["text": "dear", "ACL": acl], auth: .session(owner.token))
            let id = try #require(created.json["objectId"]?.stringValue)
            #expect(try await client.request(endpoint, .get, "/classes/Diary/\(id)", auth: .session(owner.token)).json["text"] == "dear")
            let found = try await client.request(endpoint, .get, "/classes/Diary", auth: .session(other.token))
            #expect(found.json["results"]?.arrayValue?.isEmpty == true)
            #expect(try await client.request(endpoint, .get, "/classes/Diary/\(id)", auth: .session(other.token)).json["text"] == nil)
            let update = try await client.request(endpoint, .put, "/classes/Diary/\(id)", json: ["text": "hacked"], auth: .session(other.token))
            #expect(update.status >= 400)
            let delete = try await client.request(endpoint, .delete, "/classes/Diary/\(id)", auth: .session(other.token))
            #expect(delete.status >= 400)
            #expect(try await client.request(endpoint, .get, "/classes/Diary/\(id)", auth: .master).json["text"] == "dear")
            #expect(try await client.request(endpoint, .put, "/classes/Diary/\(id)", json: ["text": "edited"], auth: .session(owner.token)).status == 200)
            #expect(try await client.request(endpoint, .delete, "/classes/Diary/\(id)", auth: .session(owner.token)).status == 200)
        }
    }

    @Test("a publicly readable object that only its owner may write: others get the dialect's write denial", arguments: Endpoint.dialects)
    func writeDenied(_ endpoint: Endpoint) async throws {
        let (status, code): (Int, Int64) = switch endpoint.dialect {
        case .leancloud: (403, 403)
        case .parse: (404, 101)
        case .bmob: (400, 122)
        }
        try await TestServer.with { client in
            let owner = try await client.signUp(endpoint, "w-owner")
            let other = try await client.signUp(endpoint, "w-other")
            let acl: JSON = ["*": ["read": true], .init(stringLiteral: owner.id): ["write": true]]
            let id = try #require(try await client.request(
                endpoint, .post, "/classes/Board", json: ["title": "t", "ACL": acl], auth: .session(owner.token)
            ).json["objectId"]?.stringValue)
            #expect(try await client.request(endpoint, .get, "/classes/Board/\(id)", auth: .session(other.token)).json["title"] == "t")
            for auth in [TestClient.Auth.session(other.token), .appKey] {
                let update = try await client.request(endpoint, .put, "/classes/Board/\(id)", json: ["title": "x"], auth: auth)
                #expect(update.status == status)
                #expect(update.code == code)
                let delete = try await client.request(endpoint, .delete, "/classes/Board/\(id)", auth: auth)
                #expect(delete.status == status)
                #expect(delete.code == code)
            }
            let batch = try await client.request(endpoint, .post, "/batch", json: [
                "requests": [["method": "PUT", "path": .string(endpoint.prefix + "/classes/Board/\(id)"), "body": ["title": "b"]]],
            ], auth: .session(other.token))
            #expect(batch.json[0]?["error"]?["code"]?.intValue == code)
            let atomic = try await client.request(endpoint, .put, "/classes/Board/\(id)", json: ["n": ["__op": "Increment", "amount": 1]], auth: .session(other.token))
            #expect(atomic.code == code)
            #expect(try await client.request(endpoint, .get, "/classes/Board/\(id)", auth: .master).json["title"] == "t")
        }
    }

    @Test("a conditional update by a user who may not write is a denial, not a failed condition")
    func conditionalWriteDenied() async throws {
        try await TestServer.with { client in
            let owner = try await client.signUp(.leancloud, "c-owner")
            let acl: JSON = ["*": ["read": true], .init(stringLiteral: owner.id): ["write": true]]
            let id = try await client.create(.leancloud, "Item", ["n": 1, "ACL": acl])
            let denied = try await client.request(.leancloud, .put, "/classes/Item/\(id)?" + URLQuery.whereClause(["n": 1]), json: ["n": 2])
            #expect(denied.code == 403)
            let mismatch = try await client.request(
                .leancloud, .put, "/classes/Item/\(id)?" + URLQuery.whereClause(["n": 5]), json: ["n": 2], auth: .session(owner.token)
            )
            #expect(mismatch.code == 305)
        }
    }

    @Test("a role's members, direct or through an inheriting role, get the rights the ACL gives the role")
    func roles() async throws {
        try await TestServer.with { client in
            let admin = try await client.signUp(.leancloud, "admin")
            let member = try await client.signUp(.leancloud, "member")
            let outsider = try await client.signUp(.leancloud, "outsider")
            let roleACL: JSON = ["*": ["read": true]]
            let moderators = try await client.create(.leancloud, "_Role", ["name": "Moderators", "ACL": roleACL])
            let editors = try await client.request(.leancloud, .post, "/roles", json: [
                "name": "Editors", "ACL": roleACL,
                "users": ["__op": "AddRelation", "objects": [["__type": "Pointer", "className": "_User", "objectId": .string(member.id)]]],
            ], auth: .master)
            let editorsId = try #require(editors.json["objectId"]?.stringValue)
            // Editors inherit the rights of Moderators: Moderators' `roles` lists Editors.
            let link = try await client.request(.leancloud, .put, "/roles/\(moderators)", json: [
                "roles": ["__op": "AddRelation", "objects": [["__type": "Pointer", "className": "_Role", "objectId": .string(editorsId)]]],
                "users": ["__op": "AddRelation", "objects": [["__type": "Pointer", "className": "_User", "objectId": .string(admin.id)]]],
            ], auth: .master)
            #expect(link.status == 200)
            let acl: JSON = ["role:Moderators": ["read": true, "write": true]]
            let note = try await client.create(.leancloud, "Note", ["text": "mods only", "ACL": acl])
            for user in [admin, member] {
                #expect(try await client.request(.leancloud, .get, "/classes/Note/\(note)", auth: .session(user.token)).json["text"] == "mods only")
                #expect(try await client.request(.leancloud, .put, "/classes/Note/\(note)", json: ["seen": true], auth: .session(user.token)).status == 200)
            }
            #expect(try await client.request(.leancloud, .get, "/classes/Note/\(note)", auth: .session(outsider.token)).json == [:])
            #expect(try await client.request(.leancloud, .put, "/classes/Note/\(note)", json: ["x": 1], auth: .session(outsider.token)).status == 403)
            let reverse = try await client.request(.leancloud, .get, "/classes/_Role?" + URLQuery.whereClause(
                ["users": ["__type": "Pointer", "className": "_User", "objectId": .string(member.id)]]
            ), auth: .session(member.token))
            #expect(reverse.json["results"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["Editors"])
            let rolesRow = try await client.request(.leancloud, .get, "/roles/\(editorsId)")
            #expect(rolesRow.json["users"] == ["__type": "Relation", "className": "_User"])
        }
    }

    @Test("role rules: an ACL is required (R#95), the name is valid, unique and set once, relations hold the right classes")
    func roleRules() async throws {
        try await TestServer.with { client in
            let noACL = try await client.request(.leancloud, .post, "/classes/_Role", json: ["name": "foo"])
            #expect(noACL.status == 400)
            #expect(noACL.json == ["code": 1, "error": "Role ACL is required."])
            let badName = try await client.request(.leancloud, .post, "/roles", json: ["name": "no!", "ACL": [:]])
            #expect(badName.code == 139)
            let noName = try await client.request(.leancloud, .post, "/roles", json: ["ACL": [:]])
            #expect(noName.code == 139)
            let id = try await client.create(.leancloud, "_Role", ["name": "Staff", "ACL": ["*": ["read": true, "write": true]]])
            let duplicate = try await client.request(.leancloud, .post, "/roles", json: ["name": "Staff", "ACL": [:]])
            #expect(duplicate.code == 137)
            let rename = try await client.request(.leancloud, .put, "/roles/\(id)", json: ["name": "Other"])
            #expect(rename.code == 139)
            let same = try await client.request(.leancloud, .put, "/roles/\(id)", json: ["name": "Staff", "note": "x"])
            #expect(same.status == 200)
            let wrongClass = try await client.request(.leancloud, .put, "/roles/\(id)", json: [
                "users": ["__op": "AddRelation", "objects": [["__type": "Pointer", "className": "Post", "objectId": "abc"]]],
            ])
            #expect(wrongClass.code == 111)
            let removeACL = try await client.request(.leancloud, .put, "/roles/\(id)", json: ["ACL": .null])
            #expect(removeACL.status == 400)
        }
    }
}

@Suite("Batch sessions")
struct BatchSessionTests {
    @Test("a Bmob batch request may carry its own session token and runs as that user; a bad token fails only its item")
    func perItemToken() async throws {
        try await TestServer.with { client in
            let owner = try await client.signUp(.bmob, "batch-owner")
            let acl: JSON = ["*": ["read": true], .init(stringLiteral: owner.id): ["write": true]]
            let id = try #require(try await client.request(.bmob, .post, "/classes/Card", json: ["n": 1, "ACL": acl]).json["objectId"]?.stringValue)
            let reply = try await client.request(.bmob, .post, "/batch", json: ["requests": [
                ["method": "PUT", "path": .string("/1/classes/Card/\(id)"), "body": ["n": 2]],
                ["method": "PUT", "path": .string("/1/classes/Card/\(id)"), "body": ["n": 3], "token": .string(owner.token)],
                ["method": "PUT", "path": .string("/1/classes/Card/\(id)"), "body": ["n": 4], "token": "forged"],
            ]])
            #expect(reply.json[0]?["error"]?["code"] == 122)
            #expect(reply.json[1]?["success"]?["updatedAt"] != nil)
            #expect(reply.json[2]?["error"]?["code"] == 211)
            #expect(try await client.request(.bmob, .get, "/classes/Card/\(id)").json["n"] == 3)
        }
    }
}
