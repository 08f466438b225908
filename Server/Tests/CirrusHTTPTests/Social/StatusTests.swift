import CirrusModel
import CirrusTesting
import Foundation
import HTTPTypes
import Testing

/// Statuses and inboxes over HTTP (docs/SOCIAL.md), on the test store.
@Suite("Statuses sent to inboxes")
struct StatusTests {
    static func encoded(_ json: JSON) -> String {
        JSONWriter.string(json).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }

    static func inboxPath(_ owner: String, type: String = "default", extra: String = "") -> String {
        "/subscribe/statuses?owner=\(encoded(TestClient.userPointer(owner)))&inboxType=\(type)&where=%7B%7D&sinceId=0&maxId=0\(extra)"
    }

    static func toFollowers(_ sender: SignedUpUser, _ data: JSON = ["message": "hello"]) -> JSON {
        [
            "query": ["className": "_Follower", "keys": "follower", "where": ["user": TestClient.userPointer(sender.id)]],
            "data": data, "inboxType": "default",
        ]
    }

    @Test("a status to followers reaches each follower's inbox and the sender's own, numbered, counted and marked read (R#8, R#11, R#15)")
    func toFollowers() async throws {
        try await TestServer.with { client in
            let users = try await client.users(["writer", "reader1", "reader2", "outsider"])
            let (writer, reader1, reader2, outsider) = (users[0], users[1], users[2], users[3])
            for reader in [reader1, reader2] {
                #expect(try await client.lc(.post, "/users/self/friendship/\(writer.id)", as: reader).status == 200)
            }
            let sent = try await client.lc(.post, "/statuses", json: Self.toFollowers(writer, ["message": "first", "image": "url"]), as: writer)
            #expect(sent.status == 201 && sent.json["createdAt"] != nil, "\(sent.bodyText)")
            let statusId = try #require(sent.json["objectId"]?.stringValue)
            _ = try await client.lc(.post, "/statuses", json: Self.toFollowers(writer, ["message": "second"]), as: writer)

            let inbox = try await client.lc(.get, Self.inboxPath(reader1.id, extra: "&include=source"), as: reader1)
            #expect(inbox.status == 200, "\(inbox.bodyText)")
            let results = inbox.json["results"]?.arrayValue ?? []
            #expect(results.map { $0["message"] } == ["second", "first"])
            #expect(results.map { $0["messageId"] } == [2, 1])
            #expect(results.last?["objectId"] == .string(statusId) && results.last?["inboxType"] == "default")
            #expect(results.last?["source"]?["username"] != nil, "the source is included")
            #expect(inbox.json["end"] == true)
            let mine = try await client.lc(.get, Self.inboxPath(writer.id), as: writer)
            #expect(mine.json["results"]?.arrayValue?.count == 2, "the sender's own timeline")
            #expect(try await client.lc(.get, Self.inboxPath(outsider.id), as: outsider).json == ["results": [], "end": false], "R#9's empty inbox")

            let countPath = "/subscribe/statuses/count?inboxType=default&owner=\(Self.encoded(TestClient.userPointer(reader2.id)))"
            #expect(try await client.lc(.get, countPath, as: reader2).json == ["total": 2, "unread": 2])
            let reset = try await client.lc(
                .post, "/subscribe/statuses/resetUnreadCount", json: ["inboxType": "default", "owner": TestClient.userPointer(reader2.id)], as: reader2
            )
            #expect(reset.status == 200 && reset.json == [:])
            #expect(try await client.lc(.get, countPath, as: reader2).json == ["total": 2, "unread": 0])
            let paged = try await client.lc(.get, Self.inboxPath(reader1.id, extra: "&limit=1"), as: reader1)
            #expect(paged.json["results"]?.arrayValue?.map { $0["messageId"] } == [2] && paged.json["end"] == false)
            let older = try await client.lc(.get, Self.inboxPath(reader1.id).replacingOccurrences(of: "maxId=0", with: "maxId=1"), as: reader1)
            #expect(older.json["results"]?.arrayValue?.map { $0["message"] } == ["first"])
            let newer = try await client.lc(.get, Self.inboxPath(reader1.id).replacingOccurrences(of: "sinceId=0", with: "sinceId=1"), as: reader1)
            #expect(newer.json["results"]?.arrayValue?.map { $0["message"] } == ["second"])
            let filtered = try await client.lc(
                .get, Self.inboxPath(reader1.id).replacingOccurrences(of: "where=%7B%7D", with: "where=" + Self.encoded(["message": "first"])), as: reader1
            )
            #expect(filtered.json["results"]?.arrayValue?.map { $0["messageId"] } == [1])
        }
    }

