import CirrusModel
@testable import CirrusServer
import CirrusStorage
@testable import CirrusHTTP
import CirrusTesting
import Foundation
import HTTPTypes
import Testing

/// The web console's server side as an attacker meets it: its headers, its cookie, sign-in limits, CSRF, viewers
/// that may only read, and that its API is the public one with master rights only for a signed-in administrator.
@Suite("Web console")
struct DashboardTests {
    /// A console page directory with an index and a module, for servers whose compiled-in files are not the point.
    static func withPages<T: Sendable>(
        configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in }, _ body: @Sendable (TestClient) async throws -> T
    ) async throws -> T {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try "<!doctype html><title>Cirrus</title><script type=\"module\" src=\"app.js\"></script>".write(
            toFile: directory.path + "/index.html", atomically: true, encoding: .utf8)
        try "export const ready = true;\n".write(toFile: directory.path + "/app.js", atomically: true, encoding: .utf8)
        return try await TestServer.with(configure: { configuration in
            configuration.dashboardDirectory = directory.path
            configure(&configuration)
        }, body)
    }

    /// A signed-in console: its cookie and CSRF token.
    struct Signed: Sendable {
        let cookie: String
        let csrf: String
    }

    static func signIn(_ client: TestClient, _ body: JSON, headers: [String: String] = [:]) async throws -> (TestReply, Signed?) {
        let reply = try await client.send(.leancloud, .post, "/dashboard/session", json: body, auth: .none, headers: headers)
        guard reply.status == 200, let line = reply.header("Set-Cookie"), let csrf = reply.json["csrf"]?.stringValue else { return (reply, nil) }
        let cookie = String(line.split(separator: ";")[0])
        return (reply, Signed(cookie: cookie, csrf: csrf))
    }

    static func api(
        _ client: TestClient, _ method: HTTPRequest.Method, _ path: String, json: JSON? = nil, _ signed: Signed?, csrf: Bool = true,
        headers: [String: String] = [:]
    ) async throws -> TestReply {
        var fields = headers
        if let signed {
            fields["Cookie"] = signed.cookie
            if csrf { fields["X-Cirrus-CSRF"] = signed.csrf }
        }
        return try await client.send(.leancloud, method, "/dashboard/api/1.1" + path, json: json, auth: .none, headers: fields)
    }

    @Test("every console reply forbids framing, sniffing, referrers and foreign content, and carries no CORS header", arguments: [
        "/dashboard", "/dashboard/", "/dashboard/app.js", "/dashboard/missing.js", "/dashboard/session", "/dashboard/api/1.1/classes/Foo",
    ])
    func headers(_ path: String) async throws {
        try await Self.withPages { client in
            let reply = try await client.send(.leancloud, .get, path, auth: .none)
            #expect(reply.header("Content-Security-Policy")?.contains("default-src 'self'") == true, "\(path)")
            #expect(reply.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true, "\(path)")
            #expect(reply.header("X-Frame-Options") == "DENY")
            #expect(reply.header("X-Content-Type-Options") == "nosniff")
            #expect(reply.header("Referrer-Policy") == "no-referrer")
            #expect(reply.header("Access-Control-Allow-Origin") == nil, "\(path)")
        }
    }

    @Test("the console's files are served with their types, and nothing outside them")
    func files() async throws {
        try await Self.withPages { client in
            let index = try await client.send(.leancloud, .get, "/dashboard", auth: .none)
            #expect(index.status == 200 && index.header("Content-Type") == "text/html; charset=utf-8")
            #expect(index.bodyText.contains("app.js"))
            let module = try await client.send(.leancloud, .get, "/dashboard/app.js", auth: .none)
            #expect(module.status == 200 && module.header("Content-Type") == "text/javascript; charset=utf-8")
            for path in ["/dashboard/../keys.json", "/dashboard/%2e%2e/keys.json", "/dashboard/.hidden.js", "/dashboard/x/../../keys.json", "/dashboard/keys.json"] {
                let reply = try await client.send(.leancloud, .get, path, auth: .none)
                #expect(reply.status == 404, "\(path): \(reply.status)")
                #expect(!reply.bodyText.contains(TestServer.keys.masterKey), "\(path)")
            }
            let posted = try await client.send(.leancloud, .post, "/dashboard/app.js", body: "x", auth: .none)
            #expect(posted.status == 405)
        }
    }

    @Test("the files compiled into the server are those of Server/Dashboard, and none holds a key")
    func embedded() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../Dashboard").standardized
        let names = (FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String] ?? [])
            .filter { !$0.hasPrefix(".") && (try? URL(fileURLWithPath: directory.path + "/" + $0).resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
        let compiled = DashboardAssets()
        let onDisk = DashboardAssets(directory: directory.path)
        #expect(Set(names) == Set(DashboardAssets.embedded.keys), "run scripts/dashboard-embed")
        for name in names {
            #expect(compiled.file(name)?.text == onDisk.file(name)?.text, "\(name) differs: run scripts/dashboard-embed")
            let text = onDisk.file(name)?.text ?? ""
            #expect(!text.contains(TestServer.keys.masterKey) && !text.contains(TestServer.keys.appKey), "\(name)")
        }
    }

    @Test("signing in with the master key sets an HttpOnly, SameSite=Strict cookie scoped to the console, Secure behind https")
    func cookie() async throws {
        try await Self.withPages { client in
            let (reply, signed) = try await Self.signIn(client, ["masterKey": .string(TestServer.keys.masterKey)])
            #expect(reply.status == 200, "\(reply.bodyText)")
            let line = try #require(reply.header("Set-Cookie"))
            for attribute in ["HttpOnly", "SameSite=Strict", "Path=/dashboard"] { #expect(line.contains(attribute), "\(line)") }
            #expect(!line.contains("Secure"))
            #expect(reply.json["role"] == "admin" && reply.json["name"] == "master key")
            #expect(!reply.bodyText.contains(TestServer.keys.masterKey) && !line.contains(TestServer.keys.masterKey))
            let session = try await client.send(.leancloud, .get, "/dashboard/session", auth: .none, headers: ["Cookie": signed?.cookie ?? ""])
            #expect(session.status == 200 && session.json["csrf"]?.stringValue == signed?.csrf)
            let (https, _) = try await Self.signIn(client, ["masterKey": .string(TestServer.keys.masterKey)], headers: ["X-Forwarded-Proto": "https"])
            #expect(https.header("Set-Cookie")?.contains("; Secure") == true)
        }
    }

    @Test("a wrong master key is refused, and an address that keeps trying is refused even the right one")
    func signInLimit() async throws {
        // A stopped clock: on a loaded machine eleven requests can take longer than the one-minute window.
        let clock = TestClock()
        try await Self.withPages(configure: { $0.accounts.clock = { clock.now() } }) { client in
            let (wrong, none) = try await Self.signIn(client, ["masterKey": "guess"])
            #expect(wrong.status == 401 && none == nil && wrong.header("Set-Cookie") == nil)
            var statuses: [Int] = []
            for _ in 0..<10 { statuses.append(try await Self.signIn(client, ["masterKey": "guess"]).0.status) }
            #expect(statuses.contains(429), "\(statuses)")
            let (right, signed) = try await Self.signIn(client, ["masterKey": .string(TestServer.keys.masterKey)])
            #expect(right.status == 429 && signed == nil, "\(right.bodyText)")
        }
    }

    @Test("a forged, altered or foreign cookie, or none, opens nothing", arguments: ["", "cirrus_dashboard=forged.value", "altered", "foreign"])
    func cookies(_ kind: String) async throws {
        try await Self.withPages { client in
            let (_, signed) = try await Self.signIn(client, ["masterKey": .string(TestServer.keys.masterKey)])
            let real = try #require(signed)
            var cookie = kind
            if kind == "altered" {
                // The payload says viewer→admin or extends the expiry: flip one payload character.
                let value = real.cookie.dropFirst("cirrus_dashboard=".count)
                let flipped = value.first == "e" ? "f" + value.dropFirst() : "e" + value.dropFirst()
                cookie = "cirrus_dashboard=" + flipped
            } else if kind == "foreign" {
                // Sealed by another app's master key.
                let other = DashboardSessionCodec(masterKey: "another-master-key").seal(
                    DashboardSession(signer: .masterKey, role: .admin, expiresAt: Timestamp.now().adding(.seconds(3600))))
                cookie = "cirrus_dashboard=" + other
            }
            let headers = cookie.isEmpty ? [:] : ["Cookie": cookie, "X-Cirrus-CSRF": real.csrf]
            let session = try await client.send(.leancloud, .get, "/dashboard/session", auth: .none, headers: headers)
            #expect(session.status == 401)
            // Every read the console offers: the API, the live view, the request log (ring and file), settings, imports, accounts.
            let reads = [
                "/dashboard/api/1.1/classes/_User", "/dashboard/changes?className=_User", "/dashboard/requests",
                "/dashboard/requests?source=file", "/dashboard/settings", "/dashboard/imports", "/dashboard/users/nobody000000/account",
            ]
            for path in reads {
                let read = try await client.send(.leancloud, .get, path, auth: .none, headers: headers)
                #expect(read.status == 401, "\(path): \(read.bodyText)")
                // The API's own credentials do not open the console either.
                let keyed = try await client.send(.leancloud, .get, path, auth: .master)
                #expect(keyed.status == 401, "\(path) with the master key's headers: \(keyed.bodyText)")
            }
        }
    }

    @Test("a change through the console's API needs its CSRF token, and a refused one writes nothing")
    func csrf() async throws {
        try await Self.withPages { client in
            let signed = try #require(try await Self.signIn(client, ["masterKey": .string(TestServer.keys.masterKey)]).1)
            let missing = try await Self.api(client, .post, "/classes/Note", json: ["t": "a"], signed, csrf: false)
            #expect(missing.status == 403, "\(missing.bodyText)")
            let wrong = try await Self.api(client, .post, "/classes/Note", json: ["t": "b"], signed, csrf: false, headers: ["X-Cirrus-CSRF": "x" + signed.csrf])
            #expect(wrong.status == 403)
            let stored = try await client.send(.leancloud, .get, "/1.1/classes/Note", auth: .master)
            #expect(stored.json["results"]?.arrayValue?.isEmpty ?? true, "\(stored.bodyText)")
            let made = try await Self.api(client, .post, "/classes/Note", json: ["t": "c"], signed)
            #expect(made.status == 201, "\(made.bodyText)")
            #expect(made.header("Access-Control-Allow-Origin") == nil)
            let read = try await Self.api(client, .get, "/classes/Note", signed, csrf: false)
            #expect(read.json["results"]?.arrayValue?.map { $0["t"] } == ["c"])
            // Signing out needs the token too, and then the cookie opens nothing.
            let out = try await client.send(.leancloud, .delete, "/dashboard/session", auth: .none, headers: ["Cookie": signed.cookie])
            #expect(out.status == 403)
        }
    }

    /// A user in `role`, made over the API with the master key; its username and password.
    static func administrator(_ client: TestClient, role: String?) async throws -> (String, String) {
        let name = "admin" + UUID().uuidString.prefix(8).lowercased()
        let user = try await client.send(.leancloud, .post, "/1.1/users", json: ["username": .string(name), "password": "p4ssword"])
        #expect(user.status == 201, "\(user.bodyText)")
        if let role, let id = user.json["objectId"]?.stringValue {
            let pointer: JSON = ["__type": "Pointer", "className": "_User", "objectId": .string(id)]
            let made = try await client.send(.leancloud, .post, "/1.1/roles", json: [
                "name": .string(role), "ACL": ["*": ["read": true]], "users": ["__op": "AddRelation", "objects": [pointer]],
            ], auth: .master)
            #expect(made.status == 201, "\(made.bodyText)")
        }
        return (name, "p4ssword")
    }

    @Test("a viewer reads through the console but changes nothing, not even by CQL")
    func viewer() async throws {
        try await Self.withPages { client in
            let note = try await client.send(.leancloud, .post, "/1.1/classes/Note", json: ["t": "kept", "ACL": [:]], auth: .master)
            let id = try #require(note.json["objectId"]?.stringValue)
            let (name, password) = try await Self.administrator(client, role: "DashboardViewer")
            let (reply, signed) = try await Self.signIn(client, ["username": .string(name), "password": .string(password)])
            #expect(reply.json["role"] == "viewer", "\(reply.bodyText)")
            let viewer = try #require(signed)
            // It reads what only the master key may read (the object's ACL is empty).
            let read = try await Self.api(client, .get, "/classes/Note/" + id, viewer)
            #expect(read.json["t"] == "kept", "\(read.bodyText)")
            let select = try await Self.api(client, .get, "/cloudQuery?cql=" + URLQuery.encode("select * from Note"), viewer)
            #expect(select.status == 200, "\(select.bodyText)")
            for (method, path, body) in [
                (HTTPRequest.Method.post, "/classes/Note", ["t": "new"] as JSON?), (.put, "/classes/Note/" + id, ["t": "changed"]),
                (.delete, "/classes/Note/" + id, nil), (.post, "/batch", ["requests": [["method": "DELETE", "path": .string("/1.1/classes/Note/" + id)]]]),
                (.get, "/cloudQuery?cql=" + URLQuery.encode("delete from Note where objectId = '\(id)'"), nil),
                (.get, "/cloudQuery?cql=" + URLQuery.encode("update Note set t = 'changed' where objectId = '\(id)'"), nil),
                (.put, "/schemas/Note", ["classLevelPermissions": ["find": ["*": true]]]), (.delete, "/schemas/Note", nil),
            ] {
                let refused = try await Self.api(client, method, path, json: body, viewer)
                #expect(refused.status == 403, "\(method) \(path): \(refused.status) \(refused.bodyText)")
            }
            let stored = try await client.send(.leancloud, .get, "/1.1/classes/Note/" + id, auth: .master)
            #expect(stored.json["t"] == "kept", "\(stored.bodyText)")
            #expect(try await client.send(.leancloud, .get, "/1.1/classes/Note", auth: .master).json["results"]?.arrayValue?.count == 1)
            // No credential either: a user's session token (which the master key reads) or an export's archive.
            let users = try await Self.api(client, .get, "/users", viewer)
            let userId = try #require(users.json["results"]?[0]?["objectId"]?.stringValue, "\(users.bodyText)")
            let user = try await Self.api(client, .get, "/users/" + userId, viewer)
            #expect(user.status == 200 && user.json["sessionToken"] == nil, "\(user.bodyText)")
            let asMaster = try await client.send(.leancloud, .get, "/1.1/users/" + userId, auth: .master)
            #expect(asMaster.json["sessionToken"]?.stringValue != nil)
            let export = try await client.send(.leancloud, .post, "/1.1/exportData", json: [:], auth: .master)
            let exportId = try #require(export.json["id"]?.stringValue, "\(export.bodyText)")
            let status = try await Self.api(client, .get, "/exportData/" + exportId, viewer)
            #expect(status.status == 403 && !status.bodyText.contains("download_url"), "\(status.bodyText)")
        }
    }

    @Test("a user in neither console role cannot sign in, and its new session is revoked")
    func outsider() async throws {
        try await Self.withPages { client in
            let (name, password) = try await Self.administrator(client, role: nil)
            let (reply, signed) = try await Self.signIn(client, ["username": .string(name), "password": .string(password)])
            #expect(reply.status == 403 && signed == nil, "\(reply.bodyText)")
            let (wrong, _) = try await Self.signIn(client, ["username": .string(name), "password": "wrong"])
            #expect(wrong.status == 401 || wrong.status == 400, "\(wrong.status) \(wrong.bodyText)")
            // Only the sign-up's session remains.
            let users = try await client.send(.leancloud, .get, "/1.1/users", auth: .master)
            let userId = try #require(users.json["results"]?[0]?["objectId"]?.stringValue)
            #expect(try await client.store.sessions(userId: userId).count == 1)
        }
    }

    @Test("an administrator's console session ends when its user leaves the role")
    func roleChecked() async throws {
        try await Self.withPages { client in
            let (name, password) = try await Self.administrator(client, role: "DashboardAdmin")
            let signed = try #require(try await Self.signIn(client, ["username": .string(name), "password": .string(password)]).1)
            let made = try await Self.api(client, .post, "/classes/Note", json: ["t": "by admin"], signed)
            #expect(made.status == 201, "\(made.bodyText)")
            let roles = try await client.send(.leancloud, .get, "/1.1/roles", auth: .master)
            let roleId = try #require(roles.json["results"]?[0]?["objectId"]?.stringValue)
            let users = try await client.send(.leancloud, .get, "/1.1/users", auth: .master)
            let userId = try #require(users.json["results"]?[0]?["objectId"]?.stringValue)
            let pointer: JSON = ["__type": "Pointer", "className": "_User", "objectId": .string(userId)]
            let removed = try await client.send(.leancloud, .put, "/1.1/roles/" + roleId, json: ["users": ["__op": "RemoveRelation", "objects": [pointer]]], auth: .master)
            #expect(removed.status == 200, "\(removed.bodyText)")
            var status = 0
            for _ in 0..<40 {
                status = try await Self.api(client, .get, "/classes/Note", signed).status
                if status == 401 { break }
                try await Task.sleep(for: .milliseconds(250))
            }
            #expect(status == 401)
        }
    }

    @Test("the request log shows recent requests with status, dialect, error code, caller and time, filtered, and no credential")
    func requestLog() async throws {
        try await Self.withPages { client in
            let signed = try #require(try await Self.signIn(client, ["masterKey": .string(TestServer.keys.masterKey)]).1)
            _ = try await client.send(.leancloud, .post, "/1.1/classes/Note", json: ["t": "a"])
            _ = try await client.send(.parse, .get, "/parse/classes/Note/missing1", auth: .appKey)
            _ = try await client.send(.leancloud, .get, "/1.1/classes/Note?where=" + URLQuery.encode(#"{"t":{"$bad":1}}"#), auth: .master)
            _ = try await Self.api(client, .get, "/classes/Note?limit=5", signed)
            let unsigned = try await client.send(.leancloud, .get, "/dashboard/requests", auth: .none)
            #expect(unsigned.status == 401)
            let all = try await client.send(.leancloud, .get, "/dashboard/requests", auth: .none, headers: ["Cookie": signed.cookie])
            let entries = try #require(all.json["results"]?.arrayValue)
            #expect(entries.first?["path"] == "/1.1/classes/Note?limit=5" && entries.first?["caller"] == "console: master key", "\(all.bodyText)")
            let missing = try #require(entries.first { $0["path"] == "/parse/classes/Note/missing1" })
            #expect(missing["status"] == 404 && missing["code"] == 101 && missing["dialect"] == "parse" && missing["caller"] == "client")
            #expect(entries.contains { $0["method"] == "POST" && $0["status"] == 201 && $0["code"] == nil })
            #expect(entries.allSatisfy { $0["milliseconds"]?.doubleValue != nil && $0["time"]?["iso"] != nil })
            #expect(!entries.contains { $0["path"]?.stringValue?.hasPrefix("/dashboard") == true })
            for secret in [TestServer.keys.masterKey, TestServer.keys.appKey, signed.csrf] { #expect(!all.bodyText.contains(secret)) }
            // Credentials in query strings (an e-mailed link's token, a signed URL's signature) are not kept.
            _ = try await client.send(.leancloud, .get, "/auth/reset-password?token=LINK-SECRET-1", auth: .none)
            _ = try await client.send(.leancloud, .get, "/1.1/exportData/x/download?expires=1&signature=SIGNED-SECRET-2", auth: .none)
            let redacted = try await client.send(.leancloud, .get, "/dashboard/requests?path=reset-password", auth: .none, headers: ["Cookie": signed.cookie])
            #expect(redacted.json["results"]?[0]?["path"] == "/auth/reset-password?token=•••", "\(redacted.bodyText)")
            let signedURL = try await client.send(.leancloud, .get, "/dashboard/requests?path=download", auth: .none, headers: ["Cookie": signed.cookie])
            #expect(signedURL.json["results"]?[0]?["path"] == "/1.1/exportData/x/download?expires=•••&signature=•••", "\(signedURL.bodyText)")
            let errors = try await client.send(.leancloud, .get, "/dashboard/requests?status=4xx&dialect=leancloud", auth: .none, headers: ["Cookie": signed.cookie])
            let refused = try #require(errors.json["results"]?.arrayValue)
            #expect(refused.first?["path"]?.stringValue?.contains("where=") == true, "\(errors.bodyText)")
        }
    }

    @Test("the settings read-out shows the store and services with the keys masked, to signed-in administrators only")
    func settings() async throws {
        try await Self.withPages { client in
            let unsigned = try await client.send(.leancloud, .get, "/dashboard/settings", auth: .none)
            #expect(unsigned.status == 401)
            let signed = try #require(try await Self.signIn(client, ["masterKey": .string(TestServer.keys.masterKey)]).1)
            let reply = try await client.send(.leancloud, .get, "/dashboard/settings", auth: .none, headers: ["Cookie": signed.cookie])
            #expect(reply.json["keys"]?["appId"]?.stringValue == TestServer.keys.appId, "\(reply.bodyText)")
            #expect(reply.json["keys"]?["masterKey"]?.stringValue == String(TestServer.keys.masterKey.prefix(4)) + "…")
            #expect(!reply.bodyText.contains(TestServer.keys.masterKey) && !reply.bodyText.contains(TestServer.keys.appKey))
            #expect(["sqlite", "postgres"].contains(reply.json["store"]?["kind"]?.stringValue ?? ""))
            #expect(ServerConfiguration.withoutPassword("postgres://app:s3cret@db.example.com:5432/app") == "postgres://app:***@db.example.com:5432/app")
            #expect(ServerConfiguration.withoutPassword("postgres://app@db/app?sslmode=require") == "postgres://app@db/app?sslmode=require")
            #expect(reply.json["version"]?.stringValue?.isEmpty == false && reply.json["mail"]?["kind"] == "outbox")
        }
    }

    @Test("an export uploaded to the console is imported in the background with its progress readable, by administrators only")
    func imports() async throws {
        try await Self.withPages { client in
            let signed = try #require(try await Self.signIn(client, ["masterKey": .string(TestServer.keys.masterKey)]).1)
            let lines = (1...3).map { #"{"objectId":"5f000000000000000000000\#($0)","n":\#($0),"createdAt":"2020-01-01T00:00:00.000Z","updatedAt":"2020-01-01T00:00:00.000Z"}"# }
            let body = lines.joined(separator: "\n") + "\n"
            func upload(_ query: String, _ signed: Signed, csrf: Bool = true) async throws -> TestReply {
                var headers = ["Cookie": signed.cookie]
                if csrf { headers["X-Cirrus-CSRF"] = signed.csrf }
                return try await client.send(.leancloud, .post, "/dashboard/imports?" + query, body: body, auth: .none, headers: headers)
            }
            #expect(try await upload("from=leancloud&name=Post.jsonl", signed, csrf: false).status == 403)
            #expect(try await upload("from=nowhere&name=Post.jsonl", signed).status == 400)
            #expect(try await upload("from=leancloud&name=Post.exe", signed).status == 400)
            let started = try await upload("from=leancloud&name=Post.jsonl", signed)
            #expect(started.status == 202 && started.json["status"] == "running", "\(started.bodyText)")
            let id = try #require(started.json["id"]?.stringValue)
            var status = started
            for _ in 0..<100 where status.json["status"] == "running" {
                try await Task.sleep(for: .milliseconds(100))
                status = try await client.send(.leancloud, .get, "/dashboard/imports/" + id, auth: .none, headers: ["Cookie": signed.cookie])
            }
            #expect(status.json["status"] == "succeeded" && status.json["records"] == 3, "\(status.bodyText)")
            #expect(status.json["summary"]?["imported"] == 3 && status.json["doneBytes"] == status.json["totalBytes"])
            let stored = try await client.send(.leancloud, .get, "/1.1/classes/Post?order=n", auth: .master)
            #expect(stored.json["results"]?.arrayValue?.map { $0["n"] } == [1, 2, 3], "\(stored.bodyText)")
            let listed = try await client.send(.leancloud, .get, "/dashboard/imports", auth: .none, headers: ["Cookie": signed.cookie])
            #expect(listed.json["results"]?[0]?["id"]?.stringValue == id)
            // A viewer sees the imports but starts none.
            let (name, password) = try await Self.administrator(client, role: "DashboardViewer")
            let viewer = try #require(try await Self.signIn(client, ["username": .string(name), "password": .string(password)]).1)
            #expect(try await upload("from=leancloud&name=Other.jsonl", viewer).status == 403)
            let unsigned = try await client.send(.leancloud, .get, "/dashboard/imports", auth: .none)
            #expect(unsigned.status == 401)
        }
    }

    @Test("the account view shows a lock-out and sessions without tokens; unlocking and revoking every session work for administrators")
    func accounts() async throws {
        try await Self.withPages { client in
            let signed = try #require(try await Self.signIn(client, ["masterKey": .string(TestServer.keys.masterKey)]).1)
            let user = try await client.send(.leancloud, .post, "/1.1/users", json: ["username": "locked", "password": "right-pass"])
            let userId = try #require(user.json["objectId"]?.stringValue)
            let token = try #require(user.json["sessionToken"]?.stringValue)
            let parse = try await client.send(.parse, .post, "/parse/login", json: ["username": "locked", "password": "right-pass"])
            let parseToken = try #require(parse.json["sessionToken"]?.stringValue, "\(parse.bodyText)")
            for _ in 0..<7 { _ = try await client.send(.leancloud, .post, "/1.1/login", json: ["username": "locked", "password": "wrong"]) }
            func account() async throws -> TestReply {
                try await client.send(.leancloud, .get, "/dashboard/users/\(userId)/account", auth: .none, headers: ["Cookie": signed.cookie])
            }
            let shown = try await account()
            #expect(shown.json["locked"] == true && shown.json["lockedUntil"]?["iso"] != nil, "\(shown.bodyText)")
            #expect(shown.json["sessions"]?.arrayValue?.count == 2 && !shown.bodyText.contains(token) && !shown.bodyText.contains(parseToken))
            func post(_ action: String, _ who: Signed, csrf: Bool = true) async throws -> TestReply {
                var headers = ["Cookie": who.cookie]
                if csrf { headers["X-Cirrus-CSRF"] = who.csrf }
                return try await client.send(.leancloud, .post, "/dashboard/users/\(userId)/\(action)", auth: .none, headers: headers)
            }
            #expect(try await post("unlock", signed, csrf: false).status == 403)
            #expect(try await post("unlock", signed).status == 200)
            #expect(try await account().json["locked"] == false)
            let again = try await client.send(.leancloud, .post, "/1.1/login", json: ["username": "locked", "password": "right-pass"])
            #expect(again.status == 200, "\(again.bodyText)")
            let revoked = try await post("revoke-sessions", signed)
            #expect(revoked.json["revoked"]?.intValue ?? 0 >= 2, "\(revoked.bodyText)")
            #expect(try await client.send(.leancloud, .get, "/1.1/users/me", auth: .session(token)).status >= 400)
            #expect(try await client.send(.parse, .get, "/parse/users/me", auth: .session(parseToken)).status >= 400)
            #expect(try await account().json["sessions"]?.arrayValue?.isEmpty == true)
            let unknown = try await client.send(.leancloud, .get, "/dashboard/users/nobody000000/account", auth: .none, headers: ["Cookie": signed.cookie])
            #expect(unknown.status == 404)
            // A viewer sees the account but changes nothing.
            let (name, password) = try await Self.administrator(client, role: "DashboardViewer")
            let viewer = try #require(try await Self.signIn(client, ["username": .string(name), "password": .string(password)]).1)
            #expect(try await client.send(.leancloud, .get, "/dashboard/users/\(userId)/account", auth: .none, headers: ["Cookie": viewer.cookie]).status == 200)
            #expect(try await post("revoke-sessions", viewer).status == 403)
            #expect(try await post("unlock", viewer).status == 403)
        }
    }

    @Test("with the console turned off, /dashboard is not served")
    func off() async throws {
        try await Self.withPages(configure: { $0.dashboard = false }) { client in
            let page = try await client.send(.leancloud, .get, "/dashboard", auth: .none)
            #expect(page.status == 404)
            let (reply, signed) = try await Self.signIn(client, ["masterKey": .string(TestServer.keys.masterKey)])
            #expect(reply.status == 404 && signed == nil)
        }
    }
}
