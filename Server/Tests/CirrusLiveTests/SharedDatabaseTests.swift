import CirrusTesting
import Foundation
import Testing

/// Two `cirrus serve` processes on one PostgreSQL database, as behind a load balancer: each sees the other's writes,
/// and concurrent requests through both lose no update.
@Suite("Two live servers on one PostgreSQL database")
struct SharedDatabaseTests {
    /// Starts two servers on a new schema of the test server and runs `body` with both.
    static func withTwoServers(_ body: @Sendable (LiveServer, LiveServer) async throws -> Void) async throws {
        try await PostgresTestDatabase.withSchema(poolSize: 8) { url in
            try await Sandbox.with { sandbox in
                async let first = sandbox.startServer(dataDirectory: sandbox.path("a"), extra: ["--database", url])
                async let second = sandbox.startServer(dataDirectory: sandbox.path("b"), extra: ["--database", url])
                let (a, b) = try await (first, second)
                try await body(a, b)
                try await a.stopCleanly()
                try await b.stopCleanly()
            }
        }
    }

    @Test("an object written through one server is read, found and counted through the other")
    func readsAcross() async throws {
        try await Self.withTwoServers { a, b in
            let created = try await a.client.send("POST", "/1.1/classes/Note", json: ["text": "hello", "n": 1])
            #expect(created.status == 201)
            let id = try #require(created.json["objectId"]?.stringValue)
            #expect(try await b.client.send("GET", "/1.1/classes/Note/\(id)").json["text"] == "hello")
            let counted = try await b.client.send("GET", "/1.1/classes/Note?count=1&limit=0")
            #expect(counted.json["count"] == 1)
            #expect(try await b.client.send("PUT", "/1.1/classes/Note/\(id)", json: ["text": "edited"]).status == 200)
            #expect(try await a.client.send("GET", "/1.1/classes/Note/\(id)").json["text"] == "edited")
        }
    }

    @Test("60 concurrent increments and 30 conditional decrements split over both servers lose no update")
    func noLostUpdates() async throws {
        try await Self.withTwoServers { a, b in
            let created = try await a.client.send("POST", "/1.1/classes/Stock", json: ["views": 0, "left": 10])
            let id = try #require(created.json["objectId"]?.stringValue)
            let path = "/1.1/classes/Stock/\(id)"
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<60 {
                    let client = index.isMultiple(of: 2) ? a.client : b.client
                    group.addTask { try await client.send("PUT", path, json: ["views": ["__op": "Increment", "amount": 1]]).status }
                }
                for try await status in group { #expect(status == 200) }
            }
            let condition = "?where=" + (#"{"left":{"$gt":0}}"#.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            let outcomes = try await withThrowingTaskGroup(of: Int64?.self) { group in
                for index in 0..<30 {
                    let client = index.isMultiple(of: 2) ? a.client : b.client
                    group.addTask {
                        let reply = try await client.send("PUT", path + condition, json: ["left": ["__op": "Decrement", "amount": 1]])
                        return reply.status == 200 ? 0 : reply.code
                    }
                }
                var all: [Int64?] = []
                for try await outcome in group { all.append(outcome) }
                return all
            }
            #expect(outcomes.filter { $0 == 0 }.count == 10)
            #expect(outcomes.filter { $0 == 305 }.count == 20)
            let final = try await b.client.send("GET", path).json
            #expect(final["views"] == 60)
            #expect(final["left"] == 0)
        }
    }

    @Test("sessions made on one server work on the other, and wrong passwords through both lock the account together")
    func accountsAcross() async throws {
        try await Self.withTwoServers { a, b in
            let signUp = try await a.client.send("POST", "/1.1/users", json: ["username": "shared", "password": "right-pass"])
            let token = try #require(signUp.json["sessionToken"]?.stringValue)
            let headers = ["X-LC-Id": Sandbox.keys.appId, "X-LC-Key": Sandbox.keys.appKey, "X-LC-Session": token]
            #expect(try await b.client.send("GET", "/1.1/users/me", headers: headers).json["username"] == "shared")
            for attempt in 1...6 {
                let server = attempt.isMultiple(of: 2) ? a : b
                let reply = try await server.client.send("POST", "/1.1/login", json: ["username": "shared", "password": .string("wrong-\(attempt)")])
                #expect(reply.code == 210, "attempt \(attempt)")
            }
            #expect(try await a.client.send("POST", "/1.1/login", json: ["username": "shared", "password": "wrong-7"]).code == 219)
            #expect(try await b.client.send("POST", "/1.1/login", json: ["username": "shared", "password": "right-pass"]).code == 219)
        }
    }

    /// Polls `check` until it holds or `limit` has passed; true when it held.
    static func eventually(within limit: Duration, _ check: @Sendable () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if try await check() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try await check()
    }

    @Test("class permissions set through one server apply on the other, whose cached schema the change notice drops")
    func schemaChangesReachTheOther() async throws {
        try await Self.withTwoServers { a, b in
            #expect(try await a.client.send("POST", "/1.1/classes/Secret", json: ["n": 1]).status == 201)
            #expect(try await b.client.send("GET", "/1.1/classes/Secret").status == 200)
            let master = ["X-LC-Id": Sandbox.keys.appId, "X-LC-Key": Sandbox.keys.masterKey + ",master", "Content-Type": "application/json"]
            let closed = try await a.client.send("PUT", "/1.1/schemas/Secret", json: ["classLevelPermissions": ["find": [:], "get": [:]]], headers: master)
            #expect(closed.status == 200, "\(closed.bodyText)")
            // The notice travels in milliseconds; without it the other server would never reload the schema.
            #expect(try await Self.eventually(within: .seconds(10)) { try await b.client.send("GET", "/1.1/classes/Secret").code == 403 })
        }
    }

    @Test("a session revoked through one server is refused by the other before its session cache would expire")
    func revocationsReachTheOther() async throws {
        try await Self.withTwoServers { a, b in
            let parse: @Sendable (String?) -> [String: String] = { token in
                var headers = ["X-Parse-Application-Id": Sandbox.keys.appId, "X-Parse-REST-API-Key": Sandbox.keys.appKey]
                headers["X-Parse-Session-Token"] = token
                return headers
            }
            let signUp = try await a.client.send("POST", "/parse/users", json: ["username": "roamer", "password": "pass-1"], headers: parse(nil))
            let token = try #require(signUp.json["sessionToken"]?.stringValue)
            let userId = try #require(signUp.json["objectId"]?.stringValue)
            let diary = try await a.client.send("POST", "/parse/classes/Diary", json: ["text": "private", "ACL": .object([userId: ["read": true]])], headers: parse(token))
            let path = "/parse/classes/Diary/" + (diary.json["objectId"]?.stringValue ?? "")
            // The other server resolves the token once and caches who it stands for.
            #expect(try await b.client.send("GET", path, headers: parse(token)).json["text"] == "private")
            #expect(try await a.client.send("POST", "/parse/logout", headers: parse(token)).status == 200)
            // Below the 5-second lifetime of the session cache: only the notice can make the other server forget.
            #expect(try await Self.eventually(within: .seconds(3)) { try await b.client.send("GET", path, headers: parse(token)).code == 209 })
        }
    }
}
