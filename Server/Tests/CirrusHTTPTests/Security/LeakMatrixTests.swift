import CirrusModel
import CirrusTesting
import Testing

/// Every read path × every caller × every dialect: no reply carries a hidden field's value, nor another user's
/// personal data (e-mail, phone number, third-party ids and tokens), nor the members of a relation whose owner the
/// caller cannot read. Replies are searched as text, so a leak anywhere in them (an included object, a batch item,
/// a `fetchWhenSave` reply, a CQL result) is caught.
@Suite("Attack matrix: nothing leaks")
struct LeakMatrixTests {
    /// A read path, or a write whose reply shows the object.
    enum ReadPath: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case get, find, keys, excludeKeys, include, getInclude, getUser, findUsers, userKeys, includeUserArray, cqlFind, cqlInclude,
            cqlUsers, batchGet, fetchWhenSaveUpdate, newUpdate, fetchWhenSaveCreate, batchFetchWhenSave, transactionFetchWhenSave,
            statistics, scan, userMe, explain, search, textSearch, schemas, social
        var testDescription: String { rawValue }
    }

    static let cases = Endpoint.matrix(ReadPath.self)

    @Test("no read path shows a caller a hidden value or another user's personal data", arguments: cases)
    func nothingLeaks(_ endpoint: Endpoint, _ path: ReadPath) async throws {
        try await TestServer.with { client in
            let fixture = try await SecretsFixture.make(client, endpoint)
            for caller in SecretsFixture.Caller.allCases {
                let replies = try await Self.read(path, client, endpoint, fixture, fixture.auth(caller))
                for reply in replies {
                    for secret in SecretsFixture.forbidden(to: caller) {
                        #expect(!reply.bodyText.contains(secret), "\(path) as \(caller) in \(endpoint.dialect) shows \(secret): \(reply.bodyText)")
                    }
                }
            }
            // The master key reads everything, so the paths do reach the secrets.
            let master = try await Self.read(path, client, endpoint, fixture, .master).map(\.bodyText).joined()
            if Self.reachesHidden.contains(path) {
                #expect(master.contains(SecretsFixture.hiddenSecret) || master.contains(String(SecretsFixture.hiddenNumber)), "\(path): \(master)")
            }
            if Self.reachesPersonal.contains(path) { #expect(master.contains(SecretsFixture.email), "\(path): \(master)") }
        }
    }

    /// The paths whose master-key reply holds a hidden value.
    static let reachesHidden: Set<ReadPath> = [
        .get, .find, .keys, .include, .getInclude, .cqlFind, .cqlInclude, .batchGet, .fetchWhenSaveUpdate, .newUpdate, .batchFetchWhenSave,
        .transactionFetchWhenSave, .scan, .search, .textSearch, .social,
    ]
    /// The paths whose master-key reply holds the owner's e-mail.
    static let reachesPersonal: Set<ReadPath> = [.include, .getInclude, .getUser, .findUsers, .userKeys, .includeUserArray, .cqlInclude, .cqlUsers, .batchGet, .search, .social]

    static func read(
        _ path: ReadPath, _ client: TestClient, _ endpoint: Endpoint, _ fixture: SecretsFixture, _ auth: TestClient.Auth
    ) async throws -> [TestReply] {
        let vault = "/classes/Vault/\(fixture.vault)"
        let owner = fixture.users.owner.id
        func get(_ suffix: String) async throws -> [TestReply] { [try await client.request(endpoint, .get, suffix, auth: auth)] }
        func cql(_ statement: String) async throws -> [TestReply] {
            try await get("/cloudQuery?\(endpoint.dialect == .bmob ? "bql" : "cql")=" + URLQuery.encode(statement))
        }
        switch path {
        case .get: return try await get(vault)
        case .explain:
            // The store's plan is the master key's (Parse's explain): a client naming a hidden field learns nothing.
            let condition = URLQuery.encode(#"{"secret":"\#(SecretsFixture.hiddenSecret)"}"#)
            return try await get("/classes/Vault?explain=true&where=\(condition)")
        case .find: return try await get("/classes/Vault")
        case .keys: return try await get("/classes/Vault?keys=secret,hiddenNum,label")
        case .excludeKeys: return try await get("/classes/Vault?excludeKeys=label")
        case .include: return try await get("/classes/Vault?include=owner")
        case .getInclude: return try await get(vault + "?include=owner")
        case .getUser: return try await get("/users/\(owner)")
        case .findUsers: return try await get("/users")
        case .userKeys: return try await get("/users?keys=email,mobilePhoneNumber,authData,username")
        case .includeUserArray:
            let pointer: JSON = ["__type": "Pointer", "className": "_User", "objectId": .string(owner)]
            let list = try await client.create(endpoint, "List", ["people": [pointer, pointer]])
            return try await get("/classes/List/\(list)?include=people")
        case .cqlFind: return try await cql("select * from Vault")
        case .cqlInclude: return try await cql("select include owner, * from Vault")
        case .cqlUsers: return try await cql("select * from _User")
        case .batchGet:
            let prefix = endpoint.prefix
            return [try await client.request(endpoint, .post, "/batch", json: [
                "requests": [
                    ["method": "GET", "path": .string(prefix + vault)], ["method": "GET", "path": .string("\(prefix)/users/\(owner)")],
                    ["method": "GET", "path": .string(prefix + "/classes/Vault"), "params": ["include": "owner"]],
                ],
            ], auth: auth)]
        case .fetchWhenSaveUpdate:
            return [try await client.request(endpoint, .put, vault + "?fetchWhenSave=true", json: [
                "hiddenNum": ["__op": "Increment", "amount": 0], "secret": .string(SecretsFixture.hiddenSecret), "label": "open",
            ], auth: auth)]
        case .newUpdate:
            return [try await client.request(endpoint, .put, vault + "?new=true", json: ["hiddenNum": ["__op": "Increment", "amount": 0]], auth: auth)]
        case .fetchWhenSaveCreate:
            return [try await client.request(endpoint, .post, "/classes/Vault?fetchWhenSave=true", json: [
                "label": "new", "owner": ["__type": "Pointer", "className": "_User", "objectId": .string(owner)],
            ], auth: auth)]
        case .batchFetchWhenSave, .transactionFetchWhenSave:
            var body: [String: JSON] = [
                "requests": [[
                    "method": "PUT", "path": .string(endpoint.prefix + vault), "body": ["hiddenNum": ["__op": "Increment", "amount": 0]],
                    "params": ["fetchWhenSave": true],
                ]],
            ]
            if path == .transactionFetchWhenSave { body["transaction"] = true }
            return [try await client.request(endpoint, .post, "/batch", json: .object(body), auth: auth)]
        case .statistics: return try await get("/classes/Vault?groupby=label&groupcount=true")
        case .scan: return [try await client.request(.leancloud, .get, "/scan/classes/Vault", auth: auth)]
        case .userMe: return try await get("/users/me")
        case .search:
            // In-app search (LeanCloud's) over a hidden field and an open one: clients neither match nor see the hidden
            // one, by a term with or without its field, in highlights or included users.
            let enabled = try await client.send(.leancloud, .put, "/1.1/schemas/Vault", json: ["search": ["fields": ["secret", "label"]]], auth: .master)
            #expect(enabled.status == 200, "\(enabled.bodyText)")
            var replies: [TestReply] = []
            for q in ["*", "S3CRET", "open OR S3CRET", "secret:S3CRET", "hiddenNum:\(SecretsFixture.hiddenNumber)"] {
                let path = "/1.1/search/select?clazz=Vault&highlights=*&include=owner&q=" + URLQuery.encode(q)
                replies.append(try await client.send(.leancloud, .get, path, auth: auth))
            }
            return replies
        case .schemas:
            // Class structures (Bmob's SDKs read them with the app key): names and types only, never a value.
            return try await get("/schemas") + get("/schemas/Vault") + get("/schemas/_User")
        case .textSearch:
            // Parse's $text over a hidden search field and an open one, ranked and scored, with the owner included:
            // clients are refused the hidden field and see no hidden value through the open one.
            let enabled = try await client.send(.leancloud, .put, "/1.1/schemas/Vault", json: ["search": ["fields": ["secret", "label"]]], auth: .master)
            #expect(enabled.status == 200, "\(enabled.bodyText)")
            var replies: [TestReply] = []
            for (field, term) in [("label", "open"), ("secret", SecretsFixture.hiddenSecret)] {
                let condition: JSON = .object([field: ["$text": ["$search": ["$term": .string(term)]]]])
                replies += try await get("/classes/Vault?order=$score&keys=$score,secret,hiddenNum,label,owner&include=owner&" + URLQuery.whereClause(condition))
            }
            return replies
        case .social: return try await Self.readSocial(client, fixture, auth)
        }
    }

    /// LeanCloud's social API (its dialect only): the owner and the other user follow each other, and the owner sends
    /// a status pointing at the vault to its followers. The follow lists include the owner, the inboxes and statuses
    /// include the owner as `source` and the vault: the rows and statuses are readable, what they include is read
    /// with the caller's rights.
    static func readSocial(_ client: TestClient, _ fixture: SecretsFixture, _ auth: TestClient.Auth) async throws -> [TestReply] {
        let (owner, other) = (fixture.users.owner, fixture.users.other)
        for (user, target) in [(owner, other), (other, owner)] {
            let followed = try await client.send(.leancloud, .post, "/1.1/users/\(user.id)/friendship/\(target.id)", json: [:], auth: .master)
            #expect(followed.status == 200, "\(followed.bodyText)")
        }
        let sent = try await client.send(.leancloud, .post, "/1.1/statuses", json: [
            "query": ["className": "_Follower", "keys": "follower", "where": ["user": TestClient.userPointer(owner.id)]],
            "data": ["message": "hello", "vault": ["__type": "Pointer", "className": "Vault", "objectId": .string(fixture.vault)]],
            "inboxType": "default",
        ], auth: .session(owner.token))
        #expect(sent.status == 200 || sent.status == 201, "\(sent.bodyText)")
        let status = sent.json["objectId"]?.stringValue ?? ""
        func get(_ path: String) async throws -> TestReply { try await client.send(.leancloud, .get, "/1.1" + path, auth: auth) }
        var replies: [TestReply] = []
        for path in [
            "/users/\(other.id)/followers?include=follower", "/users/\(owner.id)/followees?include=followee,user",
            "/users/\(other.id)/followersAndFollowees?include=follower,followee", "/users/\(other.id)/mutualFollowees?include=followee",
            "/statuses?include=source,vault", "/statuses/\(status)?include=source,vault", "/classes/_Status?include=source,vault",
        ] {
            replies.append(try await get(path))
        }
        for reader in [owner, other] {
            let inbox = URLQuery.encode(JSONWriter.string(TestClient.userPointer(reader.id)))
            replies.append(try await get("/subscribe/statuses?owner=\(inbox)&inboxType=default&include=source,vault"))
        }
        // The paths do serve clients: the other user reads its inbox with the status, its source and the vault's
        // open field, and the follow lists with the owner.
        if case .session(let token) = auth, token == other.token {
            let inbox = replies[replies.count - 1]
            #expect(inbox.status == 200 && inbox.bodyText.contains("hello") && inbox.bodyText.contains(#""label":"open""#), "\(inbox.bodyText)")
            #expect(replies[0].status == 200 && replies[0].bodyText.contains(owner.id) && replies[0].bodyText.contains(#""username""#), "\(replies[0].bodyText)")
        }
        return replies
    }

    /// The writes whose reply shows the object written.
    enum WriteReply: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case fetchWhenSave, new, batch, transaction
        var testDescription: String { rawValue }
    }

    static let writeOnlyCases = Endpoint.matrix(WriteReply.self)

    @Test("a caller who may write an object but not read it gets none of its values back from a write", arguments: writeOnlyCases)
    func writeOnlyObjects(_ endpoint: Endpoint, _ write: WriteReply) async throws {
        try await TestServer.with { client in
            let users = try await PermissionFixture.make(client, endpoint)
            let secret = "W0-only-secret"
            let id = try await client.create(endpoint, "Drop", [
                "note": .string(secret), "n": 4_100_041, "ACL": [.init(stringLiteral: users.other.id): ["write": true]],
            ])
            let path = "/classes/Drop/\(id)"
            let body: JSON = ["n": ["__op": "Increment", "amount": 1], "seen": true]
            let reply: TestReply
            switch write {
            case .fetchWhenSave, .new:
                reply = try await client.request(endpoint, .put, path + "?\(write.rawValue)=true", json: body, auth: users.auth(.otherUser))
            case .batch, .transaction:
                var batch: [String: JSON] = [
                    "requests": [["method": "PUT", "path": .string(endpoint.prefix + path), "body": body, "params": ["fetchWhenSave": true]]],
                ]
                if write == .transaction { batch["transaction"] = true }
                reply = try await client.request(endpoint, .post, "/batch", json: .object(batch), auth: users.auth(.otherUser))
            }
            #expect(reply.status == 200, "\(reply.bodyText)")
            for value in [secret, "4100042", "4100041", "seen", users.other.id] {
                #expect(!reply.bodyText.contains(value), "\(write) in \(endpoint.dialect) shows \(value): \(reply.bodyText)")
            }
            // The write happened: the master key reads its result, and the object's owner would too.
            let stored = try await client.request(endpoint, .get, path, auth: .master)
            #expect(stored.json["n"] == 4_100_042 && stored.json["seen"] == true, "\(stored.bodyText)")
        }
    }

    /// A relation's members, through each way of listing them.
    enum RelationPath: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case relatedTo, redirectClassName, cqlRelated, innerRelatedTo, count
        var testDescription: String { rawValue }
    }

    static let relationCases = Endpoint.matrix(RelationPath.self)

    @Test("a relation lists its members only to callers who may read its owner", arguments: relationCases)
    func relationsOfUnreadableOwners(_ endpoint: Endpoint, _ path: RelationPath) async throws {
        try await TestServer.with { client in
            let fixture = try await SecretsFixture.make(client, endpoint)
            let readers: Set<SecretsFixture.Caller> = [.master, .owner]
            for caller in SecretsFixture.Caller.allCases {
                let reply = try await Self.members(path, client, endpoint, fixture, fixture.auth(caller))
                let listed = reply.bodyText.contains(fixture.doc) || reply.json["count"] == 1
                #expect(listed == readers.contains(caller), "\(path) as \(caller) in \(endpoint.dialect): \(reply.bodyText)")
            }
        }
    }

    static func members(
        _ path: RelationPath, _ client: TestClient, _ endpoint: Endpoint, _ fixture: SecretsFixture, _ auth: TestClient.Auth
    ) async throws -> TestReply {
        let holder: JSON = ["__type": "Pointer", "className": "Holder", "objectId": .string(fixture.holder)]
        let related: JSON = ["$relatedTo": ["object": holder, "key": "docs"]]
        switch path {
        case .relatedTo:
            return try await client.request(endpoint, .get, "/classes/Doc?" + URLQuery.whereClause(related), auth: auth)
        case .redirectClassName:
            return try await client.request(endpoint, .get, "/classes/Holder?redirectClassNameForKey=docs&" + URLQuery.whereClause(related), auth: auth)
        case .cqlRelated:
            let statement = "select * from Doc where related docs to pointer('Holder', '\(fixture.holder)')"
            return try await client.request(endpoint, .get, "/cloudQuery?\(endpoint.dialect == .bmob ? "bql" : "cql")=" + URLQuery.encode(statement), auth: auth)
        case .innerRelatedTo:
            let outer: JSON = ["doc": ["$inQuery": ["className": "Doc", "where": related]]]
            let pointer: JSON = ["__type": "Pointer", "className": "Doc", "objectId": .string(fixture.doc)]
            _ = try await client.create(endpoint, "Ref", ["doc": pointer, "docId": .string(fixture.doc)])
            let reply = try await client.request(endpoint, .get, "/classes/Ref?" + URLQuery.whereClause(outer), auth: auth)
            return reply
        case .count:
            return try await client.request(endpoint, .get, "/classes/Doc?count=1&limit=0&" + URLQuery.whereClause(related), auth: auth)
        }
    }
}
