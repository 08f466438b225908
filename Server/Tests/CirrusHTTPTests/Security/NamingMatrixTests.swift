import CirrusModel
import CirrusTesting
import Testing

/// Every way a client can compare, sort, group or select on a field × every caller × every dialect: a hidden field
/// or another user's personal field cannot be named by anyone but the master key, so no answer — a result, a
/// count, an order, a statistic, or the success of a conditional write — can tell a right guess from a wrong one.
@Suite("Attack matrix: protected fields cannot be named")
struct NamingMatrixTests {
    /// A request that names a protected field; `guess` is compared with the stored value where the path compares.
    enum Probe: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case whereEqual, whereOr, whereRange, whereRegex, whereExists, whereNotEqual, inQuery, select, order, groupBy, sum, having, cqlWhere,
            cqlLike, cqlOrder, cqlAggregate, conditionalUpdate, conditionalDelete, batchConditionalUpdate, transactionConditionalUpdate,
            cqlUpdate, cqlDelete, userEmail, userEmailRegex, userPhone, userAuthDataPath, userAuthDataExists, userOrderByEmail,
            userGroupByEmail, userSelectEmail, userInQueryEmail, userCQLLike
        var testDescription: String { rawValue }

        /// Whether the probe writes (the object must stay unchanged whatever the answer).
        var writes: Bool {
            [.conditionalUpdate, .conditionalDelete, .batchConditionalUpdate, .transactionConditionalUpdate, .cqlUpdate, .cqlDelete].contains(self)
        }
    }

    static let cases = Endpoint.matrix(Probe.self)

    @Test("only the master key may name a protected field, and a right guess answers as a wrong one", arguments: cases)
    func protectedFieldsCannotBeNamed(_ endpoint: Endpoint, _ probe: Probe) async throws {
        try await TestServer.with { client in
            let fixture = try await SecretsFixture.make(client, endpoint)
            for caller in SecretsFixture.Caller.allCases where caller != .master {
                let right = try await Self.send(probe, guessRight: true, client, endpoint, fixture, fixture.auth(caller))
                let wrong = try await Self.send(probe, guessRight: false, client, endpoint, fixture, fixture.auth(caller))
                #expect(right.status >= 400, "\(probe) as \(caller) in \(endpoint.dialect) answered \(right.status): \(right.bodyText)")
                #expect(right.status == wrong.status && right.code == wrong.code, "\(probe) as \(caller): \(right.bodyText) vs \(wrong.bodyText)")
                if probe.writes { try await Self.expectUnchanged(client, endpoint, fixture, "\(probe) as \(caller)") }
            }
            let master = try await Self.send(probe, guessRight: true, client, endpoint, fixture, .master)
            #expect(master.status < 300, "\(probe) with the master key: \(master.bodyText)")
        }
    }

    static func expectUnchanged(_ client: TestClient, _ endpoint: Endpoint, _ fixture: SecretsFixture, _ context: String) async throws {
        let stored = try await client.request(endpoint, .get, "/classes/Vault/\(fixture.vault)", auth: .master).json
        #expect(stored["label"] == "open" && stored["secret"] == .string(SecretsFixture.hiddenSecret), "\(context) changed the vault: \(stored)")
    }

    /// What a probe answered: for a batch, its one item.
    struct Outcome {
        let status: Int
        let code: Int64?
        let bodyText: String

        init(_ reply: TestReply) {
            (status, code, bodyText) = (reply.status, reply.code, reply.bodyText)
        }

        init(batchItem reply: TestReply) {
            let item = reply.json[0]
            status = item?["success"] != nil ? 200 : max(reply.status, 400)
            code = item?["error"]?["code"]?.intValue ?? reply.code
            bodyText = reply.bodyText
        }
    }

    static func send(
        _ probe: Probe, guessRight: Bool, _ client: TestClient, _ endpoint: Endpoint, _ fixture: SecretsFixture, _ auth: TestClient.Auth
    ) async throws -> Outcome {
        let reply = try await reply(probe, guessRight: guessRight, client, endpoint, fixture, auth)
        // A batch answers 200 with a success or an error per item: the item's outcome is what must not differ.
        return [.batchConditionalUpdate, .transactionConditionalUpdate].contains(probe) && reply.status == 200 ? Outcome(batchItem: reply) : Outcome(reply)
    }

    static func reply(
        _ probe: Probe, guessRight: Bool, _ client: TestClient, _ endpoint: Endpoint, _ fixture: SecretsFixture, _ auth: TestClient.Auth
    ) async throws -> TestReply {
        let secret: JSON = .string(guessRight ? SecretsFixture.hiddenSecret : "wrong-guess")
        let number: JSON = .int(guessRight ? SecretsFixture.hiddenNumber - 1 : SecretsFixture.hiddenNumber)
        let email: JSON = .string(guessRight ? SecretsFixture.email : "nobody@example.com")
        let prefix = guessRight ? "S3CRET" : "NOPE"
        let vault = "/classes/Vault/\(fixture.vault)"
        func find(_ className: String, _ condition: JSON) async throws -> TestReply {
            let path = className == "_User" ? "/users" : "/classes/\(className)"
            return try await client.request(endpoint, .get, path + "?" + URLQuery.whereClause(condition), auth: auth)
        }
        func get(_ suffix: String) async throws -> TestReply { try await client.request(endpoint, .get, suffix, auth: auth) }
        func cql(_ statement: String) async throws -> TestReply {
            try await get("/cloudQuery?\(endpoint.dialect == .bmob ? "bql" : "cql")=" + URLQuery.encode(statement))
        }
        let literal = guessRight ? SecretsFixture.hiddenSecret : "wrong-guess"
        switch probe {
        case .whereEqual: return try await find("Vault", ["secret": secret])
        case .whereOr: return try await find("Vault", ["$or": [["label": "none"], ["secret": secret]]])
        case .whereRange: return try await find("Vault", ["hiddenNum": ["$gt": number]])
        case .whereRegex: return try await find("Vault", ["secret": ["$regex": .string("^" + prefix)]])
        case .whereExists: return try await find("Vault", ["secret": ["$exists": .bool(guessRight)]])
        case .whereNotEqual: return try await find("Vault", ["secret": ["$ne": secret]])
        case .inQuery:
            return try await find("Vault", ["owner": ["$inQuery": ["className": "Vault", "where": ["secret": secret]]]])
        case .select:
            return try await find("Vault", ["label": ["$select": ["query": ["className": "Vault", "where": ["label": "open"]], "key": "secret"]]])
        case .order: return try await get("/classes/Vault?order=" + (guessRight ? "secret" : "-hiddenNum"))
        case .groupBy: return try await get("/classes/Vault?groupby=" + (guessRight ? "secret" : "hiddenNum"))
        case .sum: return try await get("/classes/Vault?" + (guessRight ? "sum=hiddenNum" : "max=secret"))
        case .having:
            return try await get("/classes/Vault?groupby=label&sum=hiddenNum&having=" + URLQuery.encode(JSONWriter.string(["_sumHiddenNum": ["$gt": number]])))
        case .cqlWhere: return try await cql("select * from Vault where secret = '\(literal)'")
        case .cqlLike: return try await cql("select * from Vault where secret like '\(prefix)%'")
        case .cqlOrder: return try await cql("select * from Vault order by \(guessRight ? "secret" : "hiddenNum")")
        case .cqlAggregate:
            return endpoint.dialect == .bmob
                ? try await cql("select sum(hiddenNum) from Vault group by label")
                : try await cql("select count(*) from Vault where hiddenNum > \(guessRight ? SecretsFixture.hiddenNumber - 1 : SecretsFixture.hiddenNumber)")
        case .conditionalUpdate:
            return try await client.request(endpoint, .put, vault + "?" + URLQuery.whereClause(["secret": secret]), json: ["label": "changed"], auth: auth)
        case .conditionalDelete:
            return try await client.request(endpoint, .delete, vault + "?" + URLQuery.whereClause(["secret": secret]), auth: auth)
        case .batchConditionalUpdate, .transactionConditionalUpdate:
            var body: [String: JSON] = [
                "requests": [[
                    "method": "PUT", "path": .string(endpoint.prefix + vault), "body": ["label": "changed"],
                    "params": ["where": .string(JSONWriter.string(["secret": secret]))],
                ]],
            ]
            if probe == .transactionConditionalUpdate { body["transaction"] = true }
            return try await client.request(endpoint, .post, "/batch", json: .object(body), auth: auth)
        case .cqlUpdate:
            return try await cql("update Vault set label = 'changed' where objectId = '\(fixture.vault)' and secret = '\(literal)'")
        case .cqlDelete:
            return try await cql("delete from Vault where objectId = '\(fixture.vault)' and secret = '\(literal)'")
        case .userEmail: return try await find("_User", ["email": email])
        case .userEmailRegex: return try await find("_User", ["email": ["$regex": .string(guessRight ? "^owner" : "^nobody")]])
        case .userPhone: return try await find("_User", ["mobilePhoneNumber": .string(guessRight ? SecretsFixture.phone : "10000000000")])
        case .userAuthDataPath:
            return try await find("_User", ["authData.weixin.openid": .string(guessRight ? SecretsFixture.thirdPartyId : "nope")])
        case .userAuthDataExists: return try await find("_User", ["authData": ["$exists": .bool(guessRight)]])
        case .userOrderByEmail: return try await get("/users?order=" + (guessRight ? "email" : "-mobilePhoneNumber"))
        case .userGroupByEmail: return try await get("/users?groupby=" + (guessRight ? "email" : "authData"))
        case .userSelectEmail:
            return try await find("Vault", ["label": ["$select": ["query": ["className": "_User", "where": ["username": .string("owner-\(endpoint.dialect.rawValue)")]], "key": "email"]]])
        case .userInQueryEmail:
            return try await find("Vault", ["owner": ["$inQuery": ["className": "_User", "where": ["email": email]]]])
        case .userCQLLike:
            return try await cql("select * from _User where email like '\(guessRight ? "owner" : "nobody")%'")
        }
    }
}

