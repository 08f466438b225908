import AsyncHTTPClient
@testable import CirrusS3
import CirrusStorage
import CirrusTesting
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// The S3 storage against a real S3-compatible server on loopback (moto), which checks every signature.
@Suite("S3 file storage against moto", .motoServer())
struct S3FileStorageTests {
    /// Each check gets its own key prefix in the shared bucket, so it starts on an empty storage.
    static let conformance = FileStorageConformance {
        let server = try MotoServer.running()
        let storage = try S3FileStorage(configuration: server.configuration(keyPrefix: "conformance/\(UUID().uuidString)/"))
        return (storage, {})
    }

    static func storage(prefix: String = "\(UUID().uuidString)/", secretAccessKey: String? = nil) throws -> S3FileStorage {
        try S3FileStorage(configuration: MotoServer.running().configuration(keyPrefix: prefix, secretAccessKey: secretAccessKey))
    }

    @Test("the S3 storage behaves as the file storage conformance check requires", arguments: FileStorageConformance.checks)
    func conformance(_ check: FileStorageCheck) async throws {
        try await Self.conformance.run(check)
    }

    @Test("ranges that start at or past the end, or are empty, read no bytes with the right offset and size")
    func rangesPastTheEnd() async throws {
        let storage = try Self.storage()
        let content = Array("0123456789".utf8)
        try await storage.write(content, key: "digits", mimeType: "text/plain")
        try await storage.write([], key: "empty", mimeType: "text/plain")
        #expect(try await storage.read(key: "digits", range: 10..<20) == FileContent(bytes: [], offset: 10, totalSize: 10))
        #expect(try await storage.read(key: "digits", range: 50..<60) == FileContent(bytes: [], offset: 10, totalSize: 10))
        #expect(try await storage.read(key: "digits", range: 4..<4) == FileContent(bytes: [], offset: 4, totalSize: 10))
        #expect(try await storage.read(key: "digits", range: -3..<2) == FileContent(bytes: Array("01".utf8), offset: 0, totalSize: 10))
        #expect(try await storage.read(key: "empty", range: 0..<5) == FileContent(bytes: [], offset: 0, totalSize: 0))
        #expect(try await storage.read(key: "missing", range: 50..<60) == nil)
        #expect(try await storage.read(key: "missing", range: 0..<5) == nil)
    }

    @Test("the key prefix is part of the object name, so storages with different prefixes do not see each other's files")
    func prefixes() async throws {
        let first = try Self.storage(prefix: "first/")
        let second = try Self.storage(prefix: "second/")
        try await first.write(Array("one".utf8), key: "shared-name", mimeType: "text/plain")
        #expect(try await second.read(key: "shared-name", range: nil) == nil)
        #expect(try await first.read(key: "shared-name", range: nil)?.bytes == Array("one".utf8))
    }

    @Test("a wrong secret key fails with a FileStorageError that names SignatureDoesNotMatch, for writes and reads alike")
    func wrongSecret() async throws {
        let storage = try Self.storage(secretAccessKey: "not-the-secret")
        let write = await #expect(throws: FileStorageError.self) { try await storage.write([1, 2, 3], key: "w1", mimeType: "text/plain") }
        let read = await #expect(throws: FileStorageError.self) { try await storage.read(key: "w1", range: nil) }
        for error in [write, read] {
            guard case .failed(let message) = error else { Issue.record("expected .failed, got \(String(describing: error))"); continue }
            #expect(message.contains("403 SignatureDoesNotMatch"), "\(message)")
        }
    }

    @Test("a bucket that does not exist is a failure, not a missing file")
    func missingBucket() async throws {
        var configuration = try MotoServer.running().configuration()
        configuration.bucket = "no-such-bucket"
        let storage = try S3FileStorage(configuration: configuration)
        let error = await #expect(throws: FileStorageError.self) { try await storage.read(key: "a1.txt", range: nil) }
        #expect(error.map { "\($0)" }?.contains("NoSuchBucket") == true)
    }

    @Test("a storage that owns its HTTP client shuts it down, and fails cleanly afterwards")
    func ownedClient() async throws {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let storage = try S3FileStorage(configuration: MotoServer.running().configuration(keyPrefix: "owned/"), httpClient: client, ownsClient: true)
        try await storage.write([1], key: "before", mimeType: "application/octet-stream")
        try await storage.shutdown()
        await #expect(throws: FileStorageError.self) { try await storage.write([2], key: "after", mimeType: "application/octet-stream") }
    }
}
