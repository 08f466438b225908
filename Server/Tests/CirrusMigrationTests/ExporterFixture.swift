import CirrusFileStorage
import CirrusMigration
import CirrusServer
import CirrusTesting
import Foundation
import Testing

/// Which store an export test runs on.
enum ExportStore: String, CaseIterable, CustomStringConvertible {
    case sqlite, postgres
    var description: String { rawValue }
}

/// A server on a real store with data of every kind, and helpers to read an export back.
struct ExporterFixture: Sendable {
    let client: TestClient
    let storage: LocalFileStorage
    var tags: [String] = []
    var things: [String] = []
    var fileId = ""
    var fileKey = ""
    var users: [String: String] = [:]
    var stableToken = ""
    var role = ""

    static let date: JSON = ["__type": "Date", "iso": "2020-01-02T03:04:05.678Z"]

    /// Runs `body` against a new server on `store` whose file contents go to a local storage the test can see.
    static func withServer(_ store: ExportStore, _ body: @escaping @Sendable (TestClient, LocalFileStorage) async throws -> Void) async throws {
        let files = try TemporaryDirectory()
        defer { files.remove() }
        let storage = try LocalFileStorage(directory: files.path)
        switch store {
        case .sqlite:
            try await TestServer.with(configure: { $0.databaseURL = nil; $0.fileStorage = storage }) { try await body($0, storage) }
        case .postgres:
            try await PostgresTestDatabase.withSchema(poolSize: 4) { url in
                try await TestServer.with(configure: { $0.databaseURL = url; $0.fileStorage = storage }) { try await body($0, storage) }
            }
        }
    }

    /// ``withServer(_:_:)`` returning what `body` returns.
    static func withServerResult<T: Sendable>(
        _ store: ExportStore, _ body: @escaping @Sendable (TestClient, LocalFileStorage) async throws -> T
    ) async throws -> T {
        let box = ResultBox<T>()
        try await withServer(store) { client, storage in box.value = try await body(client, storage) }
        return try #require(box.value)
    }

    /// Tags, two Things with every type and a relation, a file, users with the three password forms, a revocable
    /// session and class permissions.
    static func seed(_ client: TestClient, storage: LocalFileStorage) async throws -> ExporterFixture {
        var fixture = ExporterFixture(client: client, storage: storage)
        for name in ["t1", "t2", "t3"] {
            fixture.tags.append(try await create(client, "Tag", ["name": .string(name)]))
        }
        let upload = try await client.send(.parse, .post, "/parse/files/hello.txt", body: "hello export", headers: ["Content-Type": "text/plain"])
        try #require(upload.status == 201, "\(upload.bodyText)")
        fixture.fileKey = try #require(upload.json["name"]?.stringValue)
        let rows = try await client.send(.leancloud, .get, "/1.1/classes/_File", auth: .master)
        fixture.fileId = try #require(rows.json["results"]?.arrayValue?.first?["objectId"]?.stringValue)
        fixture.things.append(try await create(client, "Thing", thingFields(fixture)))
        fixture.things.append(try await create(client, "Thing", ["s": "second"]))
        let clp = try await client.send(.leancloud, .put, "/1.1/schemas/Thing", json: [
            "classLevelPermissions": ["find": ["requiresAuthentication": true], "create": ["role:Admins": true]],
        ], auth: .master)
        try #require(clp.status == 200, "\(clp.bodyText)")
        for name in ["scrypt", "lean", "bcrypt"] {
            let user = try await client.send(.leancloud, .post, "/1.1/users", json: ["username": .string(name), "password": .string("pw-\(name)")])
            try #require(user.status == 201, "\(user.bodyText)")
            fixture.users[name] = try #require(user.json["objectId"]?.stringValue)
            if name == "scrypt" { fixture.stableToken = try #require(user.json["sessionToken"]?.stringValue) }
        }
        let role = try await client.send(.leancloud, .post, "/1.1/roles", json: [
            "name": "Admins", "ACL": ["*": ["read": true]],
            "users": ["__op": "AddRelation", "objects": [["__type": "Pointer", "className": "_User", "objectId": .string(fixture.users["lean"]!)]]],
        ], auth: .master)
        try #require(role.status == 201, "\(role.bodyText)")
        fixture.role = try #require(role.json["objectId"]?.stringValue)
        let writes: [WriteCommand] = [
            .account(.setPassword(userId: fixture.users["lean"]!, password: "$leancloud$salt1$c2hhNTEyaGFzaA==")),
            .account(.setPassword(userId: fixture.users["bcrypt"]!, password: bcrypt)),
            .account(.createSession(StoredSession(
                token: "r:revocable1", sessionId: "session1", userId: fixture.users["scrypt"]!, kind: .revocable,
                createdAt: Timestamp(millisecondsSince1970: 1_600_000_000_000), expiresAt: Timestamp(millisecondsSince1970: 4_000_000_000_000),
                installationId: "installation1", createdWith: ["action": "login", "authProvider": "password"]
            ))),
        ]
        for result in try await client.store.perform(writes, atomically: true) { _ = try result.get() }
        return fixture
    }

    static let bcrypt = "$2b$10$abcdefghijklmnopqrstuu5Zm0Jr6q2qVf0OQmG0wI0rZ8x8c9Q3u"

    static func thingFields(_ fixture: ExporterFixture) -> [String: JSON] {
        [
            "s": "text", "i": 42, "d": 1.5, "b": true, "date": date, "bytes": ["__type": "Bytes", "base64": "aGVsbG8="],
            "geo": ["__type": "GeoPoint", "latitude": 1.5, "longitude": 2.5],
            "ptr": ["__type": "Pointer", "className": "Tag", "objectId": .string(fixture.tags[0])],
            "arr": [1, "a", ["__type": "Pointer", "className": "Tag", "objectId": .string(fixture.tags[1])]], "obj": ["k": ["n": 1]],
            "nothing": nil, "file": ["__type": "File", "id": .string(fixture.fileId)],
        ]
    }

    static func create(_ client: TestClient, _ className: String, _ fields: [String: JSON], acl: JSON? = nil) async throws -> String {
        var body = fields
        if let acl { body["ACL"] = acl }
        let reply = try await client.send(.leancloud, .post, "/1.1/classes/\(className)", json: .object(body), auth: .master)
        try #require(reply.status == 201, "\(reply.bodyText)")
        return try #require(reply.json["objectId"]?.stringValue)
    }

    /// Adds tags to a Thing's `tags` relation.
    func relate(_ thing: String, _ tagIds: [String]) async throws {
        let objects = JSON.array(tagIds.map { ["__type": "Pointer", "className": "Tag", "objectId": .string($0)] })
        let reply = try await client.send(
            .leancloud, .put, "/1.1/classes/Thing/\(thing)", json: ["tags": ["__op": "AddRelation", "objects": objects]], auth: .master
        )
        try #require(reply.status == 200, "\(reply.bodyText)")
    }
}

/// Reading an export folder.
enum ExportFolder {
    static func lines(_ directory: String, _ name: String) throws -> [JSON] {
        let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
        return try text.split(separator: "\n").map { try JSONParser.parse(String($0)) }
    }

    static func json(_ directory: String, _ name: String) throws -> JSON {
        try JSONParser.parse(try String(contentsOfFile: directory + "/" + name, encoding: .utf8))
    }

    static func names(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    /// Runs a tool and returns its standard output; fails the test on a non-zero exit.
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(tool) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        return String(decoding: data, as: UTF8.self)
    }
}

/// Carries a value out of a `@Sendable` closure run exactly once.
final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T?
    var value: T? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
