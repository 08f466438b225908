package import CirrusStorage

/// The behaviour every ``FileStorage`` must show, as named checks a test target runs against its own storage (the
/// local disk, an S3-compatible server), each on a fresh, empty storage.
package struct FileStorageConformance: Sendable {
    private let makeStorage: @Sendable () async throws -> (storage: any FileStorage, cleanup: @Sendable () async throws -> Void)

    /// A suite over storages from `makeStorage`, called once per check; `cleanup` runs after the check.
    package init(makeStorage: @escaping @Sendable () async throws -> (storage: any FileStorage, cleanup: @Sendable () async throws -> Void)) {
        self.makeStorage = makeStorage
    }

    /// A suite over local storages in fresh temporary directories, removed after each check.
    package static func inTemporaryDirectory(_ open: @escaping @Sendable (String) throws -> any FileStorage) -> FileStorageConformance {
        FileStorageConformance {
            let directory = try TemporaryDirectory()
            return (try open(directory.path), { directory.remove() })
        }
    }

    /// Runs one check on a fresh storage, then cleans up whatever the outcome.
    package func run(_ check: FileStorageCheck) async throws {
        let (storage, cleanup) = try await makeStorage()
        do {
            try await check.body(storage)
        } catch {
            try? await cleanup()
            throw error
        }
        try await cleanup()
    }

    /// Every check, in a stable order.
    package static var checks: [FileStorageCheck] {
        [
            FileStorageCheck("written content reads back whole, with its size", roundTrip),
            FileStorageCheck("a range reads only its bytes, clamped to the content", ranges),
            FileStorageCheck("empty content is stored and read as empty", emptyContent),
            FileStorageCheck("a missing key reads as nil and deletes without error", missing),
            FileStorageCheck("a deleted key reads as nil", deletion),
            FileStorageCheck("keys with path separators or parent references are refused", badKeys),
            FileStorageCheck("concurrent writes of different keys all land", concurrentWrites),
            FileStorageCheck("a key is written once: a second write is refused and the content stays", writeOnce),
            FileStorageCheck("of concurrent writes of one key exactly one lands, whole", concurrentWritesOfOneKey),
            FileStorageCheck("ranges at the edges of Int clamp to the content without overflowing", extremeRanges),
        ]
    }

    static let sample: [UInt8] = Array("Hello, Cirrus! 你好".utf8) + [0, 255, 10, 13]

    static func roundTrip(_ storage: any FileStorage) async throws {
        try await storage.write(sample, key: "a1.txt", mimeType: "text/plain")
        let content = try await storage.read(key: "a1.txt", range: nil)
        try verifyEqual(content, FileContent(bytes: sample, offset: 0, totalSize: sample.count), "the content read back")
    }

    static func ranges(_ storage: any FileStorage) async throws {
        try await storage.write(sample, key: "r1.bin", mimeType: "application/octet-stream")
        try verifyEqual(try await storage.read(key: "r1.bin", range: 0..<5)?.bytes, Array(sample[0..<5]), "the first five bytes")
        let tail = try await storage.read(key: "r1.bin", range: 7..<10_000)
        try verifyEqual(tail, FileContent(bytes: Array(sample[7...]), offset: 7, totalSize: sample.count), "a range past the end")
    }

    static func emptyContent(_ storage: any FileStorage) async throws {
        try await storage.write([], key: "empty", mimeType: "text/plain")
        try verifyEqual(try await storage.read(key: "empty", range: nil), FileContent(bytes: [], offset: 0, totalSize: 0), "empty content")
    }

    static func missing(_ storage: any FileStorage) async throws {
        try verifyEqual(try await storage.read(key: "nothing-here", range: nil), nil, "a missing key")
        try await storage.delete(key: "nothing-here")
    }

    static func deletion(_ storage: any FileStorage) async throws {
        try await storage.write(sample, key: "d1", mimeType: "text/plain")
        try await storage.delete(key: "d1")
        try verifyEqual(try await storage.read(key: "d1", range: nil), nil, "a deleted key")
    }

    static func badKeys(_ storage: any FileStorage) async throws {
        for key in ["../escape", "a/b", "", ".", "..", "a\\b", String(repeating: "k", count: 201)] {
            do {
                try await storage.write(sample, key: key, mimeType: "text/plain")
                throw failure("the key '\(key)' was accepted")
            } catch let error as FileStorageError {
                guard case .invalidKey = error else { throw failure("the key '\(key)' failed with \(error), not invalidKey") }
            }
        }
    }

    static func concurrentWrites(_ storage: any FileStorage) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask { try await storage.write(Array(repeating: UInt8(index), count: 1000 + index), key: "c\(index)", mimeType: "text/plain") }
            }
            try await group.waitForAll()
        }
        for index in 0..<20 {
            try verifyEqual(try await storage.read(key: "c\(index)", range: nil)?.bytes, Array(repeating: UInt8(index), count: 1000 + index), "content c\(index)")
        }
    }
}