    @Test("an inbox is its owner's: another user reads, counts, resets and trims nothing of it")
    func inboxOwnership() async throws {
        try await TestServer.with { client in
            let users = try await client.users(["writer", "reader", "snoop"])
            let (writer, reader, snoop) = (users[0], users[1], users[2])
            #expect(try await client.lc(.post, "/users/self/friendship/\(writer.id)", as: reader).status == 200)
            #expect(try await client.lc(.post, "/statuses", json: Self.toFollowers(writer), as: writer).status == 201)
            let owner = Self.encoded(TestClient.userPointer(reader.id))
            for (method, path) in [
                (HTTPRequest.Method.get, Self.inboxPath(reader.id)), (.get, "/subscribe/statuses/count?owner=\(owner)"),
                (.post, "/subscribe/statuses/resetUnreadCount?owner=\(owner)"), (.delete, "/subscribe/statuses/inbox?owner=\(owner)&messageId=1"),
            ] {
                let reply = try await client.lc(method, path, as: snoop)
                #expect(reply.status == 403, "\(method) \(path): \(reply.bodyText)")
            }
            #expect(try await client.lc(.get, "/subscribe/statuses/count?owner=\(owner)", as: reader).json == ["total": 1, "unread": 1])
            let master = try await client.send(.leancloud, .get, "/1.1" + Self.inboxPath(reader.id), auth: .master)
            #expect(master.json["results"]?.arrayValue?.count == 1)
        }
    }

    @Test("a private message reaches only its recipient, who reads it in the private inbox though its ACL hides it from others (R#13)")
    func privateMessage() async throws {
        try await TestServer.with { client in
            let users = try await client.users(["sender", "recipient", "other"])
            let (sender, recipient, other) = (users[0], users[1], users[2])
            let body: JSON = [
                "query": ["className": "_User", "where": ["objectId": .string(recipient.id)]],
                "data": ["message": "psst", "source": TestClient.userPointer(sender.id)], "inboxType": "private",
            ]
            let sent = try await client.lc(.post, "/statuses", json: body, as: sender)
            #expect(sent.status == 201, "\(sent.bodyText)")
            let statusId = try #require(sent.json["objectId"]?.stringValue)
            let inbox = try await client.lc(.get, Self.inboxPath(recipient.id, type: "private"), as: recipient)
            #expect(inbox.json["results"]?.arrayValue?.map { $0["message"] } == ["psst"], "\(inbox.bodyText)")
            #expect(try await client.lc(.get, Self.inboxPath(recipient.id), as: recipient).json["results"] == [], "not in the default inbox")
            #expect(try await client.lc(.get, Self.inboxPath(sender.id, type: "private"), as: sender).json["results"] == [], "nor the sender's")
            #expect(try await client.lc(.get, "/classes/_Status/\(statusId)", as: other).json == [:], "the status is not public")
            #expect(try await client.lc(.get, "/statuses/\(statusId)", as: sender).json["message"] == "psst", "its sender reads it")
            // R#14: users by a field of theirs, from a client; `_User`'s default find refusal lists nothing here.
            _ = try await client.send(.leancloud, .put, "/1.1/users/\(other.id)", json: ["gender": "female"], auth: .master)
            let byGender: JSON = ["query": ["className": "_User", "where": ["gender": "female"]], "data": ["message": "hi"], "inboxType": "default"]
            #expect(try await client.lc(.post, "/statuses", json: byGender, as: sender).status == 201)
            #expect(try await client.lc(.get, Self.inboxPath(other.id), as: other).json["results"]?.arrayValue?.map { $0["message"] } == ["hi"])
            #expect(try await client.lc(.get, Self.inboxPath(recipient.id), as: recipient).json["results"] == [])
            let personal: JSON = ["query": ["className": "_User", "where": ["email": "a@b.c"]], "data": ["message": "x"], "inboxType": "default"]
            #expect(try await client.lc(.post, "/statuses", json: personal, as: sender).status != 201, "personal fields stay unnamed")
        }
    }

