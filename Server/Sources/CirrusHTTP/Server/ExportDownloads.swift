import CirrusMigration
import CirrusModel
import CirrusStorage
import Hummingbird

/// `GET /1.1/exportData/<id>/download?expires=…&signature=…`: the archive of a finished export, streamed piece by
/// piece from the file storage. Only a URL signed by this server (``ExportDownloadToken``) and not yet expired opens
/// it: the archive holds password hashes.
struct ExportDownloads: Sendable {
    let jobs: ExportJobs

    static let prefix = "/1.1/exportData/"
    static let suffix = "/download"

    func respond(to request: Request) async -> Response? {
        let path = request.uri.path
        guard path.hasPrefix(Self.prefix), path.hasSuffix(Self.suffix), request.method == .get || request.method == .head else { return nil }
        let id = String(path.dropFirst(Self.prefix.count).dropLast(Self.suffix.count))
        let query = QueryString.parse(request.uri.query ?? "", plus: .space)
        guard ExportJobs.isValidId(id),
            ExportDownloadToken.isValid(
                id: id, expires: query["expires"] ?? "", signature: query["signature"] ?? "", key: jobs.signingKey, now: .now()
            )
        else {
            return Self.text(.forbidden, "The download URL is invalid or has expired; ask GET /1.1/exportData/<id> for a new one.\n")
        }
        do {
            guard let status = try await jobs.status(id: id), status.state == .done else { return Self.text(.notFound, "Not found\n") }
            var headers: HTTPFields = [
                .contentType: "application/gzip", .contentDisposition: "attachment; filename=\"export-\(id).tar.gz\"",
                .cacheControl: "private, no-store",
            ]
            if request.method == .head {
                headers[.contentLength] = String(status.size)
                return Response(status: .ok, headers: headers)
            }
            let storage = jobs.storage
            let body = ResponseBody(contentLength: status.size) { writer in
                for part in 0..<status.parts {
                    guard let content = try await storage.read(key: ExportJobs.partKey(id: id, part: part), range: nil) else {
                        throw ExportDownloadError.partMissing(part)
                    }
                    try await writer.write(ByteBuffer(bytes: content.bytes))
                }
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: headers, body: body)
        } catch {
            return Self.text(.internalServerError, "Internal server error\n")
        }
    }

    static func text(_ status: HTTPResponse.Status, _ message: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: message)))
    }
}

enum ExportDownloadError: Error {
    case partMissing(Int)
}
