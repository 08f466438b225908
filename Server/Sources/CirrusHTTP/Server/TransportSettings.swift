/// The limits of the HTTP transport: how large a request head and an unauthenticated body may be, how many
/// connections stay open, and how long the server waits for a client and for its own work. Each is a `cirrus serve`
/// setting (docs/SECURITY.md).
public struct TransportSettings: Sendable, Equatable {
    /// The longest request line (method, URL, version), in bytes; a longer one is answered 414.
    public var maximumURLSize: Int = 32 * 1024
    /// The largest header section (every header line after the request line), in bytes; a larger one is answered 431.
    public var maximumHeaderSize: Int = 64 * 1024
    /// The largest body of a request whose headers carry no app id: its credentials may be in its body (the CORS
    /// workaround of the JavaScript SDKs), so it is read before it is authenticated, and only this far.
    public var maximumUnauthenticatedBodySize: Int = 1024 * 1024
    /// Open connections at most (lowered to what the file-descriptor limit allows). A connection beyond it closes the
    /// longest-idle keep-alive connection to make room, or is answered 503 and closed when none is idle.
    public var maximumConnections: Int = 4096
    /// A keep-alive connection without a request for this long is closed.
    public var idleTimeout: Duration = .seconds(60)
    /// A request head must arrive whole within this time of its first byte (slow-loris clients); else 408.
    public var headerTimeout: Duration = .seconds(20)
    /// A request body that sends nothing for this long is abandoned: 408, and the connection is closed. A client that
    /// takes nothing of its answer for this long is disconnected too.
    public var bodyTimeout: Duration = .seconds(30)
    /// Every request is answered within this time of its head and body having arrived: a request whose work is not
    /// done by then is answered with the dialect's timeout error (LeanCloud's and Parse's 124) and its work cancelled.
    public var requestTimeout: Duration = .seconds(30)

    public init() {}
}
