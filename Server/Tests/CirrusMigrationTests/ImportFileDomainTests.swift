import AsyncHTTPClient
import CirrusMigration
import CirrusModel
import CirrusStorage
import CirrusTesting
import Foundation
import Testing

@Suite("Importing file contents by download")
struct ImportFileDomainTests {
    @Test("a _File row without a URL (as LeanCloud's scan API gives internal files) is downloaded from --file-domain and its key; one with a URL from its URL")
    func fileDomain() async throws {
        let fixture = try ExportFixture()
        defer { fixture.remove() }
        let carriage = try CarrierFixture()
        defer { carriage.root.remove() }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await LoopbackFileServer.with { server in
                try fixture.lines("_File.jsonl", [
                    ["objectId": "5f1e00000000000000000001", "key": "gamemaster/a.png", "name": "a.png", "metaData": ["size": 27]],
                    ["objectId": "5f1e00000000000000000002", "key": "b.txt", "name": "b.txt", "url": .string(server.url("/files/b-elsewhere.txt"))],
                ])
                try await TestServer.with { test in
                    var options = ImportOptions(source: .leancloud, path: fixture.path, statePath: fixture.statePath, reportPath: fixture.reportPath)
                    options.fileDomain = server.url("/files")
                    let carrier = try carriage.carrier(directory: false, download: true, client: client)
                    let summary = try await Importer(store: test.store, options: options, carrier: carrier).run()
                    #expect(summary.filesCopied == 2)
                    #expect(summary.fileFailures == 0)
                    let key = ImportedFileKey.make(from: "gamemaster/a.png")
                    #expect(try await carriage.stored(key) == "content of gamemaster/a.png")
                    #expect(try await carriage.stored("b.txt") == "content of b-elsewhere.txt")
                }
            }
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }
}
