import CirrusFileStorage
import CirrusStorage
import CirrusTesting
import Foundation
import Testing

@Suite("Local file storage")
struct LocalFileStorageTests {
    static let conformance = FileStorageConformance.inTemporaryDirectory { try LocalFileStorage(directory: $0) }

    @Test("the local storage behaves as the file storage conformance check requires", arguments: FileStorageConformance.checks)
    func conformance(_ check: FileStorageCheck) async throws {
        try await Self.conformance.run(check)
    }

    @Test("temporary files a crash left behind are removed when the storage opens, finished files are kept")
    func leftovers() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let storage = try LocalFileStorage(directory: directory.path)
        try await storage.write(Array("kept".utf8), key: "kept.txt", mimeType: "text/plain")
        #expect(FileManager.default.createFile(atPath: directory.path + "/.upload-crashed", contents: Data("half".utf8)))
        _ = try LocalFileStorage(directory: directory.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["kept.txt"])
        await #expect(throws: FileStorageError.invalidKey(".upload-crashed")) { try await storage.read(key: ".upload-crashed", range: nil) }
    }
}
