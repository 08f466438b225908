public import CirrusModel
public import CirrusServices
public import HTTPTypes

/// A request as the controllers see it: dialect, caller, route parameters, query and parsed body.
///
/// The same type carries a batch sub-request, so every endpoint works inside `/batch` unchanged.
public struct APIRequest: Sendable {
    public var dialect: Dialect
    public var method: HTTPRequest.Method
    /// The path below the dialect prefix, split on `/` (`["classes", "Post", "abc"]`).
    public var segments: [String]
    /// The prefix the client addressed (`/1.1`, `/1`, `/parse`), for `Location` headers.
    public var pathPrefix: String
    public var query: [String: String]
    /// The body as sent; `nil` when there was none.
    public var bodyText: [UInt8]?
    public var caller: Caller
    /// The session token the request carries, if any.
    public var sessionToken: String?
    /// The installation the request comes from (Parse's `X-Parse-Installation-Id`).
    public var installationId: String?
    /// The request's `Content-Type` (the type of an uploaded file).
    public var contentType: String?
    /// The client's network address, for per-client limits; `nil` when unknown.
    public var clientAddress: String?
    /// Route parameters, filled by the router (`className`, `objectId`).
    public var parameters: [String: String] = [:]
    /// Whether this is one request of a batch.
    public var isBatchItem = false
    /// The body already parsed (method-override bodies and batch sub-requests).
    var parsedBody: JSON?

    public init(dialect: Dialect, method: HTTPRequest.Method, segments: [String], query: [String: String], bodyText: [UInt8]?, caller: Caller) {
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
    public func parameter(_ name: String) -> String {
        parameters[name] ?? ""
    }

    /// The JSON body.
    /// - Throws: ``APIError`` ``APIError/Reason/invalidJSON`` when it is missing or not JSON.
    public func jsonBody() throws(APIError) -> JSON {
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

    /// The JSON body as an object.
    /// - Throws: ``APIError`` ``APIError/Reason/invalidJSON`` unless it is a JSON object.
    public func objectBody() throws(APIError) -> JSON {
        let body = try jsonBody()
        guard case .object = body else { throw APIError(.invalidJSON, "A JSON object is expected as the body.") }
        return body
    }

    /// A boolean query flag (`true`/`1`).
    public func flag(_ name: String) -> Bool {
        guard let value = query[name]?.lowercased() else { return false }
        return value == "true" || value == "1"
    }
}

/// A reply: status, JSON body and extra headers.
public struct APIResponse: Sendable {
    public var status: HTTPResponse.Status
    public var body: JSON
    public var headers: [(HTTPField.Name, String)]
    /// Set on a LeanCloud fetch of a missing object, which a batch reports as `{"success":null}`.
    public var isMissingObject = false

    public init(status: HTTPResponse.Status = .ok, body: JSON, headers: [(HTTPField.Name, String)] = []) {
        self.status = status
        self.body = body
        self.headers = headers
    }
}
