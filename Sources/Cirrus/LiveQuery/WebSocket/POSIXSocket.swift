#if canImport(Glibc)
import Foundation
import Glibc

/// A connected TCP socket over POSIX calls, for ``POSIXWebSocketConnection``: connecting with a deadline, blocking
/// reads and writes, and the end, where ``shutdown()`` may come from any thread but ``close()`` only from the socket's
/// owner once no read or write is in progress, so that its descriptor is closed exactly once and never used after.
final class POSIXSocket: @unchecked Sendable {
    /// How long a write may wait for the peer to take bytes before the connection counts as broken.
    static let sendTimeout: Duration = .seconds(30)

    /// A failed call and its `errno`.
    struct Failure: Error, CustomStringConvertible {
        let call: String
        let code: Int32

        var description: String { "\(call): \(String(cString: strerror(code)))" }
    }

    private let descriptor: Int32
    private let lock = NSLock()
    /// Whether the descriptor is open (until ``close()``); guarded by ``lock``.
    private var isOpen = true

    /// Takes over `descriptor`, a connected stream socket.
    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// A socket connected to `host` and `port`: each address name resolution gives, in turn, until one connects.
    /// - Throws: ``WebSocketError/unreachable(_:)``, or ``WebSocketError/timedOut`` once `deadline` passed.
    static func connect(host: String, port: UInt16, deadline: ContinuousClock.Instant) throws -> POSIXSocket {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else {
            throw WebSocketError.unreachable("\(host) cannot be resolved: \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var failure: (any Error)?
        for address in sequence(first: list, next: { $0.pointee.ai_next }) {
            do {
                return try connect(to: address.pointee, deadline: deadline)
            } catch WebSocketError.timedOut {
                throw WebSocketError.timedOut
            } catch {
                failure = error
            }
        }
        throw WebSocketError.unreachable("\(host):\(port): \(failure.map { "\($0)" } ?? "no address")")
    }

    /// A socket connected to one address: a non-blocking connect awaited with `poll` until the deadline, then a
    /// blocking socket without Nagle's delay, whose writes time out after ``sendTimeout``.
    private static func connect(to address: addrinfo, deadline: ContinuousClock.Instant) throws -> POSIXSocket {
        let descriptor = Glibc.socket(address.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), address.ai_protocol)
        guard descriptor >= 0 else { throw Failure(call: "socket", code: errno) }
        let socket = POSIXSocket(descriptor: descriptor)
        do {
            let flags = fcntl(descriptor, F_GETFL)
            guard fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else { throw Failure(call: "fcntl", code: errno) }
            if Glibc.connect(descriptor, address.ai_addr, address.ai_addrlen) != 0 {
                guard errno == EINPROGRESS else { throw Failure(call: "connect", code: errno) }
                try socket.wait(for: Int16(POLLOUT), until: deadline)
                try socket.checkConnected()
            }
            guard fcntl(descriptor, F_SETFL, flags) == 0 else { throw Failure(call: "fcntl", code: errno) }
            try socket.setOption(Int32(IPPROTO_TCP), TCP_NODELAY, 1)
            try socket.setSendTimeout(sendTimeout)
            return socket
        } catch {
            socket.close()
            throw error
        }
    }

    /// Writes all of `bytes`, looping over partial writes; no `SIGPIPE` when the peer is gone.
    /// - Parameter waiting: `false` to give up rather than wait for room in the send buffer.
    /// - Throws: ``Failure`` when the socket is closed, broke, or its peer took nothing for ``sendTimeout``.
    func sendAll(_ bytes: [UInt8], waiting: Bool = true) throws {
        guard lock.withLock({ isOpen }) else { throw Failure(call: "send", code: EBADF) }
        let flags = Int32(MSG_NOSIGNAL) | (waiting ? 0 : Int32(MSG_DONTWAIT))
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { buffer in
                Glibc.send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, flags)
            }
            if sent < 0 {
                guard errno == EINTR else { throw Failure(call: "send", code: errno) }
                continue
            }
            offset += sent
        }
    }

    /// Reads what has arrived into `buffer`, waiting for something.
    /// - Returns: how many bytes were read, from the buffer's start; 0 once the peer has ended the stream or the
    ///   socket was shut down.
    /// - Throws: ``Failure`` when the connection broke.
    func receive(into buffer: inout [UInt8]) throws -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count >= 0 { return count }
            guard errno == EINTR else { throw Failure(call: "recv", code: errno) }
        }
    }

    /// Waits until bytes can be read.
    /// - Throws: ``WebSocketError/timedOut`` once `deadline` passed.
    func waitReadable(until deadline: ContinuousClock.Instant) throws {
        try wait(for: Int16(POLLIN), until: deadline)
    }

    /// Ends both directions: a blocked read returns at once and a blocked write fails. Any thread may call it, any
    /// number of times.
    func shutdown() {
        lock.withLock {
            if isOpen { _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }

    /// Closes the descriptor, once. Only the socket's owner calls it, when no read or write is in progress.
    func close() {
        lock.withLock {
            guard isOpen else { return }
            isOpen = false
            _ = Glibc.close(descriptor)
        }
    }

    /// Polls for `events` until `deadline`.
    private func wait(for events: Int16, until deadline: ContinuousClock.Instant) throws {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { throw WebSocketError.timedOut }
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, Self.milliseconds(remaining))
            if ready > 0 { return }
            if ready < 0, errno != EINTR { throw Failure(call: "poll", code: errno) }
        }
    }

    /// The outcome of a non-blocking connect once the socket is writable.
    private func checkConnected() throws {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { throw Failure(call: "getsockopt", code: errno) }
        guard error == 0 else { throw Failure(call: "connect", code: error) }
    }

    private func setOption(_ level: Int32, _ name: Int32, _ value: Int32) throws {
        var value = value
        guard setsockopt(descriptor, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw Failure(call: "setsockopt", code: errno)
        }
    }

    private func setSendTimeout(_ timeout: Duration) throws {
        var value = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        guard setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size)) == 0 else {
            throw Failure(call: "setsockopt", code: errno)
        }
    }

    /// `duration` in whole milliseconds, at least 1, for `poll`.
    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        return Int32(clamping: max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
    }
}
#endif
