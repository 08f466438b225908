package import CirrusMigration
package import CirrusModel
package import CirrusStorage
import CirrusServices
package import Hummingbird
import HTTPTypes
import Logging

/// The Hummingbird responder: reads the dialect, body, method override and credentials of each request,
/// dispatches it through the ``APIRouter`` and writes the JSON reply with CORS headers.
package struct CirrusResponder: HTTPResponder {
    package typealias Context = CirrusRequestContext

    let router: APIRouter
    let authenticator: Authenticator
    let users: UserService
    let maximumBodySize: Int
    /// The largest file content a raw upload may carry.
    var maximumUploadSize: Int = 0
    let logger: Logger
    /// The pages e-mailed links open (`/auth/…`), outside the API prefixes.
    var pages: AccountPagesController? = nil
    /// The contents of uploaded files (`/files/<key>`), outside the API prefixes.
    var downloads: FileDownloads? = nil
    /// LeanCloud's RTM router (`/v1/route`), which tells the SDKs where LiveQuery's socket is.
    package var rtmRoute: String? = nil
    /// The archives of finished exports (`/1.1/exportData/<id>/download`, signed URLs), streamed.
    var exports: ExportDownloads? = nil
    /// The web console (`/dashboard`), unless it is turned off.
    var dashboard: DashboardController? = nil
    /// The recent requests, for the console's request log.
    var requestLog: RequestLog? = nil
    /// The server's metrics, served at `/metrics`; `nil` counts nothing.
    package var metrics: ServerMetrics? = nil

    /// Gives the console what the server runs with (keys masked), for its settings screen.
    package mutating func describeSettings(_ settings: JSON) {
        dashboard?.settings = settings
    }

    /// Lets the console import uploaded exports.
    package mutating func serveImports(_ imports: ImportJobs) {
        dashboard?.imports = imports
    }

    /// Lets the console show the changes of `log` live, each stream for `lifetime`.
    package mutating func serveChanges(_ log: ChangeLog, lifetime: Duration) {
        dashboard?.changes = DashboardChanges(log: log, lifetime: lifetime)
    }
    /// A header a trusted proxy puts the client's address in (`X-Forwarded-For`, `X-Real-IP`); without it the
    /// client is the connection's peer.
    package var clientAddressHeader: String? {
        get { clientAddressField?.rawName }
        set { clientAddressField = newValue.flatMap { HTTPField.Name($0) } }
    }
    var clientAddressField: HTTPField.Name? = nil
    /// The request deadline and the body limit of requests without credentials in their headers.
    package var transport = TransportSettings()

    /// Keys of a method-override body that are request metadata, not object fields.
    static let overrideKeys: Set<String> = [
        "_method", "_ApplicationId", "_ApplicationKey", "_JavaScriptKey", "_ClientKey", "_RestAPIKey", "_MasterKey",
        "_SessionToken", "_InstallationId", "_ClientVersion", "_RevocableSession", "_ContentType", "_context",
    ]

    /// The reply to a request, with its id (``RequestID``), which the request's log lines carry too.
    package func respond(to request: Request, context: Context) async throws -> Response {
        let id = RequestID.of(request.headers)
        var response = try await RequestID.$current.withValue(id) { try await observed(request, context: context) }
        response.headers[RequestID.header] = id
        return response
    }

    /// The reply to a request, written to the request log (unless it is the console's own) and counted in the metrics.
    private func observed(_ request: Request, context: Context) async throws -> Response {
        let path = request.uri.path
        let console = path == DashboardController.prefix || path.hasPrefix(DashboardController.prefix + "/")
        let log = console ? nil : requestLog
        guard log != nil || metrics != nil else { return try await answer(request, context: context) }
        let started = ContinuousClock.now
        let trace = RequestLog.Trace()
        let response = try await RequestLog.$trace.withValue(trace) { try await answer(request, context: context) }
        let elapsed = started.duration(to: .now)
        metrics?.request(
            route: trace.route ?? (console ? "dashboard" : "other"), method: request.method.rawValue, dialect: trace.dialect,
            status: Int(response.status.code), code: trace.code, duration: elapsed
        )
        guard let log else { return response }
        let signedIn = RequestLog.console
        log.record(RequestLog.Entry(
            time: .now(), method: request.method.rawValue, path: request.uri.query.map { path + "?" + $0 } ?? path, dialect: trace.dialect,
            status: Int(response.status.code), code: trace.code,
            milliseconds: Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15,
            client: signedIn == nil ? clientAddress(request, context: context) : nil, caller: signedIn.map { "console: " + $0 } ?? trace.caller
        ))
        return response
    }

    /// The reply to a request.
    private func answer(_ request: Request, context: Context) async throws -> Response {
        logger.debug("request started", metadata: ["method": "\(request.method)", "path": "\(request.uri.path)"])
        let formLimit = min(maximumBodySize, transport.maximumUnauthenticatedBodySize)
        if let page = await pages?.respond(to: request, maximumBodySize: formLimit) { return page }
        if let download = await downloads?.respond(to: request) { return download }
        if let archive = await exports?.respond(to: request) { return archive }
        if let dashboard, let reply = await dashboard.respond(
            to: request, clientAddress: clientAddress(request, context: context), api: { try await observed($0, context: context) }
        ) {
            return reply
        }
        if let metrics, let scrape = MetricsEndpoint(metrics: metrics).respond(to: request) {
            RequestLog.trace?.route = MetricsEndpoint.path
            return scrape
        }
        if let document = OpenAPIDocument.respond(to: request) { return document }
        if let socketURL = rtmRoute, let route = RTMRoute(socketURL: socketURL).respond(to: request) { return route }
        guard let path = DialectPath.resolve(request.uri.path, headers: request.headers) else {
            return encode(ErrorReply.response(for: APIError(.notFound, "Not found: \(request.uri.path)."), dialect: .leancloud))
        }
        if request.method == .options { return preflight(request) }
        RequestLog.trace?.dialect = path.dialect
        do {
            let (read, matched, resolvesSession) = try await readRequest(request, path: path)
            var apiRequest = read
            apiRequest.client = clientAddress(request, context: context)
            let deadline = transport.requestTimeout
            let reply = await RequestDeadline.run(deadline) { [apiRequest] in
                do {
                    var resolved = resolvesSession ? try await resolveSession(apiRequest) : apiRequest
                    if DashboardController.viewer { resolved.caller.isReadOnly = true }
                    RequestLog.trace?.caller = resolved.caller.isMaster ? "master" : resolved.caller.userId == nil ? "client" : "user"
                    return await router.dispatch(resolved, matched: matched)
                } catch {
                    return ErrorReply.response(for: error, dialect: path.dialect)
                }
            }
            guard let reply else {
                logger.warning("request deadline passed", metadata: ["method": "\(request.method)", "path": "\(request.uri.path)"])
                return encode(ErrorReply.response(for: APIError(.timeout, "The request did not finish within \(deadline)."), dialect: path.dialect))
            }
            return encode(reply)
        } catch {
            var reply = ErrorReply.response(for: error, dialect: path.dialect)
            // A refused request whose body was not read: the connection closes instead of reading it.
            if Self.hasBody(request) { reply.headers.append((.connection, "close")) }
            return encode(reply)
        }
    }

    /// Authenticates a request from its headers when they carry its credentials, before its body is read, and then
    /// reads its body: within the limit of its endpoint, or of ``TransportSettings/maximumUnauthenticatedBodySize``
    /// when its credentials may be in its body. A declared length beyond the limit is refused without reading.
    /// - Returns: the request, the endpoint it addresses (`nil` when it addresses none: the router's dispatch then
    /// answers why), and whether its caller is still to be resolved from its session token.
    private func readRequest(_ request: Request, path: DialectPath) async throws -> (APIRequest, APIRouter.Match?, Bool) {
        let (dialect, segments) = (path.dialect, path.segments)
        // The endpoint is matched before the body is read: an upload may take a larger body.
        let matched = try? router.match(request.method, segments, dialect: dialect)
        let addressed = matched?.route
        // Counted under its endpoint even when its credentials are refused next.
        RequestLog.trace?.route = addressed?.path
        let upload = addressed?.takesUpload == true
        var limit = upload ? max(maximumUploadSize, maximumBodySize) : maximumBodySize
        let headerCredentials = Credentials.read(from: request.headers, overrides: [:], dialect: dialect)
        // Unknown paths authenticate too, so that they answer 401.
        let needsCaller = addressed?.requiresAuthentication ?? true
        var caller: Caller?
        if headerCredentials.isComplete || request.method != .post {
            if needsCaller { caller = try authenticator.authenticate(headerCredentials) }
        } else {
            // Credentials may come in the body (the JavaScript SDKs' CORS workaround): only a small body is read for them.
            limit = min(limit, transport.maximumUnauthenticatedBodySize)
        }
        let body = try await Self.collectBody(request, upTo: limit, upload: upload)
        var method = request.method
        let plus = QueryString.plus(method: request.method.rawValue, userAgent: request.headers[.userAgent], dialect: dialect)
        var query = QueryString.parse(request.uri.query ?? "", plus: plus)
        var overrides: [String: String] = [:]
        var parsedBody: JSON?
        if method == .post, let (override, fields, remaining) = Self.methodOverride(body) {
            method = override
            overrides = fields
            if method == .get || method == .delete {
                for (name, value) in remaining { query[name] = value.stringValue ?? JSONWriter.string(value) }
                parsedBody = [:]
            } else {
                parsedBody = .object(remaining)
            }
        }
        let credentials = overrides.isEmpty ? headerCredentials : Credentials.read(from: request.headers, overrides: overrides, dialect: dialect)
        var apiRequest = APIRequest(dialect: dialect, method: method, segments: segments, query: query, bodyText: body.isEmpty ? nil : body, caller: .anonymous)
        apiRequest.parsedBody = parsedBody
        apiRequest.pathPrefix = path.prefix
        apiRequest.sessionToken = credentials.sessionToken
        apiRequest.installationId = credentials.installationId
        apiRequest.contentType = request.headers[.contentType]
        apiRequest.production = request.headers[Self.production] != "0"
        // A method override names another endpoint; unknown paths authenticate first, so that they answer 401.
        let endpoint = method == request.method ? matched : try? router.match(method, segments, dialect: dialect)
        let route = endpoint?.route
        RequestLog.trace?.route = route?.path
        guard route?.requiresAuthentication ?? true else { return (apiRequest, endpoint, false) }
        apiRequest.caller = try caller.flatMap { overrides.isEmpty ? $0 : nil } ?? authenticator.authenticate(credentials)
        return (apiRequest, endpoint, credentials.sessionToken != nil && route?.resolvesSession == true)
    }

    static let production = HTTPField.Name("X-LC-Prod")!

    /// The request with the caller its session token names.
    private func resolveSession(_ request: APIRequest) async throws -> APIRequest {
        guard let token = request.sessionToken else { return request }
        var request = request
        request.caller = try await users.caller(sessionToken: token, base: request.caller)
        return request
    }

    /// The body of `request`, counted as it streams in: a declared length beyond `limit` is refused before any of it
    /// is read, a body without one as soon as it passes the limit.
    static func collectBody(_ request: Request, upTo limit: Int, upload: Bool) async throws -> [UInt8] {
        func tooLarge() -> APIError {
            upload ? APIError(.fileTooLarge, "The file is larger than \(limit) bytes.")
                : APIError(.requestTooLarge, "The request body is larger than \(limit) bytes.")
        }
        let declared = request.headers[.contentLength].flatMap { Int($0) }
        if let declared, declared > limit { throw tooLarge() }
        // Without a length or a transfer coding an HTTP/1.1 request has no body: nothing to wait for.
        if declared == 0 || (declared == nil && request.headers[.transferEncoding] == nil) { return [] }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(declared ?? 0)
        do {
            for try await buffer in request.body {
                guard bytes.count + buffer.readableBytes <= limit else { throw tooLarge() }
                bytes.append(contentsOf: buffer.readableBytesView)
            }
        } catch let refusal as TransportRefusal {
            throw refusal.error
        }
        return bytes
    }

    /// Whether the request announces a body (which a refusal before reading leaves unread).
    static func hasBody(_ request: Request) -> Bool {
        request.headers[.transferEncoding] != nil || request.headers[.contentLength].flatMap { Int($0) }.map { $0 > 0 } == true
    }

    /// Who sent the request: the first address of the trusted proxy header when one is configured and present,
    /// else the connection's peer.
    func clientAddress(_ request: Request, context: Context) -> ClientAddress? {
        if let name = clientAddressField, let forwarded = request.headers[name],
            let first = forwarded.split(separator: ",").first.map({ $0.filter { !$0.isWhitespace } }), !first.isEmpty
        {
            return .text(String(first))
        }
        return context.remoteAddress.map(ClientAddress.peer)
    }

    /// A `POST` whose JSON body carries `_method` or `_ApplicationId`: the real method, the metadata
    /// fields, and the remaining members.
    static func methodOverride(_ body: [UInt8]) -> (HTTPRequest.Method, [String: String], [String: JSON])? {
        guard body.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) == UInt8(ascii: "{"),
            case .object(let members)? = try? JSONParser.parse(body),
            members["_method"] != nil || members["_ApplicationId"] != nil
        else { return nil }
        let name = members["_method"]?.stringValue?.uppercased() ?? "POST"
        guard let method = HTTPRequest.Method(name) else { return nil }
        var fields: [String: String] = [:]
        var remaining: [String: JSON] = [:]
        for (key, value) in members {
            if overrideKeys.contains(key) {
                if let text = value.stringValue { fields[key] = text }
            } else {
                remaining[key] = value
            }
        }
        return (method, fields, remaining)
    }

    private func encode(_ reply: APIResponse) -> Response {
        if reply.status.code >= 400, let trace = RequestLog.trace { trace.code = reply.body["code"]?.intValue.map(Int.init) }
        var headers: HTTPFields = [
            .contentType: "application/json; charset=utf-8",
            .accessControlAllowOrigin: "*",
        ]
        for (name, value) in reply.headers { headers[name] = value }
        let bytes = reply.written ?? JSONWriter.bytes(reply.body)
        return Response(status: reply.status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    private func preflight(_ request: Request) -> Response {
        var headers: HTTPFields = [
            .accessControlAllowOrigin: "*",
            .accessControlAllowMethods: "GET, POST, PUT, DELETE, OPTIONS",
            .accessControlMaxAge: "86400",
        ]
        headers[.accessControlAllowHeaders] = request.headers[.accessControlRequestHeaders]
            ?? "Content-Type, X-LC-Id, X-LC-Key, X-LC-Sign, X-LC-Session, X-LC-Prod, X-LC-UA, X-Parse-Application-Id, "
            + "X-Parse-REST-API-Key, X-Parse-Master-Key, X-Parse-Session-Token, X-Bmob-Application-Id, X-Bmob-REST-API-Key, "
            + "X-Bmob-Master-Key, X-Bmob-Session-Token"
        return Response(status: .noContent, headers: headers)
    }
}
