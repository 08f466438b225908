import Foundation

/// The client's half of the opening handshake (RFC 6455, 4.1) for a `ws://` URL: the HTTP/1.1 upgrade request, and
/// the checks of the server's response head.
struct WebSocketHandshake: Sendable {
    /// The GUID the server appends to the key before hashing it into `Sec-WebSocket-Accept`.
    static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
    /// The largest response head read before the frames.
    static let maximumHeadSize = 16 * 1024
    /// Headers the handshake writes itself, which the caller's headers may not repeat.
    private static let ownHeaders: Set<String> = [
        "host", "upgrade", "connection", "sec-websocket-key", "sec-websocket-version", "sec-websocket-protocol",
        "sec-websocket-extensions",
    ]
    /// The separators that may not stand in an HTTP token.
    private static let separators = Set("\"(),/:;<=>?@[\\]{}".utf8)

    /// The host to resolve: a name or an address, an IPv6 one without brackets.
    let host: String
    let port: UInt16
    /// The path and query of the request line (`/` when the URL has no path).
    let requestTarget: String
    /// The `Sec-WebSocket-Key`: 16 random bytes in base64.
    let key: String
    /// The subprotocols offered, in order of preference.
    let protocols: [String]
    /// The caller's further headers, sorted by name.
    let headers: [(name: String, value: String)]

    /// - Throws: ``WebSocketError/invalidRequest(_:)`` for a URL that is not `ws://` with a host, a subprotocol that
    ///   is not a token, or a header that the handshake sets itself or whose name or value would break the request.
    init(url: URL, protocols: [String], headers: [String: String], key: String = WebSocketHandshake.randomKey()) throws {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false), components.scheme?.lowercased() == "ws" else {
            throw WebSocketError.invalidRequest("\(url.absoluteString) is not a ws:// URL")
        }
        guard let host = components.host.map(Self.unbracketed), !host.isEmpty else {
            throw WebSocketError.invalidRequest("\(url.absoluteString) has no host")
        }
        guard let port = UInt16(exactly: components.port ?? 80) else { throw WebSocketError.invalidRequest("\(url.absoluteString) has an invalid port") }
        try Self.check(protocols: protocols, headers: headers)
        self.host = host
        self.port = port
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        requestTarget = path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        self.key = key
        self.protocols = protocols
        self.headers = headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
    }

    /// 16 random bytes in base64, a new key for each connection.
    static func randomKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64EncodedString()
    }

    /// The `Sec-WebSocket-Accept` a server answers to `key`: base64(SHA-1(key + GUID)).
    static func accept(forKey key: String) -> String {
        Data(SHA1.digest((key + acceptGUID).utf8)).base64EncodedString()
    }

    /// The request's bytes: the request line, `Host` (with the port unless it is 80), the upgrade headers, the
    /// subprotocols when there are any, then the caller's headers.
    var request: [UInt8] {
        let hostName = host.contains(":") ? "[\(host)]" : host
        var lines = [
            "GET \(requestTarget) HTTP/1.1", "Host: \(hostName)\(port == 80 ? "" : ":\(port)")", "Upgrade: websocket", "Connection: Upgrade",
            "Sec-WebSocket-Key: \(key)", "Sec-WebSocket-Version: 13",
        ]
        if !protocols.isEmpty { lines.append("Sec-WebSocket-Protocol: \(protocols.joined(separator: ", "))") }
        lines += headers.map { "\($0.name): \($0.value)" }
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    /// The length of the response head at the start of `bytes`, its closing empty line included, or `nil` while it is
    /// incomplete.
    static func headLength(in bytes: ArraySlice<UInt8>) -> Int? {
        let end: [UInt8] = [13, 10, 13, 10]
        guard bytes.count >= 4 else { return nil }
        for index in bytes.startIndex...(bytes.endIndex - 4) where bytes[index..<(index + 4)].elementsEqual(end) {
            return index + 4 - bytes.startIndex
        }
        return nil
    }

    /// Checks the server's response head (without its closing empty line) and returns the subprotocol it chose.
    /// - Throws: ``WebSocketError/handshakeFailed(_:)`` unless it is `101` with `Upgrade: websocket`, a `Connection`
    ///   naming `Upgrade`, the right `Sec-WebSocket-Accept`, no extension, and no subprotocol or an offered one.
    func subprotocol(acceptedIn head: some Sequence<UInt8>) throws -> String? {
        let lines = String(decoding: Array(head), as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines.first ?? ""
        let status = statusLine.split(separator: " ", maxSplits: 2)
        guard status.count >= 2, status[0].hasPrefix("HTTP/1."), status[1] == "101" else {
            throw WebSocketError.handshakeFailed("the server answered \"\(statusLine.prefix(200))\" instead of 101 Switching Protocols")
        }
        let fields = Self.fields(lines.dropFirst())
        guard fields["upgrade"]?.lowercased() == "websocket" else { throw WebSocketError.handshakeFailed("no Upgrade: websocket in the response") }
        guard Self.tokens(fields["connection"]).contains("upgrade") else {
            throw WebSocketError.handshakeFailed("no Connection: Upgrade in the response")
        }
        guard fields["sec-websocket-accept"] == Self.accept(forKey: key) else {
            throw WebSocketError.handshakeFailed("the response's Sec-WebSocket-Accept does not match the key")
        }
        guard fields["sec-websocket-extensions"] == nil else { throw WebSocketError.handshakeFailed("the server chose an extension, none was offered") }
        guard let chosen = fields["sec-websocket-protocol"] else { return nil }
        guard protocols.contains(chosen) else { throw WebSocketError.handshakeFailed("the server chose the subprotocol \(chosen), which was not offered") }
        return chosen
    }

    /// Header fields by lower-cased name, the values of a repeated one joined with commas.
    private static func fields(_ lines: ArraySlice<String>) -> [String: String] {
        var fields: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            fields[name] = fields[name].map { "\($0), \(value)" } ?? value
        }
        return fields
    }

    /// The lower-cased comma-separated tokens of a header value.
    private static func tokens(_ value: String?) -> [String] {
        (value ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    /// `[::1]` as `::1`; any other host as it is.
    private static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    /// Subprotocols are HTTP tokens; header names are tokens the handshake does not write itself, and values hold no
    /// line break.
    private static func check(protocols: [String], headers: [String: String]) throws {
        for name in protocols where !isToken(name) {
            throw WebSocketError.invalidRequest("the subprotocol \"\(name)\" is not a token")
        }
        for (name, value) in headers {
            guard isToken(name), !ownHeaders.contains(name.lowercased()) else {
                throw WebSocketError.invalidRequest("the header \"\(name)\" cannot be set")
            }
            guard !value.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) else {
                throw WebSocketError.invalidRequest("the value of the header \(name) has a line break")
            }
        }
    }

    /// Whether `text` is an HTTP token (RFC 9110, 5.6.2).
    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (0x21...0x7E).contains($0) && !separators.contains($0) }
    }
}