/// The name of a role is checked on update ("set once"): the check must not tell a caller who may not read the
/// role whether a name it sends is the role's.
@Suite("Attack matrix: role names")
struct RoleNameOracleTests {
    @Test("an update naming a role the caller may not read answers alike for a right and a wrong name", arguments: Endpoint.dialects)
    func roleNameCannotBeGuessed(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let fixture = try await PermissionFixture.make(client, endpoint)
            let secretRole = try await client.request(endpoint, .post, "/roles", json: [
                "name": "HiddenAdmins", "ACL": [.init(stringLiteral: fixture.owner.id): ["read": true, "write": true]],
            ], auth: .master)
            let id = try #require(secretRole.json["objectId"]?.stringValue, "\(secretRole.bodyText)")
            for principal in Principal.allCases where principal != .master && principal != .owner {
                let right = try await client.request(endpoint, .put, "/roles/\(id)", json: ["name": "HiddenAdmins"], auth: fixture.auth(principal))
                let wrong = try await client.request(endpoint, .put, "/roles/\(id)", json: ["name": "Guess"], auth: fixture.auth(principal))
                #expect(right.status >= 400 && right.status == wrong.status && right.code == wrong.code, "\(principal): \(right.bodyText) vs \(wrong.bodyText)")
            }
            let owner = try await client.request(endpoint, .put, "/roles/\(id)", json: ["name": "HiddenAdmins"], auth: fixture.auth(.owner))
            #expect(owner.status == 200, "\(owner.bodyText)")
        }
    }
}
