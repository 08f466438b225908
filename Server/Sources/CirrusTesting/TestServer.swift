package import CirrusHTTP
package import CirrusModel
package import CirrusServer
package import CirrusServices
package import CirrusStorage
import Foundation
package import HTTPTypes
import Logging
import Hummingbird
import HummingbirdTesting

/// An in-process server on a fresh store (a SQLite file, or a PostgreSQL schema with `CIRRUS_TEST_STORE=postgres`),
/// driven without sockets, for HTTP tests.
package enum TestServer {
    /// The keys every test server uses.
    package static let keys = AppKeys(appId: "test-app-id", appKey: "test-app-key", masterKey: "test-master-key")

    /// The request deadline of test servers: long, so that only the tests of deadlines meet it.
    package static let requestTimeout: Duration = .seconds(600)

    /// Account settings for tests: scrypt with N = 2^4, so that the many sign-ups of a test run stay quick. The
    /// production cost is covered by the password hasher's own tests.
    package static let fastAccounts = AccountSettings(passwordCost: PasswordHasher.Cost(log2N: 4, blockSize: 8, parallelism: 1))

    /// Runs `body` against a new server with an empty database, then removes its data directory.
    ///
    /// The application's services run around `body`, so the store is closed by the server's own graceful
    /// shutdown, exactly as `cirrus serve` closes it.
    /// - Parameters:
    ///   - maximumObjectSize: the largest object document accepted, in bytes.
    ///   - maximumBodySize: the largest request body accepted, in bytes.
    ///   - accounts: password, session and lock-out settings; by default a cheap password hash (tests hash many).
    ///   - configure: changes to the server configuration, made after the in-memory outboxes were set as its mail
    ///     and SMS transports (set ``ServerConfiguration/mailSender`` to `nil` and ``ServerConfiguration/smtp`` to
    ///     test a real SMTP client).
    ///   - sharedDatabase: a PostgreSQL URL another test server uses too (two instances on one database); by default
    ///     a new database of the store ``TestStore`` chooses.
    package static func with<T: Sendable>(
        maximumObjectSize: Int = 131_072, maximumBodySize: Int = 20 * 1024 * 1024, accounts: AccountSettings = fastAccounts,
        sharedDatabase: String? = nil, configure: @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (TestClient) async throws -> T
    ) async throws -> T {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let withDatabase: (@Sendable (String?) async throws -> T) async throws -> T = { run in
            if let sharedDatabase { try await run(sharedDatabase) } else { try await TestStore.withDatabase(run) }
        }
        return try await withDatabase { databaseURL in
            var configuration = ServerConfiguration(
                dataDirectory: directory.path, databaseURL: databaseURL, keys: keys, maximumObjectSize: maximumObjectSize,
                maximumBodySize: maximumBodySize, logLevel: .warning, accounts: accounts
            )
            let mailOutbox = OutboxMailSender()
            let smsOutbox = OutboxSMSSender()
            configuration.mailSender = mailOutbox
            configuration.smsSender = smsOutbox
            // LiveQuery's WebSocket on a free port: servers of tests running at once must not share one.
            configuration.liveQuery.port = 0
            // Debug builds of the whole suite on a busy machine are slow: the request deadline, the statement timeout and
            // the wait for a pool connection (2 per test schema) are for the tests of them.
            configuration.transport.requestTimeout = TestServer.requestTimeout
            configuration.resilience.statementTimeout = TestServer.requestTimeout
            configuration.resilience.databaseWaitTimeout = PostgresTestDatabase.connectionWait
            configure(&configuration)
            let server = try await CirrusServer.build(configuration)
            return try await server.application.test(.router) { client in
                try await body(TestClient(client: client, store: server.store, changes: server.changes, mailOutbox: mailOutbox, smsOutbox: smsOutbox))
            }
        }
    }
}

