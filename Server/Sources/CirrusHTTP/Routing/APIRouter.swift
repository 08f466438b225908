import CirrusModel
package import CirrusStorage
package import HTTPTypes

/// A table of endpoints matched on method and path segments, shared by all dialects.
package struct APIRouter: Sendable {
    package typealias Handler = @Sendable (APIRequest) async throws -> APIResponse

    /// One endpoint: `GET classes/:className/:objectId`. A class: a match hands out one reference, not a copy of
    /// each of its members.
    final class Route: Sendable {
        let method: HTTPRequest.Method
        let pattern: [String]
        /// The pattern as written (`classes/:className/:objectId`).
        let path: String
        let dialects: Set<Dialect>
        /// `dialects` as bits (``Dialect/bit``), tested on every match without hashing.
        let dialectBits: UInt8
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
            self.path = pattern.joined(separator: "/")
            self.dialects = dialects
            self.dialectBits = dialects.reduce(0) { $0 | $1.bit }
            self.requiresAuthentication = requiresAuthentication
            self.resolvesSession = resolvesSession
            self.takesUpload = takesUpload
            self.transactional = transactional
            self.handler = handler
        }

        /// The parameters this route binds from `segments`, or `nil` when they are not its path.
        func bind(_ segments: [String]) -> [String: String]? {
            guard pattern.count == segments.count else { return nil }
            var parameters: [String: String] = [:]
            for (expected, actual) in zip(pattern, segments) {
                if expected.utf8.first == UInt8(ascii: ":") {
                    guard !actual.isEmpty else { return nil }
                    parameters[String(expected.dropFirst())] = actual
                } else if expected != actual {
                    return nil
                }
            }
            return parameters
        }
    }

    /// A route a request reached, with the parameters it bound.
    package struct Match: Sendable {
        let route: Route
        let parameters: [String: String]
    }

    /// Every route, in the order registered (the first that matches wins).
    private var routes: [Route] = []
    /// The routes by their first segment (when it is not a parameter), in the order registered; routes starting with
    /// a parameter are in ``openRoutes`` and are tried wherever they fall in that order.
    private var routesByFirstSegment: [String: [Int]] = [:]
    private var openRoutes: [Int] = []

    package init() {}

    /// Adds an endpoint. Segments starting with `:` capture a parameter.
    package mutating func on(
        _ method: HTTPRequest.Method, _ path: String, dialects: Set<Dialect> = Set(Dialect.allCases),
        authenticated: Bool = true, session: Bool = true, upload: Bool = false, transactional: TransactionalWrite? = nil,
        _ handler: @escaping Handler
    ) {
        let pattern = path.split(separator: "/").map(String.init)
        let index = routes.count
        routes.append(Route(
            method: method, pattern: pattern, dialects: dialects, requiresAuthentication: authenticated, resolvesSession: session,
            takesUpload: upload, transactional: transactional, handler: handler
        ))
        if let first = pattern.first, !first.hasPrefix(":") {
            routesByFirstSegment[first, default: []].append(index)
        } else {
            openRoutes.append(index)
        }
    }

    /// Every endpoint: its method, path pattern (`classes/:className`) and dialects, for the API description's tests.
    var endpoints: [(method: HTTPRequest.Method, path: String, dialects: Set<Dialect>)] {
        routes.map { ($0.method, $0.path, $0.dialects) }
    }

    /// The routes that may match `segments`, in the order registered.
    private func candidates(_ segments: [String]) -> [Int] {
        let listed = segments.first.flatMap { routesByFirstSegment[$0] } ?? []
        guard !openRoutes.isEmpty else { return listed }
        return (listed + openRoutes).sorted()
    }

    /// The route for a request and its parameters.
    /// - Throws: ``APIError`` ``APIError/Reason/notFound`` or ``APIError/Reason/methodNotAllowed``.
    func match(_ method: HTTPRequest.Method, _ segments: [String], dialect: Dialect) throws(APIError) -> Match {
        var pathMatched = false
        for index in candidates(segments) {
            let route = routes[index]
            guard route.dialectBits & dialect.bit != 0, let parameters = route.bind(segments) else { continue }
            pathMatched = true
            if route.method == method { return Match(route: route, parameters: parameters) }
        }
        let path = "/" + segments.joined(separator: "/")
        if pathMatched { throw APIError(.methodNotAllowed, "Method \(method.rawValue) is not allowed on \(path).") }
        throw APIError(.notFound, "Not found: \(path).")
    }

    /// Runs the request through its endpoint (`matched`, when the caller matched it already); errors become the
    /// dialect's error reply.
    package func dispatch(_ request: APIRequest, matched: Match? = nil) async -> APIResponse {
        do {
            let found = try matched ?? match(request.method, request.segments, dialect: request.dialect)
            var request = request
            request.parameters = found.parameters
            return try await found.route.handler(request)
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
        for index in candidates(segments) where routes[index].dialectBits & dialect.bit != 0 && routes[index].bind(segments) != nil {
            let route = routes[index]
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
