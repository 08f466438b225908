@testable import Cirrus
import CirrusTesting
import Foundation
import Testing

/// File downloads into the app's cache (seed 001 "文件下载", 003, 002's `getDataOfFileInBackground:`).
@Suite("File downloads on a live server")
struct FileDownloadLiveTests {
    /// An app of `server` whose caches are in `directory`, its requests counted by `downloads`.
    static func app(_ server: LiveTestServer, _ directory: URL, _ downloads: Downloads) throws -> LCApplication {
        try LCApplication(
            id: server.keys.appId, key: server.keys.appKey, serverURL: server.baseURL,
            configuration: .init(transport: downloads, currentUserStorage: .none, queryCacheDirectory: directory)
        )
    }

    /// URLSession, counting the GET requests of each URL.
    final class Downloads: Transport, @unchecked Sendable {
        private let transport = URLSessionTransport()
        private let lock = NSLock()
        private var urls: [String] = []

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            if request.method == "GET" { lock.withLock { urls.append(request.url.absoluteString) } }
            return try await transport.send(request)
        }

        func count(_ url: String) -> Int { lock.withLock { urls.filter { $0 == url }.count } }
    }

    @Test("a download reports progress to 100 and is kept: the same URL is read from the cache until it is cleared; three call forms")
    func downloads() async throws {
        try await LiveTestServer.with { server in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cirrus-files-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let downloads = Downloads()
            let application = try Self.app(server, directory, downloads)
            let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            let file = LCFile(application: application, payload: .data(data: bytes))
            file.name = "photo.jpg"
            try await file.save()
            let url = try #require(file.url?.value)

            let read = LCFile(application: application, url: try #require(URL(string: url)))
            let percents = Fractions()
            let local = try await read.download(progress: { percents.append(Double($0)) })
            #expect(try Data(contentsOf: local) == bytes)
            #expect(local.lastPathComponent == read.name?.value && local.path.hasPrefix(directory.path), "\(local)")
            #expect(percents.values.first == 0 && percents.values.last == 100 && percents.values == percents.values.sorted())
            #expect(downloads.count(url) == 1)

            #expect(try await read.getData() == bytes)
            let called: LCValueResult<URL> = await withCheckedContinuation { continuation in
                read.download(completionQueue: .global()) { continuation.resume(returning: $0) }
            }
            #expect(called.object == local)
            let blocked = await onThread { read.getData() as LCValueResult<Data> }
            #expect(blocked.object == bytes)
            #expect(downloads.count(url) == 1, "every later read came from the cache")

            read.clearPersistentCache()
            #expect(!FileManager.default.fileExists(atPath: local.path))
            _ = try await read.download()
            #expect(downloads.count(url) == 2)
            #expect(LCFile.clearAllPersistentCache(application: application))
            #expect(!FileManager.default.fileExists(atPath: local.path))

            let missing = LCFile(application: application, url: try #require(URL(string: server.baseURL + "/files/none")))
            let error = try await #require(throws: LCError.self) { try await missing.download() }
            #expect(error.code == 404)
            await #expect(throws: LCError.self) { try await LCFile(application: application).download() }
        }
    }
}
