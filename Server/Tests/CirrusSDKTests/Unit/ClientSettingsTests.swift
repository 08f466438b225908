@testable import Cirrus
import CirrusModel
import Foundation
import Testing

/// The SDK's debug log and the trimming of its query cache.
@Suite("Debug log and query cache limits", .serialized)
struct ClientSettingsTests {
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var collected: [(LCApplication.LogLevel, String)] = []
        func record(_ level: LCApplication.LogLevel, _ line: String) { lock.withLock { collected.append((level, line)) } }
        /// The lines about this test's host.
        var all: [(LCApplication.LogLevel, String)] { lock.withLock { collected.filter { $0.1.contains("log-test.example.com") } } }
    }

    @Test("the debug log shows requests and replies at .all, summaries at .debug, failures at .error, and never a session token or signature")
    func debugLog() async throws {
        let transport = RecordingTransport([
            TransportResponse(status: 200, body: Data(#"{"objectId":"t1","createdAt":"2026-01-01T00:00:00.000Z"}"#.utf8)),
            TransportResponse(status: 400, body: Data(#"{"code":142,"error":"refused"}"#.utf8)),
            TransportResponse(status: 200, body: Data(#"{"results":[]}"#.utf8)),
        ])
        // A host of its own: other tests' requests log too while the level is up.
        let application = try LCApplication(
            id: "test-app-id", key: "test-app-key", serverURL: "https://log-test.example.com", configuration: .init(transport: transport, currentUserStorage: .none)
        )
        let user = ObjectDecoder(application: application).object(["objectId": "u1", "sessionToken": "secret-session-token"], className: "_User")
        application.currentUser = user as? LCUser
        let lines = Lines()
        LCApplication.logHandler = { lines.record($0, $1) }
        defer { LCApplication.logLevel = .off }

        LCApplication.logLevel = .all
        let todo = LCObject(application: application, className: "Todo")
        try todo.set("title", value: "logged")
        try await todo.save()
        let text = lines.all.map(\.1).joined(separator: "\n")
        #expect(text.contains("→ POST https://log-test.example.com/1.1/classes/Todo") && text.contains(#""title":"logged""#))
        #expect(text.contains("← 200 POST") && text.contains(#""objectId":"t1""#))
        #expect(!text.contains("secret-session-token") && text.contains("X-LC-Session: <20 characters>"), "credentials are masked: \(text)")
        #expect(text.contains("X-LC-Sign: <"))

        LCApplication.logLevel = .error
        let before = lines.all.count
        try todo.set("title", value: "refused")
        await #expect(throws: LCError.self) { try await todo.save() }
        _ = try await LCQuery(application: application, className: "Todo").find()
        let errors = lines.all.dropFirst(before)
        #expect(errors.count == 1 && errors.first?.0 == .error && errors.first?.1.contains("← 400") == true, "\(errors)")

        LCApplication.logLevel = .off
        let quiet = lines.all.count
        _ = try? await LCQuery(application: application, className: "Todo").find()
        #expect(lines.all.count == quiet)
    }

    @Test("the query cache drops entries older than its lifetime and the oldest beyond its size limit")
    func queryCacheTrim() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cirrus-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let application = try LCApplication(
            id: "app", key: "key", serverURL: "https://api.example.com",
            configuration: .init(
                transport: RecordingTransport([]), currentUserStorage: .none, queryCacheDirectory: directory, queryCacheSizeLimit: 3_000,
                queryCacheLifetime: 3600
            )
        )
        let cache = QueryCache(application: application)
        let reply: JSON = ["results": .array(Array(repeating: "x", count: 200))]
        for index in 0..<5 { cache.store(reply, key: "k\(index)") }
        let kept = (0..<5).filter { cache.load("k\($0)", maxAge: nil) != nil }
        #expect(!kept.isEmpty && kept.count < 5 && kept.contains(4), "the newest stay within 3 000 bytes: \(kept)")

        let folder = directory.appendingPathComponent("app/queries")
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-7200)], ofItemAtPath: folder.appendingPathComponent("k4").path)
        cache.store(["results": []], key: "fresh")
        #expect(cache.load("k4", maxAge: nil) == nil, "an entry past the lifetime is gone")
        #expect(cache.load("fresh", maxAge: nil) != nil)
    }
}
