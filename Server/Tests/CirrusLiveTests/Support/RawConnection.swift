import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking TCP connection for writing a request in pieces, which URLSession cannot do.
final class RawConnection: @unchecked Sendable {
    private let descriptor: Int32

    /// Connects to `host:port`.
    /// - Throws: when the connection is refused or fails.
    init(host: String = "127.0.0.1", port: Int) throws {
        let fd = LoopbackAddress.streamSocket()
        guard fd >= 0 else { throw LiveTestError(description: "socket() failed: errno \(errno)") }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = LoopbackAddress.make(host: host, port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(fd)
            throw LiveTestError(description: "connect() to \(host):\(port) failed: errno \(code)")
        }
        descriptor = fd
    }

    deinit {
        close(descriptor)
    }

    /// Writes all of `text`.
    func write(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, LoopbackAddress.noSignal) }
            guard written > 0 else { throw LiveTestError(description: "send() failed: errno \(errno)") }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Reads what has arrived, waiting (a minute at most) until something has: the first bytes of a reply.
    func readSome() -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        return String(decoding: buffer[0..<max(0, count)], as: UTF8.self)
    }

    /// Reads until the peer closes the connection (or a minute passes without data).
    func readToEnd() -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// True when a connection to `host:port` is refused: nothing listens there.
    static func isRefused(host: String = "127.0.0.1", port: Int) -> Bool {
        (try? RawConnection(host: host, port: port)) == nil
    }
}

/// An HTTP/1.1 reply read off a raw connection.
struct RawReply {
    let status: Int
    let body: String

    /// Parses `text`: the status line, headers, and the body after the blank line.
    init?(_ text: String) {
        guard let headEnd = text.range(of: "\r\n\r\n") else { return nil }
        let statusLine = text[..<headEnd.lowerBound].split(separator: "\r\n").first ?? ""
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        self.status = status
        body = String(text[headEnd.upperBound...])
    }
}
