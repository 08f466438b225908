package import CirrusModel
package import CirrusServices
package import CirrusStorage
import Foundation
package import Logging

/// `POST /1.1/exportData`: exports run in the background into the file storage, where any instance finds them.
///
/// Keys: `exports-<id>.json` (running), then `exports-<id>.done.json` or `exports-<id>.failed.json` (each key is
/// written once), and the `.tar.gz` in pieces of ``partSize`` bytes (8 MiB), `exports-<id>.tar.gz.<n>` (a file storage takes
/// whole contents, so pieces keep memory bounded), streamed back in order on download. The archive holds password
/// hashes: it is downloaded only through a signed, expiring URL (``ExportDownloadToken``).
package struct ExportJobs: Sendable {
    package let store: any StorageAdapter
    package let storage: any FileStorage
    /// Signs download URLs: the key of upload URLs.
    package let signingKey: [UInt8]
    /// Where the download URLs point: the server's public base URL (`https://api.example.com`).
    package let publicURL: String
    /// Sends the link when the request gave an `email`.
    package let mail: (any MailSender)?
    package let mailFrom: String
    package let appName: String
    package let logger: Logger
    /// How long a download URL stays valid, in milliseconds.
    package var downloadLifetime: Int64 = 24 * 3_600_000
    /// The size of the archive's pieces in the file storage (the last one may be shorter).
    package var partSize = 8 * 1024 * 1024

    package init(
        store: any StorageAdapter, storage: any FileStorage, signingKey: [UInt8], publicURL: String, mail: (any MailSender)?, mailFrom: String,
        appName: String, logger: Logger
    ) {
        self.store = store
        self.storage = storage
        self.signingKey = signingKey
        self.publicURL = publicURL
        self.mail = mail
        self.mailFrom = mailFrom
        self.appName = appName
        self.logger = logger
    }

    /// Records the job as running and starts it; returns at once.
    /// - Throws: ``APIError`` ``APIError/Reason/classNotFound`` when `options` names a class the store lacks.
    package func start(_ options: ExportOptions, email: String?) async throws -> ExportJobStatus {
        _ = try await Exporter(store: store, files: nil, options: options).checkedSchemas()
        let id = Self.makeId()
        let status = ExportJobStatus(id: id, state: .running, startedAt: .now())
        try await storage.write(JSONWriter.bytes(status.stored), key: "exports-\(id).json", mimeType: "application/json")
        Task { await run(status, options: options, email: email) }
        return status
    }

    /// The job's latest state, or `nil` for an unknown id.
    package func status(id: String) async throws -> ExportJobStatus? {
        guard Self.isValidId(id) else { return nil }
        for key in ["exports-\(id).done.json", "exports-\(id).failed.json", "exports-\(id).json"] {
            if let content = try await storage.read(key: key, range: nil), let json = try? JSONParser.parse(content.bytes),
                let status = ExportJobStatus(stored: json)
            {
                return status
            }
        }
        return nil
    }

    /// A fresh signed URL for the archive of a finished job.
    package func downloadURL(id: String, now: Timestamp = .now()) -> String {
        let expires = Timestamp(millisecondsSince1970: now.millisecondsSince1970 + downloadLifetime)
        let signature = ExportDownloadToken.signature(id: id, expiresAt: expires, key: signingKey)
        return "\(publicURL)\(Self.downloadPath(id: id))?expires=\(expires.millisecondsSince1970)&signature=\(signature)"
    }

    package static func downloadPath(id: String) -> String { "/1.1/exportData/\(id)/download" }

    /// The key of a piece of a job's archive.
    package static func partKey(id: String, part: Int) -> String { "exports-\(id).tar.gz.\(part)" }

    /// Ids are 32 lower-case hex digits.
    package static func isValidId(_ id: String) -> Bool {
        id.utf8.count == 32 && id.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    static func makeId() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
    }

    private func run(_ initial: ExportJobStatus, options: ExportOptions, email: String?) async {
        var status = initial
        let directory = NSTemporaryDirectory() + "cirrus-export-\(status.id)"
        let archive = directory + "/export.tar.gz"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let summary = try await Exporter(store: store, files: storage, options: options).export(to: archive)
            status.size = try await storeParts(of: archive, id: status.id, into: &status.parts)
            status.classes = summary.classes
            status.state = .done
            try await storage.write(JSONWriter.bytes(status.stored), key: "exports-\(status.id).done.json", mimeType: "application/json")
            logger.info("Export \(status.id) done: \(status.size) bytes")
        } catch {
            status.state = .failed
            status.error = "\(error)"
            logger.error("Export \(status.id) failed: \(error)")
            try? await storage.write(JSONWriter.bytes(status.stored), key: "exports-\(status.id).failed.json", mimeType: "application/json")
        }
        if let email, let mail, !email.isEmpty {
            await send(status, to: email, mail: mail)
        }
    }

    /// Copies the archive into the file storage in pieces; returns its size.
    private func storeParts(of path: String, id: String, into parts: inout Int) async throws -> Int {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var size = 0
        while let data = try handle.read(upToCount: partSize), !data.isEmpty {
            try await storage.write(Array(data), key: Self.partKey(id: id, part: parts), mimeType: "application/gzip")
            parts += 1
            size += data.count
        }
        return size
    }

    private func send(_ status: ExportJobStatus, to address: String, mail: any MailSender) async {
        let text: String
        switch status.state {
        case .done:
            text = "The data export \(status.id) of \(appName) is ready. Download it within 24 hours:\n\n\(downloadURL(id: status.id))\n"
        default:
            text = "The data export \(status.id) of \(appName) failed: \(status.error ?? "unknown error").\n"
        }
        let message = MailMessage(from: mailFrom, fromName: appName, to: [address], subject: "\(appName) data export \(status.state.rawValue)", text: text)
        do {
            try await mail.send(message)
        } catch {
            logger.error("Export \(status.id): the mail to \(address) could not be sent: \(error)")
        }
    }
}
