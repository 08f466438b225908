#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP socket on 127.0.0.1 that listens but never accepts: connections complete (the kernel queues them) and
/// requests go unanswered, like a hung server.
final class SilentListener: Sendable {
    let port: Int
    private let descriptor: Int32

    init() throws {
        port = try FreePort.next()
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let listening = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 && listen(descriptor, 16) == 0
            }
        }
        guard descriptor >= 0, listening else { throw MotoServerError("cannot listen on 127.0.0.1:\(port): errno \(errno)") }
    }

    deinit {
        close(descriptor)
    }
}
