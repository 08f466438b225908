import CirrusFileStorage
import CirrusMigration
import CirrusTesting
import Foundation
import Logging
import Testing

@Suite("Background exports (POST /1.1/exportData's jobs)")
struct ExportJobsTests {
    /// A file storage whose writes of archive pieces fail, as a full disk would.
    struct FailingStorage: FileStorage {
        let base: LocalFileStorage
        var name: String { "failing" }
        func write(_ content: [UInt8], key: String, mimeType: String) async throws {
            if key.contains(".tar.gz.") { throw FileStorageError.failed("disk full") }
            try await base.write(content, key: key, mimeType: mimeType)
        }
        func read(key: String, range: Range<Int>?) async throws -> FileContent? { try await base.read(key: key, range: range) }
        func delete(key: String) async throws { try await base.delete(key: key) }
    }

    static func finished(_ jobs: ExportJobs, _ id: String) async throws -> ExportJobStatus {
        for _ in 0..<400 {
            let status = try #require(try await jobs.status(id: id))
            if status.state != .running { return status }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw ExportJobsTestError.timedOut
    }

    enum ExportJobsTestError: Error { case timedOut }

    @Test("the archive is kept in pieces that, joined in order, make the whole .tar.gz; the status is read from the storage by any instance")
    func pieces() async throws {
        try await ExporterFixture.withServer(.sqlite) { client, storage in
            for n in 0..<40 { _ = try await ExporterFixture.create(client, "Post", ["n": .int(Int64(n)), "text": .string(String(repeating: "x\(n)", count: 50))]) }
            var jobs = ExportJobs(
                store: client.store, storage: storage, signingKey: Array("key".utf8), publicURL: "https://api.example.com", mail: nil, mailFrom: "a@example.com",
                appName: "App", logger: Logger(label: "test")
            )
            jobs.partSize = 700
            let started = try await jobs.start(ExportOptions(), email: nil)
            let status = try await Self.finished(jobs, started.id)
            #expect(status.state == .done)
            #expect(status.parts > 1)
            #expect(status.classes["Post"] == 40)
            var archive: [UInt8] = []
            for part in 0..<status.parts {
                let piece = try #require(try await storage.read(key: ExportJobs.partKey(id: started.id, part: part), range: nil))
                #expect(piece.bytes.count == (part < status.parts - 1 ? 700 : status.size - 700 * (status.parts - 1)))
                archive += piece.bytes
            }
            #expect(archive.count == status.size)
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            #expect(FileManager.default.createFile(atPath: directory.path + "/a.tar.gz", contents: Data(archive)))
            #expect(try ExportFolder.run("/usr/bin/tar", ["-tzf", directory.path + "/a.tar.gz"]).contains("Post.jsonl"))
            // Another instance: a new ExportJobs over the same storage answers for the job.
            let other = ExportJobs(
                store: client.store, storage: storage, signingKey: Array("key".utf8), publicURL: "https://other.example.com", mail: nil,
                mailFrom: "a@example.com", appName: "App", logger: Logger(label: "test")
            )
            #expect(try await other.status(id: started.id) == status)
            #expect(try await other.status(id: "0123456789abcdef0123456789abcdef") == nil)
            #expect(try await other.status(id: "../../etc") == nil)
        }
    }

    @Test("a job that fails says why in its status and in the e-mail asked for")
    func failure() async throws {
        try await ExporterFixture.withServer(.sqlite) { client, storage in
            _ = try await ExporterFixture.create(client, "Post", ["n": 1])
            let outbox = OutboxMailSender()
            let jobs = ExportJobs(
                store: client.store, storage: FailingStorage(base: storage), signingKey: Array("key".utf8), publicURL: "https://api.example.com",
                mail: outbox, mailFrom: "a@example.com", appName: "App", logger: Logger(label: "test")
            )
            let started = try await jobs.start(ExportOptions(), email: "ops@example.com")
            let status = try await Self.finished(jobs, started.id)
            #expect(status.state == .failed)
            #expect(status.error?.contains("disk full") == true, "\(status.error ?? "")")
            var mail: MailMessage?
            for _ in 0..<100 where mail == nil {
                mail = outbox.last(to: "ops@example.com")
                if mail == nil { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(mail?.subject == "App data export failed")
            #expect(mail?.text.contains("disk full") == true)
        }
    }
}