    @Test("a status is sent as the signed-in user, deleted by it alone, and its deletion empties every inbox")
    func sourceAndDeletion() async throws {
        try await TestServer.with { client in
            let users = try await client.users(["writer", "reader", "impostor"])
            let (writer, reader, impostor) = (users[0], users[1], users[2])
            #expect(try await client.lc(.post, "/users/self/friendship/\(writer.id)", as: reader).status == 200)
            let forged = try await client.lc(.post, "/statuses", json: Self.toFollowers(writer, ["source": TestClient.userPointer(writer.id)]), as: impostor)
            #expect(forged.status == 403, "\(forged.bodyText)")
            #expect(try await client.lc(.post, "/statuses", json: Self.toFollowers(writer), as: nil).code == 206)
            let anonymousCreate = try await client.lc(.post, "/classes/_Status", json: ["message": "x"], as: impostor)
            #expect(anonymousCreate.status == 403, "the class API does not create statuses: \(anonymousCreate.bodyText)")
            let sent = try await client.lc(.post, "/statuses", json: Self.toFollowers(writer), as: writer)
            let statusId = try #require(sent.json["objectId"]?.stringValue)
            #expect(try await client.lc(.delete, "/statuses/\(statusId)", as: impostor).status == 403)
            #expect(try await client.lc(.delete, "/classes/_Status/\(statusId)", as: impostor).status == 403)
            let countPath = "/subscribe/statuses/count?owner=\(Self.encoded(TestClient.userPointer(reader.id)))"
            #expect(try await client.lc(.get, countPath, as: reader).json["total"] == 1)
            #expect(try await client.lc(.delete, "/statuses/\(statusId)", as: writer).json == [:])
            #expect(try await client.lc(.get, countPath, as: reader).json["total"] == 0)
            #expect(try await client.lc(.get, Self.inboxPath(writer.id), as: writer).json["results"] == [])

            let again = try await client.lc(.post, "/statuses", json: Self.toFollowers(writer), as: writer)
            #expect(again.status == 201)
            let owner = Self.encoded(TestClient.userPointer(reader.id))
            #expect(try await client.lc(.delete, "/subscribe/statuses/inbox?owner=\(owner)&inboxType=default&messageId=2", as: reader).json == [:])
            #expect(try await client.lc(.delete, "/subscribe/statuses/inbox?owner=\(owner)&inboxType=default&messageId=2", as: reader).status == 404)
            #expect(try await client.lc(.get, countPath, as: reader).json["total"] == 0)
        }
    }

    @Test("an inbox query through a batch with params, as the JavaScript SDK sends it to avoid long URIs (R#7)")
    func inboxThroughBatch() async throws {
        try await TestServer.with { client in
            let users = try await client.users(["writer", "reader"])
            let (writer, reader) = (users[0], users[1])
            #expect(try await client.lc(.post, "/users/self/friendship/\(writer.id)", as: reader).status == 200)
            #expect(try await client.lc(.post, "/statuses", json: Self.toFollowers(writer, ["tags": ["a", "b"]]), as: writer).status == 201)
            let item: JSON = [
                "method": "GET", "path": "/1.1/subscribe/statuses",
                "params": [
                    "where": ["tags": ["$all": ["a", "b"]]], "owner": TestClient.userPointer(reader.id), "inboxType": "default", "sinceId": 0, "maxId": 0,
                ],
            ]
            let reply = try await client.lc(.post, "/batch", json: ["requests": [item]], as: reader)
            #expect(reply.status == 200, "\(reply.bodyText)")
            #expect(reply.json.arrayValue?.first?["success"]?["results"]?.arrayValue?.count == 1, "\(reply.bodyText)")
        }
    }

    @Test("bad input is refused: no audience, a malformed owner, a bad inbox type, a negative sinceId")
    func badInput() async throws {
        try await TestServer.with { client in
            let users = try await client.users(["writer"])
            let writer = users[0]
            #expect(try await client.lc(.post, "/statuses", json: ["data": ["m": 1]], as: writer).status == 400)
            #expect(try await client.lc(.post, "/statuses", json: ["query": ["className": "_User"]], as: writer).status == 400)
            var badType = Self.toFollowers(writer).objectValue ?? [:]
            badType["inboxType"] = "../x"
            #expect(try await client.lc(.post, "/statuses", json: .object(badType), as: writer).status == 400)
            #expect(try await client.lc(.get, "/subscribe/statuses?owner=%7Bnot", as: writer).code == 107)
            #expect(try await client.lc(.get, "/subscribe/statuses", as: writer).status == 400)
            #expect(try await client.lc(.get, Self.inboxPath(writer.id).replacingOccurrences(of: "sinceId=0", with: "sinceId=-4"), as: writer).status == 400)
            let subQuery: JSON = ["source": ["$inQuery": ["className": "_User", "where": ["username": ["$regex": "^w"]]]]]
            let probing = try await client.lc(
                .get, Self.inboxPath(writer.id).replacingOccurrences(of: "where=%7B%7D", with: "where=" + Self.encoded(subQuery)), as: writer
            )
            #expect(probing.status == 400, "a sub-query would read other classes as the master: \(probing.bodyText)")
        }
    }
}
