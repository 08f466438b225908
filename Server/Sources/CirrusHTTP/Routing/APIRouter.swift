import CirrusModel
package import CirrusStorage
package import HTTPTypes

/// A table of endpoints matched on method and path segments, shared by all dialects.
package struct APIRouter: Sendable {
    package typealias Handler = @Sendable (APIRequest) async throws -> APIResponse

    /// One endpoint: `GET classes/:className/:objectId`. A class: matching walks every route, and a copy is then
    /// one reference, not each of its members.
    final class Route: Sendable {
        let method: HTTPRequest.Method
        let pattern: [String]
        let dialects: Set<Dialect>
        let requiresAuthentication: Bool
        /// Whether the request's session token identifies the caller. Sign-up and log-in ignore it (SDKs send the
        /// previous user's token along), and `/users/me` reads it itself.
        let resolvesSession: Bool
        /// Whether the body is a file's content, collected up to the file size limit rather than the body limit.
        let takesUpload: Bool
        /// How the endpoint runs as one write of a transactional batch; `nil` for endpoints that cannot.
        let transactional: TransactionalWrite?
        let handler: Handler

        init(
            method: HTTPRequest.Method, pattern: [String], dialects: Set<Dialect>, requiresAuthentication: Bool, resolvesSession: Bool,
            takesUpload: Bool, transactional: TransactionalWrite?, handler: @escaping Handler
        ) {
            self.method = method
            self.pattern = pattern
            self.dialects = dialects
            self.requiresAuthentication = requiresAuthentication
            self.resolvesSession = resolvesSession
            self.takesUpload = takesUpload
            self.transactional = transactional
            self.handler = handler
        }
    }

    private var routes: [Route] = []

    package init() {}

    /// Adds an endpoint. Segments starting with `:` capture a parameter.
    package mutating func on(
        _ method: HTTPRequest.Method, _ path: String, dialects: Set<Dialect> = Set(Dialect.allCases),
        authenticated: Bool = true, session: Bool = true, upload: Bool = false, transactional: TransactionalWrite? = nil,
        _ handler: @escaping Handler
    ) {
        let pattern = path.split(separator: "/").map(String.init)
        routes.append(Route(
            method: method, pattern: pattern, dialects: dialects, requiresAuthentication: authenticated, resolvesSession: session,
            takesUpload: upload, transactional: transactional, handler: handler
        ))
    }

    /// Every endpoint: its method, path pattern (`classes/:className`) and dialects, for the API description's tests.
    var endpoints: [(method: HTTPRequest.Method, path: String, dialects: Set<Dialect>)] {
        routes.map { ($0.method, $0.pattern.joined(separator: "/"), $0.dialects) }
    }

    /// The route for a request and its parameters.
    /// - Throws: ``APIError`` ``APIError/Reason/notFound`` or ``APIError/Reason/methodNotAllowed``.
    func match(_ method: HTTPRequest.Method, _ segments: [String], dialect: Dialect) throws(APIError) -> (Route, [String: String]) {
        var pathMatched = false
        for route in routes where route.dialects.contains(dialect) {
            guard let parameters = Self.bind(route.pattern, segments) else { continue }
            pathMatched = true
            if route.method == method { return (route, parameters) }
        }
        let path = "/" + segments.joined(separator: "/")
        if pathMatched { throw APIError(.methodNotAllowed, "Method \(method.rawValue) is not allowed on \(path).") }
        throw APIError(.notFound, "Not found: \(path).")
    }

    private static func bind(_ pattern: [String], _ segments: [String]) -> [String: String]? {
        guard pattern.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (expected, actual) in zip(pattern, segments) {
            if expected.hasPrefix(":") {
                guard !actual.isEmpty else { return nil }
                parameters[String(expected.dropFirst())] = actual
            } else if expected != actual {
                return nil
            }
        }
        return parameters
    }

    /// Runs the request through its endpoint; errors become the dialect's error reply.
    package func dispatch(_ request: APIRequest) async -> APIResponse {
        do {
            let (route, parameters) = try match(request.method, request.segments, dialect: request.dialect)
            var request = request
            request.parameters = parameters
            return try await route.handler(request)
        } catch {
            var response = ErrorReply.response(for: error, dialect: request.dialect)
            if (error as? APIError)?.reason == .methodNotAllowed {
                response.headers.append((.allow, allowedMethods(request.segments, dialect: request.dialect)))
            }
            return response
        }
    }

    /// The `Allow` header of a 405 (RFC 9110 requires it): the methods of the endpoints at these segments, and
    /// `OPTIONS`, which every path answers (CORS preflight).
    func allowedMethods(_ segments: [String], dialect: Dialect) -> String {
        var methods: [String] = []
        for route in routes where route.dialects.contains(dialect) && Self.bind(route.pattern, segments) != nil {
            if !methods.contains(route.method.rawValue) { methods.append(route.method.rawValue) }
        }
        return (methods + ["OPTIONS"]).joined(separator: ", ")
    }
}

/// How a write endpoint runs as one command of a transactional batch (`"transaction": true`): `prepare` checks and
/// plans the write with the service step the endpoint itself runs, and `reply` answers it as the endpoint would once
/// the batch's transaction has committed.
package struct TransactionalWrite: Sendable {
    /// The planned write and the keys it changes (for `fetchWhenSave` replies).
    package typealias Prepared = (command: WriteCommand, changedKeys: [String])

    let prepare: @Sendable (APIRequest) async throws -> Prepared
    let reply: @Sendable (APIRequest, WriteResult, _ changedKeys: [String]) async throws -> APIResponse

    package init(
        prepare: @escaping @Sendable (APIRequest) async throws -> Prepared,
        reply: @escaping @Sendable (APIRequest, WriteResult, _ changedKeys: [String]) async throws -> APIResponse
    ) {
        self.prepare = prepare
        self.reply = reply
    }
}
