import CirrusS3
import CirrusStorage
import Foundation
import Testing

@Suite("S3 file storage without a working server")
struct S3FileStorageFailureTests {
    static func storage(port: Int, timeout: Duration) throws -> S3FileStorage {
        try S3FileStorage(configuration: S3Configuration(
            endpoint: URL(string: "http://127.0.0.1:\(port)")!, region: "us-east-1", bucket: "b", accessKeyID: "id",
            secretAccessKey: "secret", timeout: timeout))
    }

    @Test("a server that never answers fails the request with a timeout once the configured time has passed")
    func hungServer() async throws {
        let listener = try SilentListener()
        let storage = try Self.storage(port: listener.port, timeout: .milliseconds(300))
        let started = ContinuousClock.now
        let error = await #expect(throws: FileStorageError.self) { try await storage.read(key: "a1.txt", range: nil) }
        // Far above the 300 ms asked for, so that a loaded machine cannot fail it; without the timeout it never returns.
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(error.map { "\($0)" }?.contains("S3 GET http://127.0.0.1:\(listener.port)/b/a1.txt failed") == true)
        withExtendedLifetime(listener) {}
    }

    /// The client retries refused connections until the request's time is up, hence the short timeout.
    @Test("a refused connection is a failure, not a missing file")
    func refusedConnection() async throws {
        let storage = try Self.storage(port: try FreePort.next(), timeout: .milliseconds(500))
        await #expect(throws: FileStorageError.self) { try await storage.read(key: "a1.txt", range: nil) }
        await #expect(throws: FileStorageError.self) { try await storage.delete(key: "a1.txt") }
    }

    @Test("an invalid key is refused before any request is sent")
    func invalidKey() async throws {
        let storage = try Self.storage(port: try FreePort.next(), timeout: .seconds(10))
        await #expect(throws: FileStorageError.invalidKey("a/b")) { try await storage.write([1], key: "a/b", mimeType: "text/plain") }
        await #expect(throws: FileStorageError.invalidKey("..")) { try await storage.read(key: "..", range: 0..<1) }
        await #expect(throws: FileStorageError.invalidKey("")) { try await storage.delete(key: "") }
    }
}