extension FileStorageConformance {
    static func writeOnce(_ storage: any FileStorage) async throws {
        try await storage.write(sample, key: "w1.txt", mimeType: "text/plain")
        do {
            try await storage.write(Array("replaced".utf8), key: "w1.txt", mimeType: "text/plain")
            throw failure("a second write of w1.txt was accepted")
        } catch FileStorageError.alreadyExists(let key) {
            try verifyEqual(key, "w1.txt", "the key refused")
        }
        try verifyEqual(try await storage.read(key: "w1.txt", range: nil)?.bytes, sample, "the content after a refused write")
        try await storage.delete(key: "w1.txt")
        try await storage.write(Array("again".utf8), key: "w1.txt", mimeType: "text/plain")
        try verifyEqual(try await storage.read(key: "w1.txt", range: nil)?.bytes, Array("again".utf8), "a key written again after its deletion")
    }

    static func concurrentWritesOfOneKey(_ storage: any FileStorage) async throws {
        let contents = (0..<8).map { Array(repeating: UInt8(65 + $0), count: 4096) }
        let landed = try await withThrowingTaskGroup(of: Bool.self) { group in
            for content in contents {
                group.addTask {
                    do {
                        try await storage.write(content, key: "one.bin", mimeType: "application/octet-stream")
                        return true
                    } catch FileStorageError.alreadyExists {
                        return false
                    }
                }
            }
            return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
        }
        try verifyEqual(landed, 1, "the writes that landed")
        let stored = try await storage.read(key: "one.bin", range: nil)?.bytes ?? []
        try verifyEqual(contents.contains(stored), true, "the stored content is one whole write")
    }

    static func extremeRanges(_ storage: any FileStorage) async throws {
        try await storage.write(sample, key: "x.bin", mimeType: "application/octet-stream")
        let size = sample.count
        try verifyEqual(try await storage.read(key: "x.bin", range: 0..<Int.max), FileContent(bytes: sample, offset: 0, totalSize: size), "0..<Int.max")
        try verifyEqual(try await storage.read(key: "x.bin", range: (Int.max - 1)..<Int.max)?.bytes, [], "a range past the end")
        try verifyEqual(try await storage.read(key: "x.bin", range: (Int.max - 1)..<Int.max)?.totalSize, size, "its total size")
        try verifyEqual(try await storage.read(key: "x.bin", range: (size - 1)..<Int.max)?.bytes, [sample[size - 1]], "the last byte")
        try await storage.write([], key: "e.bin", mimeType: "application/octet-stream")
        try verifyEqual(try await storage.read(key: "e.bin", range: 0..<Int.max), FileContent(bytes: [], offset: 0, totalSize: 0), "an empty content")
    }
}

/// One named behaviour of a file storage.
package struct FileStorageCheck: Sendable, CustomStringConvertible {
    package let name: String
    let body: @Sendable (any FileStorage) async throws -> Void

    init(_ name: String, _ body: @escaping @Sendable (any FileStorage) async throws -> Void) {
        self.name = name
        self.body = body
    }

    package var description: String { name }
}
