package import NIOCore

/// Where a request came from: the first address of a trusted proxy's header, or the connection's peer. The peer's
/// address is written as text only when something reads it (a rate limit, the request log), not for every request.
package enum ClientAddress: Sendable {
    case text(String)
    case peer(SocketAddress)

    /// The address as text (`203.0.113.7`); `nil` for a peer without an IP address (a Unix socket).
    package var text: String? {
        switch self {
        case .text(let text): text
        case .peer(let address): address.ipAddress
        }
    }
}
