import CirrusModel
import Foundation

/// Sends LeanCloud REST requests for one app: builds the URL under `/1.1`, signs, sends the session token and turns
/// error replies into `LCError`s.
struct RESTClient: Sendable {
    /// The version prefix of every path.
    static let prefix = "/1.1"

    let application: LCApplication

    /// Which session token a request carries.
    enum Session: Sendable {
        /// The current user's, if any.
        case current
        /// This one (none for `nil`).
        case token(String?)
    }

    /// Sends a request and returns the reply's JSON body (`null` for an empty body).
    /// - Parameters:
    ///   - path: the path after `/1.1` (`/classes/Todo`).
    ///   - query: query parameters, in order; values are percent-encoded here.
    /// - Throws: `LCError` with the server's code and message for an error reply, or for a failed connection.
    func send(
        _ method: String, _ path: String, query: [(String, String)] = [], body: JSON? = nil, session: Session = .current
    ) async throws -> JSON {
        try await reply(method, path, query: query, body: body, session: session).json
    }

    /// ``send(_:_:query:body:session:)``, with the reply's HTTP status (201 when the server created something).
    func reply(
        _ method: String, _ path: String, query: [(String, String)] = [], body: JSON? = nil, session: Session = .current
    ) async throws -> (json: JSON, status: Int) {
        let request = try makeRequest(method, path, query: query, body: body, session: session)
        let response: TransportResponse
        do {
            response = try await application.send(request)
        } catch {
            throw LCError(error: error)
        }
        return (try Self.decode(response), response.status)
    }

    /// The HTTP request for a call, with the app's headers.
    func makeRequest(
        _ method: String, _ path: String, query: [(String, String)] = [], body: JSON? = nil, session: Session = .current
    ) throws -> TransportRequest {
        let settings = try application.requireSettings()
        var text = settings.serverURL.absoluteString + Self.prefix + path
        if !query.isEmpty {
            text += "?" + query.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        }
        guard let url = URL(string: text) else { throw LCError.inconsistency("Not a valid URL: \(text)") }
        var headers = Self.authHeaders(settings, now: Date())
        headers["Content-Type"] = "application/json"
        if let token = sessionToken(session) { headers["X-LC-Session"] = token }
        return TransportRequest(method: method, url: url, headers: headers, body: body.map { Data(JSONWriter.bytes($0)) })
    }

    /// `X-LC-Id` and `X-LC-Sign` (or `X-LC-Key`), and the SDK's user agent.
    static func authHeaders(_ settings: LCApplication.Settings, now: Date) -> [String: String] {
        var headers = ["X-LC-Id": settings.id, "X-LC-UA": "LeanCloud-Swift-SDK/Cirrus"]
        if settings.configuration.signsRequests {
            let timestamp = String(Int64((now.timeIntervalSince1970 * 1000).rounded()))
            headers["X-LC-Sign"] = MD5.hex(timestamp + settings.key) + "," + timestamp
        } else {
            headers["X-LC-Key"] = settings.key
        }
        return headers
    }

    func sessionToken(_ session: Session) -> String? {
        switch session {
        case .token(let token): token
        case .current: application.currentUser?.sessionToken?.value
        }
    }

    /// The JSON body of a success; an `LCError` for an error reply: a status of 400 and above (with the body's
    /// `code` and `error` when it has them), or a body that is exactly `{"code","error"}`. An object's own field
    /// named `error` is not an error.
    static func decode(_ response: TransportResponse) throws -> JSON {
        let json = response.body.isEmpty ? JSON.null : try? JSONParser.parse(response.body)
        if response.status >= 400 || isErrorBody(json) {
            let code = json?["code"]?.intValue.map(Int.init) ?? response.status
            let message = json?["error"].map { $0.stringValue ?? JSONWriter.string($0) }
            throw LCError(code: code, reason: message ?? Self.text(response))
        }
        guard let json else { throw LCError.malformed("The reply is not JSON: \(text(response))") }
        return json
    }

    private static func isErrorBody(_ json: JSON?) -> Bool {
        guard let members = json?.objectValue, members.count == 2 else { return false }
        return members["code"]?.intValue != nil && members["error"]?.stringValue != nil
    }

    private static func text(_ response: TransportResponse) -> String {
        let text = String(decoding: response.body.prefix(500), as: UTF8.self)
        return text.isEmpty ? "HTTP status \(response.status)" : text
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Percent-encoding of a query name or value: only unreserved characters stay as they are, so `+` is `%2B`.
    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