/// A client that speaks each dialect's headers.
package struct TestClient: Sendable {
    let client: any TestClientProtocol
    /// The server's store, for checks that no endpoint exposes yet (relation members).
    package let store: any StorageAdapter
    /// The object changes the server publishes to its subscribers.
    package let changes: ChangeLog
    /// The e-mails the server sent (unless a test configured another mail transport).
    package let mailOutbox: OutboxMailSender
    /// The SMS messages the server sent (unless a test configured another SMS transport).
    package let smsOutbox: OutboxSMSSender

    /// How a request authenticates.
    package enum Auth: Sendable {
        /// The app id and app key.
        case appKey
        /// The master key.
        case master
        /// No credentials.
        case none
        /// Exactly these headers.
        case headers([String: String])
        /// The app key and a user's session token.
        case session(String)
    }

    /// Sends a request. `path` includes the dialect prefix (`/1.1/classes/Post`).
    package func send(
        _ dialect: Dialect, _ method: HTTPRequest.Method, _ path: String, json: JSON? = nil, auth: Auth = .appKey,
        headers: [String: String] = [:]
    ) async throws -> TestReply {
        try await send(dialect, method, path, body: json.map(JSONWriter.string), auth: auth, headers: headers)
    }

    /// Sends a request with a raw text body.
    package func send(
        _ dialect: Dialect, _ method: HTTPRequest.Method, _ path: String, body: String?, auth: Auth = .appKey,
        headers: [String: String] = [:]
    ) async throws -> TestReply {
        var fields = HTTPFields()
        for (name, value) in Self.authHeaders(dialect, auth).merging(headers, uniquingKeysWith: { $1 }) {
            fields[HTTPField.Name(name)!] = value
        }
        if body != nil, fields[.contentType] == nil { fields[.contentType] = "application/json" }
        let response = try await client.executeRequest(
            uri: path, method: method, headers: fields, body: body.map { ByteBuffer(string: $0) }
        )
        return TestReply(status: Int(response.status.code), headers: response.headers, bodyText: String(buffer: response.body))
    }

    /// Sends a request without any dialect's headers (only `headers`): the account pages (`/auth/…`) that browsers
    /// open, `/metrics`. A `form` is sent form-encoded.
    package func browse(
        _ method: HTTPRequest.Method, _ path: String, form: [String: String]? = nil, headers: [String: String] = [:]
    ) async throws -> TestReply {
        var fields = HTTPFields()
        for (name, value) in headers { fields[HTTPField.Name(name)!] = value }
        var body: ByteBuffer?
        if let form {
            fields[.contentType] = "application/x-www-form-urlencoded"
            body = ByteBuffer(string: form.map { "\(Self.formEncode($0.key))=\(Self.formEncode($0.value))" }.joined(separator: "&"))
        }
        let response = try await client.executeRequest(uri: path, method: method, headers: fields, body: body)
        return TestReply(status: Int(response.status.code), headers: response.headers, bodyText: String(buffer: response.body))
    }

    /// `application/x-www-form-urlencoded` encoding of one name or value.
    static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._*")
        return (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text).replacingOccurrences(of: "%20", with: "+")
    }

    package static func authHeaders(_ dialect: Dialect, _ auth: Auth) -> [String: String] {
        let keys = TestServer.keys
        switch (dialect, auth) {
        case (_, .none): return [:]
        case (_, .headers(let headers)): return headers
        case (.leancloud, .appKey): return ["X-LC-Id": keys.appId, "X-LC-Key": keys.appKey]
        case (.leancloud, .master): return ["X-LC-Id": keys.appId, "X-LC-Key": keys.masterKey + ",master"]
        case (.parse, .appKey): return ["X-Parse-Application-Id": keys.appId, "X-Parse-REST-API-Key": keys.appKey]
        case (.parse, .master): return ["X-Parse-Application-Id": keys.appId, "X-Parse-Master-Key": keys.masterKey]
        case (.bmob, .appKey): return ["X-Bmob-Application-Id": keys.appId, "X-Bmob-REST-API-Key": keys.appKey]
        case (.bmob, .master): return ["X-Bmob-Application-Id": keys.appId, "X-Bmob-REST-API-Key": keys.appKey, "X-Bmob-Master-Key": keys.masterKey]
        case (.leancloud, .session(let token)): return authHeaders(dialect, .appKey).merging(["X-LC-Session": token]) { $1 }
        case (.parse, .session(let token)): return authHeaders(dialect, .appKey).merging(["X-Parse-Session-Token": token]) { $1 }
        case (.bmob, .session(let token)): return authHeaders(dialect, .appKey).merging(["X-Bmob-Session-Token": token]) { $1 }
        }
    }
}

/// A reply: status, headers and body, with the body parsed on demand.
package struct TestReply: Sendable {
    package let status: Int
    package let headers: HTTPFields
    package let bodyText: String

    /// The body as JSON; `null` when it does not parse.
    package var json: JSON {
        (try? JSONParser.parse(bodyText)) ?? .null
    }

    /// The `code` of an error body.
    package var code: Int64? { json["code"]?.intValue }

    /// The value of a response header.
    package func header(_ name: String) -> String? {
        HTTPField.Name(name).flatMap { headers[$0] }
    }

    /// The members of an object body, sorted (empty for anything else).
    package var keys: [String] {
        guard case .object(let members) = json else { return [] }
        return members.keys.sorted()
    }
}

/// A directory under the system's temporary directory, removed by `remove()`.
package struct TemporaryDirectory: Sendable {
    package let path: String

    package init() throws {
        path = NSTemporaryDirectory() + "cirrus-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    package func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
