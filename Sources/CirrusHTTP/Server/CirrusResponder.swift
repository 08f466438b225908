import CirrusModel
import CirrusServices
public import Hummingbird
import HTTPTypes
import Logging

/// The Hummingbird responder: reads the dialect, body, method override and credentials of each request,
/// dispatches it through the ``APIRouter`` and writes the JSON reply with CORS headers.
public struct CirrusResponder: HTTPResponder {
    public typealias Context = CirrusRequestContext

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
    /// The archives of finished exports (`/1.1/exportData/<id>/download`, signed URLs), streamed.
    var exports: ExportDownloads? = nil
    /// A header a trusted proxy puts the client's address in (`X-Forwarded-For`, `X-Real-IP`); without it the
    /// client is the connection's peer.
    public var clientAddressHeader: String? {
        get { clientAddressField?.rawName }
        set { clientAddressField = newValue.flatMap { HTTPField.Name($0) } }
    }
    var clientAddressField: HTTPField.Name? = nil

    /// Keys of a method-override body that are request metadata, not object fields.
    static let overrideKeys: Set<String> = [
        "_method", "_ApplicationId", "_ApplicationKey", "_JavaScriptKey", "_ClientKey", "_RestAPIKey", "_MasterKey",
        "_SessionToken", "_InstallationId", "_ClientVersion", "_RevocableSession", "_ContentType", "_context",
    ]

    public func respond(to request: Request, context: Context) async throws -> Response {
        logger.debug("request started", metadata: ["method": "\(request.method)", "path": "\(request.uri.path)"])
        if let page = await pages?.respond(to: request, maximumBodySize: maximumBodySize) { return page }
        if let download = await downloads?.respond(to: request) { return download }
        if let archive = await exports?.respond(to: request) { return archive }
        if let document = OpenAPIDocument.respond(to: request) { return document }
        guard let path = DialectPath.resolve(request.uri.path, headers: request.headers) else {
            return encode(ErrorReply.response(for: APIError(.notFound, "Not found: \(request.uri.path)."), dialect: .leancloud))
        }
        if request.method == .options { return preflight(request) }
        do {
            var apiRequest = try await makeRequest(request, path: path)
            apiRequest.clientAddress = clientAddress(request, context: context)
            return encode(await router.dispatch(apiRequest))
        } catch {
            return encode(ErrorReply.response(for: error, dialect: path.dialect))
        }
    }

    private func makeRequest(_ request: Request, path: DialectPath) async throws -> APIRequest {
        let (dialect, segments) = (path.dialect, path.segments)
        var request = request
        let body: [UInt8]
        // The endpoint is matched once, before the body is read: an upload may take a larger body.
        let addressed = try? router.match(request.method, segments, dialect: dialect).0
        let limit = addressed?.takesUpload == true ? max(maximumUploadSize, maximumBodySize) : maximumBodySize
        do {
            let buffer = try await request.collectBody(upTo: limit)
            body = Array(buffer.readableBytesView)
        } catch {
            if addressed?.takesUpload == true { throw APIError(.fileTooLarge, "The file is larger than \(limit) bytes.") }
            throw APIError(.requestTooLarge, "The request body is larger than \(limit) bytes.")
        }
        var method = request.method
        // Every SDK form-encodes a CQL statement (the Python SDK's spaces arrive as `+`, a `+` as `%2B`).
        var query = QueryString.parse(request.uri.query ?? "", plus: dialect.queryPlus)
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
        let credentials = Credentials.read(from: request.headers, overrides: overrides, dialect: dialect)
        var apiRequest = APIRequest(dialect: dialect, method: method, segments: segments, query: query, bodyText: body.isEmpty ? nil : body, caller: .anonymous)
        apiRequest.parsedBody = parsedBody
        apiRequest.pathPrefix = path.prefix
        apiRequest.sessionToken = credentials.sessionToken
        apiRequest.installationId = credentials.installationId
        apiRequest.contentType = request.headers[.contentType]
        // A method override names another endpoint; unknown paths authenticate first, so that they answer 401.
        let route = method == request.method ? addressed : try? router.match(method, segments, dialect: dialect).0
        if route?.requiresAuthentication ?? true {
            apiRequest.caller = try authenticator.authenticate(credentials)
            if let token = credentials.sessionToken, route?.resolvesSession == true {
                apiRequest.caller = try await users.caller(sessionToken: token, base: apiRequest.caller)
            }
        }
        return apiRequest
    }

    /// Who sent the request: the first address of the trusted proxy header when one is configured and present,
    /// else the connection's peer.
    func clientAddress(_ request: Request, context: Context) -> String? {
        if let name = clientAddressField, let forwarded = request.headers[name],
            let first = forwarded.split(separator: ",").first.map({ $0.filter { !$0.isWhitespace } }), !first.isEmpty
        {
            return String(first)
        }
        return context.remoteAddress?.ipAddress
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
        var headers: HTTPFields = [
            .contentType: "application/json; charset=utf-8",
            .accessControlAllowOrigin: "*",
        ]
        for (name, value) in reply.headers { headers[name] = value }
        let bytes = JSONWriter.bytes(reply.body)
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
