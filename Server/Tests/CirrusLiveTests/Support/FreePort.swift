#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Asks the kernel for a TCP port that is free on the loopback interface.
enum FreePort {
    /// A port nobody listens on right now (bound to port 0, read back, released).
    static func next() throws -> Int {
        let descriptor = LoopbackAddress.streamSocket()
        guard descriptor >= 0 else { throw LiveTestError(description: "socket() failed: errno \(errno)") }
        defer { close(descriptor) }
        var address = LoopbackAddress.make(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw LiveTestError(description: "bind() failed: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw LiveTestError(description: "getsockname() failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// `sockaddr_in` values on the loopback interface.
enum LoopbackAddress {
    /// `host:port` as a `sockaddr_in`; `host` is a dotted IPv4 address such as 127.0.0.1.
    static func make(host: String = "127.0.0.1", port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        _ = inet_pton(AF_INET, host, &address.sin_addr)
        return address
    }

    /// A new IPv4 TCP socket; negative on failure.
    static func streamSocket() -> Int32 {
        #if canImport(Glibc)
        socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        socket(AF_INET, SOCK_STREAM, 0)
        #endif
    }

    /// `send` flags that turn a write to a closed connection into an error instead of `SIGPIPE`.
    static var noSignal: Int32 {
        #if canImport(Glibc)
        Int32(MSG_NOSIGNAL)
        #else
        0
        #endif
    }
}
