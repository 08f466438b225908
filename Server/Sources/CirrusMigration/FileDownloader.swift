import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Downloads a file's content for `--download-files`: `http` and `https` only, redirects followed up to
/// ``maximumRedirects`` (also when the client itself does not follow them), the whole exchange within `timeout`, and
/// the body read into memory up to `maximumSize` bytes.
struct FileDownloader: Sendable {
    let client: HTTPClient
    let maximumSize: Int
    let timeout: Duration
    static let maximumRedirects = 5

    /// Why a download failed; the text goes to the import report.
    struct Failure: Error, Equatable {
        let reason: String
    }

    /// The content at `url`.
    /// - Throws: ``Failure`` with a reason naming the URL.
    func download(_ url: String) async throws -> [UInt8] {
        let (seconds, attoseconds) = timeout.components
        let deadline = NIODeadline.now() + .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        do {
            return try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
                group.addTask { try await self.follow(url, deadline: deadline) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let bytes = first else {
                    throw Failure(reason: "no answer within \(timeout) from \(url)")
                }
                return bytes
            }
        } catch let failure as Failure {
            throw failure
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw Failure(reason: "cannot download \(url): \(error)")
        }
    }

    private func follow(_ original: String, deadline: NIODeadline) async throws -> [UInt8] {
        var current = original
        var redirects = 0
        while true {
            guard let parsed = URL(string: current), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
                parsed.host?.isEmpty == false
            else { throw Failure(reason: "not an http or https URL: \(current)") }
            var request = HTTPClientRequest(url: current)
            request.method = .GET
            let response = try await client.execute(request, deadline: deadline)
            let status = response.status.code
            if (300..<400).contains(status), let location = response.headers.first(name: "location") {
                redirects += 1
                guard redirects <= Self.maximumRedirects else {
                    throw Failure(reason: "more than \(Self.maximumRedirects) redirects from \(original)")
                }
                guard let next = URL(string: location, relativeTo: parsed)?.absoluteString else {
                    throw Failure(reason: "a redirect to an invalid URL (\(location)) from \(current)")
                }
                current = next
                continue
            }
            guard (200..<300).contains(status) else { throw Failure(reason: "HTTP \(status) from \(current)") }
            if let length = response.headers.first(name: "content-length").flatMap(Int.init), length > maximumSize {
                throw Failure(reason: "\(current) is \(length) bytes, more than the limit of \(maximumSize)")
            }
            var bytes: [UInt8] = []
            for try await chunk in response.body {
                guard bytes.count + chunk.readableBytes <= maximumSize else {
                    throw Failure(reason: "\(current) is more than the limit of \(maximumSize) bytes")
                }
                bytes += chunk.readableBytesView
            }
            return bytes
        }
    }
}
