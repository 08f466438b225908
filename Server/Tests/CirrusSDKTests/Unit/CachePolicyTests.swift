@testable import Cirrus
import CirrusModel
import Foundation
import Testing

/// Query cache policies, through an in-memory transport and a cache directory of the test's own.
@Suite("Query cache policies")
struct CachePolicyTests {
    static let first = #"{"results":[{"objectId":"a"}]}"#
    static let second = #"{"results":[{"objectId":"a"},{"objectId":"b"}]}"#

    /// Runs `body` with an app whose query cache lives in a new directory, removed afterwards.
    func withCache<T: Sendable>(
        _ replies: [TransportResponse], _ body: @Sendable (LCApplication, RecordingTransport, URL) async throws -> T
    ) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cirrus-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transport = RecordingTransport(replies)
        let application = try LCApplication(
            id: "app", key: "key", serverURL: "https://api.example.com",
            configuration: .init(transport: transport, currentUserStorage: .none, queryCacheDirectory: directory)
        )
        return try await body(application, transport, directory)
    }

    static func ok(_ text: String) -> TransportResponse { TransportResponse(status: 200, body: Data(text.utf8)) }

    static let unavailable = TransportResponse(status: 503, body: Data(#"{"code":503,"error":"unavailable"}"#.utf8))

    /// The ids of a find under `policy`, or the error code.
    static func ids(_ query: LCQuery, _ policy: LCQuery.CachePolicy) async -> Result<[String], LCError> {
        do {
            return .success(try await query.find(cachePolicy: policy).compactMap { $0.objectId?.value })
        } catch {
            return .failure(LCError(error: error))
        }
    }

    @Test("ignoreCache neither reads nor writes; onlyNetwork writes; onlyCache reads without a request or fails with 120")
    func networkAndCacheOnly() async throws {
        try await withCache([Self.ok(Self.first), Self.ok(Self.second)]) { (application, transport, _) async throws in
            let query = LCQuery(application: application, className: "Todo")
            #expect(try await query.find().count == 1)
            #expect(!query.hasCachedResult())
            #expect((await Self.ids(query, .onlyCache)).failure?.code == 120)
            #expect(try await query.find(cachePolicy: .onlyNetwork).count == 2)
            #expect(query.hasCachedResult())
            #expect(try (await Self.ids(query, .onlyCache)).get() == ["a", "b"])
            #expect(transport.requests.count == 2)
        }
    }

    @Test("cacheElseNetwork asks the network once, then answers from the cache")
    func cacheElseNetwork() async throws {
        try await withCache([Self.ok(Self.first), Self.ok(Self.second)]) { (application, transport, _) async throws in
            let query = LCQuery(application: application, className: "Todo")
            query.cachePolicy = .cacheElseNetwork
            #expect(try await query.find().count == 1)
            #expect(try await query.find().count == 1)
            #expect(transport.requests.count == 1)
            query.clearCachedResult()
            #expect(try await query.find().count == 2)
            #expect(transport.requests.count == 2)
        }
    }

    @Test("networkElseCache answers from the cache when the network fails, and fails when there is no cache either")
    func networkElseCache() async throws {
        try await withCache([Self.ok(Self.first), Self.unavailable]) { (application, _, _) async throws in
            let query = LCQuery(application: application, className: "Todo")
            #expect(try (await Self.ids(query, .networkElseCache)).get() == ["a"])
            #expect(try (await Self.ids(query, .networkElseCache)).get() == ["a"])
            LCQuery.clearAllCachedResults(application: application)
            #expect((await Self.ids(query, .networkElseCache)).failure?.code == 503)
        }
    }

    @Test("a cached result older than maxCacheAge is not used")
    func maxCacheAge() async throws {
        try await withCache([Self.ok(Self.first)]) { (application, _, directory) async throws in
            let query = LCQuery(application: application, className: "Todo")
            _ = try await query.find(cachePolicy: .onlyNetwork)
            query.maxCacheAge = 24 * 3600
            #expect(query.hasCachedResult())
            let files = try FileManager.default.contentsOfDirectory(at: directory.appendingPathComponent("app/queries"), includingPropertiesForKeys: nil)
            for file in files {
                try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -2 * 24 * 3600)], ofItemAtPath: file.path)
            }
            #expect(!query.hasCachedResult())
            #expect((await Self.ids(query, .onlyCache)).failure?.code == 120)
            query.maxCacheAge = nil
            #expect(query.hasCachedResult())
        }
    }

    @Test("get, getFirst and count are cached too")
    func otherCalls() async throws {
        try await withCache([Self.ok(#"{"objectId":"a","n":1}"#), Self.ok(#"{"results":[],"count":4}"#)]) { (application, transport, _) async throws in
            let query = LCQuery(application: application, className: "Todo")
            _ = try await query.get("a", cachePolicy: .onlyNetwork)
            _ = try await query.count(cachePolicy: .onlyNetwork)
            #expect(try await query.get("a", cachePolicy: .onlyCache).get("n")?.intValue == 1)
            #expect(try await query.count(cachePolicy: .onlyCache) == 4)
            #expect(transport.requests.count == 2)
        }
    }

    @Test("cacheThenNetwork calls the completion handler with the cached result, then the network's; async refuses it")
    func cacheThenNetwork() async throws {
        try await withCache([Self.ok(Self.first), Self.ok(Self.second)]) { (application, _, _) async throws in
            let query = LCQuery(application: application, className: "Todo")
            _ = try await query.find(cachePolicy: .onlyNetwork)
            let counts = await withCheckedContinuation { continuation in
                let box = Counts()
                _ = query.find(cachePolicy: .cacheThenNetwork, completionQueue: DispatchQueue(label: "serial")) { result in
                    if box.append(result.objects?.count ?? -1) == 2 { continuation.resume(returning: box.values) }
                }
            }
            #expect(counts == [1, 2])
            await #expect(throws: LCError.self) { try await query.find(cachePolicy: .cacheThenNetwork) }
        }
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// Counts collected by a completion handler.
final class Counts: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [Int] = []

    /// Appends `value`; returns how many there are.
    func append(_ value: Int) -> Int {
        lock.withLock {
            collected.append(value)
            return collected.count
        }
    }

    var values: [Int] { lock.withLock { collected } }
}
