/// How the server serves LiveQuery's WebSocket.
public struct LiveQuerySettings: Sendable, Hashable {
    /// Whether LiveQuery is served at all (the REST subscribe, `/v1/route` and the socket).
    public var enabled = true
    /// The port of the socket's listener; `nil` for the API's port plus one, 0 for any free port.
    public var port: Int?
    /// The socket's URL as clients reach it (`wss://example.com/rtm` behind a proxy); `nil` for the host of the API's
    /// public URL (or the listening address) with the listener's port and ``path``.
    public var publicURL: String?
    /// The socket's path, for LeanCloud's SDKs (the router gives them its whole URL).
    public var path = "/rtm"
    /// The path of Parse's LiveQuery socket on the same port (Parse SDKs: `liveQueryServerURL` `ws://host:<port>/parse`).
    public var parsePath = "/parse"
    /// How long a socket may stay open without logging in (LeanCloud closes it with 4108).
    public var loginTimeout: Duration = .seconds(60)
    /// How many events a socket may have waiting to be sent; past it the socket is closed (a client that does not read
    /// never grows the server's memory) and its client re-subscribes when it reconnects.
    public var queueLimit = 1_000
    /// How many recent change-log records are kept (within the change log's retention) for clients that resume after
    /// a dropped connection (Cirrus's `resumeAfter` login, which the Swift SDK sends).
    public var replayLimit = 10_000
    /// The largest frame a client may send (LeanCloud's clients send at most 5 KB; 4109 beyond).
    public var maximumFrameSize = 64 * 1024

    public init() {}

    /// The socket's URL: ``publicURL``, else `ws://` (`wss://` when the API's public URL is `https`) with the host of
    /// `apiURL`, the listener's port and ``path``.
    package func socketURL(apiURL: String, listenerPort: Int) -> String {
        if let publicURL { return publicURL }
        let secure = apiURL.hasPrefix("https://")
        var host = apiURL.drop(while: { $0 != "/" }).drop(while: { $0 == "/" }).prefix(while: { $0 != "/" })
        if host.hasPrefix("[") {
            host = host.prefix(through: host.firstIndex(of: "]") ?? host.index(before: host.endIndex))
        } else if let colon = host.lastIndex(of: ":") {
            host = host[..<colon]
        }
        return (secure ? "wss://" : "ws://") + host + ":\(listenerPort)" + path
    }
}
