import AsyncHTTPClient
import CirrusFileStorage
import CirrusMigration
import CirrusStorage
import CirrusTesting
import Foundation
import Testing

/// The file storage, the source folder and the journal of one test, in a temporary folder.
struct CarrierFixture {
    let root: TemporaryDirectory
    let storage: LocalFileStorage
    let sources: URL
    let journal: URL

    init() throws {
        root = try TemporaryDirectory()
        storage = try LocalFileStorage(directory: root.path + "/storage")
        sources = URL(fileURLWithPath: root.path + "/sources")
        journal = URL(fileURLWithPath: root.path + "/files.journal")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
    }

    /// Writes `text` at `relative` under the source folder, creating subfolders.
    func source(_ relative: String, _ text: String) throws {
        let url = sources.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func carrier(directory: Bool = true, download: Bool = false, client: HTTPClient? = nil, maximumSize: Int = 1024) throws -> FileCarrier {
        try FileCarrier(
            storage: storage, directory: directory ? sources : nil, download: download, journal: journal, httpClient: client,
            maximumSize: maximumSize, timeout: .seconds(10)
        )
    }

    func stored(_ key: String) async throws -> String? {
        try await storage.read(key: key, range: nil).map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    func journalText() throws -> String {
        String(decoding: try Data(contentsOf: journal), as: UTF8.self)
    }
}

@Suite("Carrying file contents")
struct FileCarrierTests {
    @Test("a file is found by its old key with subfolders, by its new key, by an unambiguous name or by its URL's last part")
    func fromDirectory() async throws {
        let fixture = try CarrierFixture()
        defer { fixture.root.remove() }
        try fixture.source("gamemaster/abc/photo.png", "nested")
        try fixture.source("new-key.txt", "by key")
        try fixture.source("only-one.txt", "by name")
        try fixture.source("x/last-part.bin", "by url")
        let carrier = try fixture.carrier()
        #expect(try await carrier.carry(key: "k1", sourceKey: "gamemaster/abc/photo.png", url: nil, name: "photo.png") == .copied(bytes: 6))
        #expect(try await carrier.carry(key: "new-key.txt", sourceKey: "old/key", url: nil, name: nil) == .copied(bytes: 6))
        #expect(try await carrier.carry(key: "k3", sourceKey: "gone", url: nil, name: "only-one.txt") == .copied(bytes: 7))
        #expect(try await carrier.carry(key: "k4", sourceKey: "gone", url: "https://lc.example.com/zz/last-part.bin", name: "other") == .copied(bytes: 6))
        #expect(try await fixture.stored("k1") == "nested")
        #expect(try await fixture.stored("new-key.txt") == "by key")
        #expect(try await fixture.stored("k3") == "by name")
        #expect(try await fixture.stored("k4") == "by url")
        #expect(try fixture.journalText() == "k1\nnew-key.txt\nk3\nk4\n")
    }

    @Test("a name shared by two files in the folder, or already taken for another key, is not guessed")
    func ambiguousName() async throws {
        let fixture = try CarrierFixture()
        defer { fixture.root.remove() }
        try fixture.source("a/avatar.jpg", "first")
        try fixture.source("b/avatar.jpg", "second")
        try fixture.source("logo.png", "logo")
        let carrier = try fixture.carrier()
        let folder = fixture.sources.path
        #expect(try await carrier.carry(key: "k1", sourceKey: "missing", url: nil, name: "avatar.jpg") == .failed("not found in \(folder)"))
        #expect(try await carrier.carry(key: "k2", sourceKey: "missing", url: nil, name: "logo.png") == .copied(bytes: 4))
        #expect(try await carrier.carry(key: "k3", sourceKey: "missing", url: nil, name: "logo.png") == .failed("not found in \(folder)"))
        #expect(try await fixture.stored("k1") == nil)
    }

    @Test("paths leading out of the folder, by .. or by a symbolic link, are refused")
    func escapingPaths() async throws {
        let fixture = try CarrierFixture()
        defer { fixture.root.remove() }
        try Data("secret".utf8).write(to: URL(fileURLWithPath: fixture.root.path + "/secret.txt"))
        try FileManager.default.createSymbolicLink(atPath: fixture.sources.path + "/link.txt", withDestinationPath: fixture.root.path + "/secret.txt")
        try FileManager.default.createSymbolicLink(atPath: fixture.sources.path + "/up", withDestinationPath: fixture.root.path)
        let carrier = try fixture.carrier()
        for sourceKey in ["../secret.txt", "a/../../secret.txt", "link.txt", "up/secret.txt"] {
            let outcome = try await carrier.carry(key: "k", sourceKey: sourceKey, url: nil, name: nil)
            guard case .failed(let reason) = outcome else {
                Issue.record("\(sourceKey) should be refused, got \(outcome)")
                continue
            }
            #expect(reason.contains("leads outside"), "\(reason)")
        }
        #expect(try await fixture.stored("k") == nil)
    }

    @Test("a missing file fails with the folder's name; without any source nothing is requested")
    func missingAndNotRequested() async throws {
        let fixture = try CarrierFixture()
        defer { fixture.root.remove() }
        let carrier = try fixture.carrier()
        #expect(try await carrier.carry(key: "k", sourceKey: "nope", url: "https://example.com/nope", name: "nope") == .failed("not found in \(fixture.sources.path)"))
        let idle = try fixture.carrier(directory: false)
        #expect(try await idle.carry(key: "k", sourceKey: "nope", url: "https://example.com/nope", name: "nope") == .notRequested)
        #expect(throws: (any Error).self) {
            _ = try FileCarrier(
                storage: fixture.storage, directory: URL(fileURLWithPath: fixture.root.path + "/absent"), download: false,
                journal: fixture.journal
            )
        }
    }

    @Test("a file over the size limit is not copied")
    func oversizedFile() async throws {
        let fixture = try CarrierFixture()
        defer { fixture.root.remove() }
        try fixture.source("big", String(repeating: "x", count: 2000))
        let outcome = try await fixture.carrier().carry(key: "k", sourceKey: "big", url: nil, name: nil)
        #expect(outcome == .failed("big is 2000 bytes, more than the limit of 1024"))
    }

    @Test(
        "downloads: 200 is copied, a redirect followed, 404 and oversized bodies fail, a redirect loop, a silent server and other schemes fail",
        arguments: [true, false]
    )
    func downloads(clientFollowsRedirects: Bool) async throws {
        let fixture = try CarrierFixture()
        defer { fixture.root.remove() }
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = clientFollowsRedirects ? .follow(max: 5, allowCycles: false) : .disallow
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            try await LoopbackFileServer.with { server in
                let carrier = try fixture.carrier(directory: false, download: true, client: client)
                #expect(try await carrier.carry(key: "ok", sourceKey: "s", url: server.url("/files/a.txt"), name: "a.txt") == .copied(bytes: 16))
                #expect(try await fixture.stored("ok") == "content of a.txt")
                #expect(try await carrier.carry(key: "moved", sourceKey: "s", url: server.url("/redirect/b.txt"), name: nil) == .copied(bytes: 16))
                #expect(try await fixture.stored("moved") == "content of b.txt")
                let missing = server.url("/nothing")
                #expect(try await carrier.carry(key: "m", sourceKey: "s", url: missing, name: nil) == .failed("HTTP 404 from \(missing)"))
                for path in ["/big", "/big-chunked", "/loop", "/silent"] {
                    let outcome = try await carrier.carry(key: "f", sourceKey: "s", url: server.url(path), name: nil)
                    guard case .failed(let reason) = outcome else {
                        Issue.record("\(path) should fail, got \(outcome)")
                        continue
                    }
                    #expect(reason.contains(server.url("")), "\(reason)")
                }
                for url in ["ftp://127.0.0.1/x", "file:///etc/passwd", "not a url"] {
                    let outcome = try await carrier.carry(key: "f", sourceKey: "s", url: url, name: nil)
                    #expect(outcome == .failed("not an http or https URL: \(url)"))
                }
                #expect(try await carrier.carry(key: "f", sourceKey: "s", url: nil, name: nil) == .failed("no URL to download"))
                #expect(try await fixture.stored("f") == nil)
                #expect(try await fixture.stored("m") == nil)
            }
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    @Test("the journal makes a second run report already present without reading the folder or the network again")
    func journalSkipsSources() async throws {
        let fixture = try CarrierFixture()
        defer { fixture.root.remove() }
        try fixture.source("old/one.txt", "one")
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await LoopbackFileServer.with { server in
                let first = try fixture.carrier(download: true, client: client)
                #expect(try await first.carry(key: "one", sourceKey: "old/one.txt", url: nil, name: nil) == .copied(bytes: 3))
                #expect(try await first.carry(key: "two", sourceKey: "old/two.txt", url: server.url("/files/two"), name: nil) == .copied(bytes: 14))
                #expect(server.requestCount == 1)
                try FileManager.default.removeItem(at: fixture.sources)
                try FileManager.default.createDirectory(at: fixture.sources, withIntermediateDirectories: true)
                // The storage loses the contents too: only the journal can answer.
                try await fixture.storage.delete(key: "one")
                try await fixture.storage.delete(key: "two")
                let second = try fixture.carrier(download: true, client: client)
                #expect(try await second.carry(key: "one", sourceKey: "old/one.txt", url: nil, name: nil) == .alreadyPresent)
                #expect(try await second.carry(key: "two", sourceKey: "old/two.txt", url: server.url("/files/two"), name: nil) == .alreadyPresent)
                #expect(server.requestCount == 1)
                #expect(try fixture.journalText() == "one\ntwo\n")
            }
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    @Test("content the storage already holds is reported already present and journaled, not copied")
    func alreadyInStorage() async throws {
        let fixture = try CarrierFixture()
        defer { fixture.root.remove() }
        try fixture.source("k", "new")
        try await fixture.storage.write(Array("old".utf8), key: "k", mimeType: "text/plain")
        #expect(try await fixture.carrier().carry(key: "k", sourceKey: "k", url: nil, name: nil) == .alreadyPresent)
        #expect(try await fixture.stored("k") == "old")
        #expect(try fixture.journalText() == "k\n")
    }

    @Test("a torn last journal line (a crash while writing it) is ignored and cut off")
    func tornJournalLine() async throws {
        let fixture = try CarrierFixture()
        defer { fixture.root.remove() }
        try fixture.source("done", "d")
        try fixture.source("torn", "t")
        try Data("done\ntor".utf8).write(to: fixture.journal)
        let carrier = try fixture.carrier()
        #expect(try await carrier.carry(key: "done", sourceKey: "done", url: nil, name: nil) == .alreadyPresent)
        #expect(try await fixture.stored("done") == nil)
        #expect(try await carrier.carry(key: "tor", sourceKey: "torn", url: nil, name: nil) == .copied(bytes: 1))
        #expect(try fixture.journalText() == "done\ntor\n")
        let reopened = try fixture.carrier()
        #expect(try await reopened.carry(key: "tor", sourceKey: "gone", url: nil, name: nil) == .alreadyPresent)
    }

    @Test("concurrent carries each copy their file and journal it once")
    func concurrent() async throws {
        let fixture = try CarrierFixture()
        defer { fixture.root.remove() }
        for index in 0..<40 { try fixture.source("f\(index)", "content \(index)") }
        let carrier = try fixture.carrier()
        let outcomes = try await withThrowingTaskGroup(of: FileCarryOutcome.self) { group in
            for index in 0..<40 {
                group.addTask { try await carrier.carry(key: "k\(index)", sourceKey: "f\(index)", url: nil, name: nil) }
                group.addTask { try await carrier.carry(key: "k\(index)", sourceKey: "f\(index)", url: nil, name: nil) }
            }
            var all: [FileCarryOutcome] = []
            for try await outcome in group { all.append(outcome) }
            return all
        }
        let copied = outcomes.filter { if case .copied(let bytes) = $0 { bytes >= 9 } else { false } }.count
        #expect(copied >= 40)
        #expect(copied + outcomes.filter { $0 == .alreadyPresent }.count == 80)
        let lines = try fixture.journalText().split(separator: "\n")
        #expect(lines.count == 40)
        #expect(Set(lines).count == 40)
        for index in 0..<40 { #expect(try await fixture.stored("k\(index)") == "content \(index)") }
    }
}
