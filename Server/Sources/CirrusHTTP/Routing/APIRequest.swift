package import CirrusModel
package import CirrusServices
package import HTTPTypes

/// A request as the controllers see it: dialect, caller, route parameters, query and parsed body.
///
/// The same type carries a batch sub-request, so every endpoint works inside `/batch` unchanged.
package struct APIRequest: Sendable {
    package var dialect: Dialect
    package var method: HTTPRequest.Method
    /// The path below the dialect prefix, split on `/` (`["classes", "Post", "abc"]`).
    package var segments: [String]
    /// The prefix the client addressed (`/1.1`, `/1`, `/parse`), for `Location` headers.
    package var pathPrefix: String
    package var query: [String: String]
    /// The body as sent; `nil` when there was none.
    package var bodyText: [UInt8]?
    package var caller: Caller
    /// The session token the request carries, if any.
    package var sessionToken: String?
    /// The installation the request comes from (Parse's `X-Parse-Installation-Id`).
    package var installationId: String?
    /// The request's `Content-Type` (the type of an uploaded file).
    package var contentType: String?
    /// The client's network address, for per-client limits; `nil` when unknown.
    package var client: ClientAddress?
    /// ``client`` as text.
    package var clientAddress: String? { client?.text }
    /// Route parameters, filled by the router (`className`, `objectId`).
    package var parameters: [String: String] = [:]
    /// Whether this is one request of a batch.
    package var isBatchItem = false
    /// Whether cloud code runs on the production engine: LeanCloud's `X-LC-Prod` (`0` asks for staging).
    package var production = true
    /// The body already parsed (method-override bodies and batch sub-requests).
    var parsedBody: JSON?

    package init(dialect: Dialect, method: HTTPRequest.Method, segments: [String], query: [String: String], bodyText: [UInt8]?, caller: Caller) {
        self.dialect = dialect
        self.method = method
        self.segments = segments
        self.pathPrefix = dialect.pathPrefix
        self.query = query
        self.bodyText = bodyText
        self.caller = caller
    }

    /// This request addressed to the object endpoints of `className` (`/users` is `_User`, `/roles` `_Role`).
    func addressing(_ className: String) -> APIRequest {
        var request = self
        request.parameters["className"] = className
        return request
    }

    /// A route parameter.
    package func parameter(_ name: String) -> String {
        parameters[name] ?? ""
    }

    /// The JSON body.
    /// - Throws: ``APIError`` ``APIError/Reason/invalidJSON`` when it is missing or not JSON.
    package func jsonBody() throws(APIError) -> JSON {
        if let parsedBody { return parsedBody }
        guard let bodyText, !bodyText.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else {
            throw APIError(.invalidJSON, "A JSON body is required.")
        }
        do {
            return try JSONParser.parse(bodyText)
        } catch {
            throw APIError(.invalidJSON, "Malformed JSON: \(error.description).")
        }
    }

    /// The JSON body, or `null` when the request has none (or only white space), as the SDKs that send no body, or
    /// `null`, for an optional one.
    /// - Throws: ``APIError`` ``APIError/Reason/invalidJSON`` for a body that is not JSON.
    package func optionalJSONBody() throws(APIError) -> JSON {
        if parsedBody == nil, bodyText?.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) ?? true { return .null }
        return try jsonBody()
    }

    /// The JSON body as an object.
    /// - Throws: ``APIError`` ``APIError/Reason/invalidJSON`` unless it is a JSON object.
    package func objectBody() throws(APIError) -> JSON {
        let body = try jsonBody()
        guard case .object = body else { throw APIError(.invalidJSON, "A JSON object is expected as the body.") }
        return body
    }

    /// A boolean query flag (`true`/`1`).
    package func flag(_ name: String) -> Bool {
        guard let value = query[name]?.lowercased() else { return false }
        return value == "true" || value == "1"
    }
}

/// A reply: status, JSON body and extra headers.
package struct APIResponse: Sendable {
    package var status: HTTPResponse.Status
    /// The body; a body written ahead (``written``) is parsed from its text when asked for (a batch's item).
    package var body: JSON {
        get { written.flatMap { try? JSONParser.parse($0) } ?? value }
        set {
            value = newValue
            written = nil
        }
    }
    private var value: JSON
    /// The body's text, written ahead: object replies that send the stored documents as they are
    /// (``ObjectEncoder/fragment(_:schema:returnACL:keys:include:)``). `nil`: the reply writes ``body``.
    package private(set) var written: [UInt8]?
    package var headers: [(HTTPField.Name, String)]
    /// Set on a LeanCloud fetch of a missing object, which a batch reports as `{"success":null}`.
    package var isMissingObject = false

    package init(status: HTTPResponse.Status = .ok, body: JSON, headers: [(HTTPField.Name, String)] = []) {
        self.status = status
        self.value = body
        self.headers = headers
    }

    /// A reply whose body is `body`, written now, with its parts written before spliced in as they are.
    package init(status: HTTPResponse.Status = .ok, body: JSONWriter.Fragment, headers: [(HTTPField.Name, String)] = []) {
        self.status = status
        self.value = .null
        self.written = JSONWriter.bytes(body)
        self.headers = headers
    }
}
