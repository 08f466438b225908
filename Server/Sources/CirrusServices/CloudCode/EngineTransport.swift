/// One call to the cloud-code engine: a method, a path below its URL, headers and a JSON body.
package struct EngineRequest: Sendable {
    package var method: String
    /// The path and query below the engine's URL: `/1.1/functions/hello`.
    package var path: String
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]?

    package init(method: String, path: String, headers: [(name: String, value: String)], body: [UInt8]?) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }
}

/// The engine's reply: its status and its body, read whole up to the transport's bound.
package struct EngineReply: Sendable {
    package var status: Int
    package var body: [UInt8]

    package init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }
}

/// Why a call to the engine got no usable reply.
package enum EngineTransportError: Error, Sendable, Equatable {
    /// No complete reply within the call's time limit.
    case timedOut
    /// The reply's body was larger than the transport reads.
    case replyTooLarge(limit: Int)
    /// The engine answered with a redirect, which the transport does not follow.
    case redirected(status: Int)
    /// The connection failed (refused, reset, TLS, a bad URL).
    case unreachable(String)
}

/// How the server reaches the cloud-code engine (an HTTP client in the server; anything an embedder supplies).
package protocol EngineTransport: Sendable {
    /// Sends `request` to the engine at `baseURL` and reads its whole reply, all within `timeout`.
    /// - Throws: ``EngineTransportError``.
    func send(_ request: EngineRequest, to baseURL: String, timeout: Duration) async throws(EngineTransportError) -> EngineReply
}
