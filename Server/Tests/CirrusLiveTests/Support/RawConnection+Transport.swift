import CirrusTesting
import Foundation

/// What the transport tests need of a raw connection: a request head written by hand, the reply and how long it took.
extension RawConnection {
    /// Connects to the in-process server `server`.
    convenience init(_ server: LiveTestServer) throws {
        try self.init(port: server.port)
    }

    /// Reads until the server closes the connection: the reply and the time it took. The blocking read runs on a
    /// thread of its own: on the cooperative pool it would starve the in-process server of threads.
    func readUntilClosed() async -> (reply: RawReply?, elapsed: Duration) {
        let start = ContinuousClock.now
        let text = await Self.blocking { self.readToEnd() }
        return (RawReply(text), ContinuousClock.now - start)
    }

    /// Writes all of `text`, off the cooperative pool (a large write blocks until the server reads or closes).
    func transmit(_ text: String) async throws {
        try await Self.blocking { try self.write(text) }
    }

    /// Runs blocking socket work on a dispatch thread.
    static func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }

    static func blocking<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }
}

extension LiveTestServer {
    /// The port the server listens on.
    var port: Int { Int(baseURL.split(separator: ":").last ?? "") ?? 0 }

    /// The head of a request authenticated with the app key, in LeanCloud's headers.
    func head(_ method: String, _ path: String, headers: [String] = []) -> String {
        let lines = ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1", "X-LC-Id: \(keys.appId)", "X-LC-Key: \(keys.appKey)"] + headers
        return lines.joined(separator: "\r\n") + "\r\n\r\n"
    }
}

extension RawReply {
    /// The body as JSON; `null` when it does not parse.
    var json: JSON { (try? JSONParser.parse(body)) ?? .null }
}
