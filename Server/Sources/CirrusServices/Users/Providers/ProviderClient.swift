import CirrusModel

/// One call to a provider's API: a `GET` of `url`, or a `POST` of `form` (URL-encoded) to it.
package struct ProviderRequest: Sendable, Hashable {
    package var url: String
    package var form: [String: String]?

    package init(url: String, form: [String: String]? = nil) {
        self.url = url
        self.form = form
    }

    /// A `GET` of `base` with the query `items`, percent-encoded.
    static func get(_ base: String, _ items: [(String, String)]) -> ProviderRequest {
        ProviderRequest(url: base + "?" + encoded(items))
    }

    /// `name=value&…`, every byte but RFC 3986's unreserved ones percent-encoded.
    package static func encoded(_ items: [(String, String)]) -> String {
        items.map { percentEncoded($0.0) + "=" + percentEncoded($0.1) }.joined(separator: "&")
    }

    static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            let unreserved = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || "-._~".utf8.contains(byte)
            bytes += unreserved ? [byte] : [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A provider's reply.
package struct ProviderReply: Sendable, Hashable {
    package var status: Int
    package var body: [UInt8]

    package init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }
}

/// How the token checks reach providers (an HTTPS client in the server, or whatever an embedder supplies).
package protocol ProviderClient: Sendable {
    /// Sends a request and reads the whole reply, all within `timeout`.
    /// - Throws: when no complete reply arrives in time (refused connection, timeout, TLS).
    func send(_ request: ProviderRequest, timeout: Duration) async throws -> ProviderReply
}

/// A provider call on behalf of one platform's check: the reply's JSON object, or the failure a client is told.
struct ProviderCall: Sendable {
    let platform: String
    let client: any ProviderClient
    let timeout: Duration

    /// The JSON object the provider answered (also with a 4xx status, which providers use for refused tokens).
    /// - Throws: ``APIError`` ``APIError/Reason/authProviderUnavailable`` when the provider cannot be reached in time,
    ///   fails (5xx) or answers something else than a JSON object.
    func json(_ request: ProviderRequest) async throws -> JSON {
        let reply: ProviderReply
        do {
            reply = try await client.send(request, timeout: timeout)
        } catch {
            throw unavailable("no reply within \(timeout) (\(error))")
        }
        guard reply.status < 500 else { throw unavailable("it answered \(reply.status)") }
        // QQ answers `callback( {...} );` unless asked for `fmt=json`; the object is the same.
        guard let start = reply.body.firstIndex(of: UInt8(ascii: "{")), let end = reply.body.lastIndex(of: UInt8(ascii: "}")), start < end,
            case .object(let members)? = try? JSONParser.parse(reply.body[start...end])
        else { throw unavailable("it answered \(reply.status) without a JSON object") }
        return .object(members)
    }

    private func unavailable(_ reason: String) -> APIError {
        APIError(.authProviderUnavailable, "The \(platform) token could not be verified: \(reason). Try again later.")
    }
}
