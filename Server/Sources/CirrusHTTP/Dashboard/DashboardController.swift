import CirrusMigration
import CirrusModel
import CirrusQueryLanguage
import CirrusServices
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The web console at `/dashboard`, outside the API prefixes:
///
/// - its files (`/dashboard`, `/dashboard/<path>`), from ``DashboardAssets``;
/// - `GET`, `POST`, `DELETE /dashboard/session`: who is signed in, signing in with the master key or an administrator's
///   password (limited per client address), signing out;
/// - `/dashboard/api/1.1/<path>`: the public LeanCloud REST API with master rights for a signed-in administrator, so
///   the page does only what the API does and never holds a key. A viewer may only read; anything else needs the
///   session's CSRF token in ``DashboardSession/csrfHeader``. Every change is logged with who made it.
///
/// Replies are never framed, sniffed or cached, send no referrer, carry no CORS headers, and the page may load
/// nothing but its own files.
struct DashboardController: Sendable {
    let service: DashboardService
    let keys: AppKeys
    let assets: DashboardAssets
    let codec: DashboardSessionCodec
    let logger: Logger
    /// The recent requests of this instance (`GET /dashboard/requests`).
    let requestLog: RequestLog
    /// What the server runs with, keys masked (`GET /dashboard/settings`), set by the composition root.
    var settings: JSON = [:]
    /// Imports of uploaded exports (`/dashboard/imports`), when the composition root gives them.
    var imports: ImportJobs?
    /// The live views of classes (`/dashboard/changes`), when the composition root gives the change log.
    var changes: DashboardChanges?

    static let prefix = "/dashboard"
    /// Whether the API request being answered is a console viewer's: the responder makes its caller a read-only
    /// master (``Caller/isReadOnly``). Set only by the console's proxy, never from anything a request carries.
    @TaskLocal static var viewer = false
    static let apiPrefix = "/dashboard/api/1.1/"
    static let sessionPath = "/dashboard/session"
    static let requestsPath = "/dashboard/requests"
    static let settingsPath = "/dashboard/settings"
    static let importsPath = "/dashboard/imports"
    static let usersPath = "/dashboard/users"
    static let changesPath = "/dashboard/changes"
    /// The largest sign-in body read.
    static let maximumSignInBody = 4096

    init(service: DashboardService, keys: AppKeys, assets: DashboardAssets, requestLog: RequestLog, logger: Logger) {
        self.service = service
        self.requestLog = requestLog
        self.keys = keys
        self.assets = assets
        self.codec = DashboardSessionCodec(masterKey: keys.masterKey)
        self.logger = logger
    }

    /// The reply to a request below ``prefix``, or `nil` for any other path. `api` answers a request to the public API.
    func respond(
        to request: Request, clientAddress: ClientAddress?, api: (Request) async throws -> Response
    ) async -> Response? {
        let path = request.uri.path
        guard path == Self.prefix || path.hasPrefix(Self.prefix + "/") else { return nil }
        var response: Response
        do {
            if path.hasPrefix(Self.apiPrefix) {
                response = try await proxy(request, api: api)
            } else if path == Self.sessionPath {
                response = try await session(request, clientAddress: clientAddress)
            } else if path == Self.requestsPath || path == Self.settingsPath {
                response = try await readOut(request, path: path)
            } else if path == Self.importsPath || path.hasPrefix(Self.importsPath + "/") {
                response = try await imports(request, path: path)
            } else if path.hasPrefix(Self.usersPath + "/") {
                response = try await account(request, path: path)
            } else if path == Self.changesPath {
                response = try await liveChanges(request)
            } else {
                response = try asset(request, path: path)
            }
        } catch {
            response = Self.error(error)
        }
        Self.protect(&response.headers)
        return response
    }

    // MARK: Files

    private func asset(_ request: Request, path: String) throws -> Response {
        guard request.method == .get || request.method == .head else {
            return Self.notAllowed(request, allow: "GET, HEAD")
        }
        let name = path == Self.prefix || path == Self.prefix + "/" ? "index.html" : String(path.dropFirst(Self.prefix.count + 1))
        guard let file = assets.file(name) else { throw APIError(.notFound, "Not found: \(path).") }
        var headers: HTTPFields = [.contentType: file.contentType, .cacheControl: "no-cache"]
        headers[.contentLength] = String(file.text.utf8.count)
        let body = request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(string: file.text))
        return Response(status: .ok, headers: headers, body: body)
    }

    // MARK: Session

    private func session(_ request: Request, clientAddress: ClientAddress?) async throws -> Response {
        switch request.method {
        case .get:
            let (session, cookie) = try await signedIn(request)
            return Self.json(.ok, describe(session, cookie: cookie))
        case .post:
            return try await signIn(request, clientAddress: clientAddress)
        case .delete:
            let (session, cookie) = try await signedIn(request)
            try checkCSRF(request, cookie: cookie)
            if case .user(_, let token) = session.signer { try? await service.logOut(sessionToken: token) }
            logger.notice("dashboard sign-out", metadata: ["by": "\(session.name)"])
            var response = Self.json(.ok, [:])
            response.headers[.setCookie] = Self.cookie("", maxAge: 0, secure: Self.isHTTPS(request))
            return response
        default:
            return Self.notAllowed(request, allow: "GET, POST, DELETE")
        }
    }

    private func signIn(_ request: Request, clientAddress: ClientAddress?) async throws -> Response {
        let client = clientAddress?.text ?? "unknown"
        let bytes = try await CirrusResponder.collectBody(request, upTo: Self.maximumSignInBody, upload: false)
        guard case .object(let body)? = try? JSONParser.parse(bytes) else {
            throw APIError(.invalidJSON, "Send {\"masterKey\"} or {\"username\", \"password\"} as JSON.")
        }
        try await service.admitSignIn(client: client)
        let expiry = service.now().adding(.milliseconds(DashboardSession.lifetimeMilliseconds))
        let session: DashboardSession
        do {
            if let key = body["masterKey"]?.stringValue {
                guard Authenticator.equal(key, keys.masterKey) else { throw APIError(.unauthorized, "Wrong master key.") }
                session = DashboardSession(signer: .masterKey, role: .admin, expiresAt: expiry)
            } else if let username = body["username"]?.stringValue, let password = body["password"]?.stringValue {
                let (user, role) = try await service.logIn(username: username, password: password)
                session = DashboardSession(signer: .user(name: username, sessionToken: user.sessionToken), role: role, expiresAt: expiry)
            } else {
                throw APIError(.invalidParameter, "Send {\"masterKey\"} or {\"username\", \"password\"}.")
            }
        } catch {
            logger.warning("dashboard sign-in refused", metadata: ["client": "\(client)", "error": "\(error)"])
            throw error
        }
        logger.notice("dashboard sign-in", metadata: ["by": "\(session.name)", "role": "\(session.role.rawValue)", "client": "\(client)"])
        let cookie = codec.seal(session)
        var response = Self.json(.ok, describe(session, cookie: cookie))
        response.headers[.setCookie] = Self.cookie(cookie, maxAge: DashboardSession.lifetimeMilliseconds / 1000, secure: Self.isHTTPS(request))
        return response
    }

    private func describe(_ session: DashboardSession, cookie: String) -> JSON {
        [
            "name": .string(session.name), "role": .string(session.role.rawValue), "csrf": .string(codec.csrfToken(forCookie: cookie)),
            "expiresAt": .date(session.expiresAt), "appId": .string(keys.appId),
        ]
    }

    /// The session of the request's cookie, with its user's role as it is now.
    /// - Throws: ``APIError`` ``APIError/Reason/unauthorized`` without a valid session.
    private func signedIn(_ request: Request) async throws -> (DashboardSession, cookie: String) {
        let signedOut = APIError(.unauthorized, "Not signed in to the console.")
        guard let cookie = Self.cookieValue(request.headers), var session = codec.open(cookie, now: service.now()) else { throw signedOut }
        if case .user(_, let token) = session.signer {
            guard let role = try? await service.role(sessionToken: token) else { throw signedOut }
            session.role = role
        }
        return (session, cookie)
    }

    private func checkCSRF(_ request: Request, cookie: String) throws {
        guard let token = HTTPField.Name(DashboardSession.csrfHeader).flatMap({ request.headers[$0] }),
            codec.isCSRFToken(token, forCookie: cookie)
        else { throw APIError(.forbidden, "The console's CSRF token is missing or wrong.") }
    }

    // MARK: Read-outs

    /// The request log or the settings, for any signed-in administrator.
    private func readOut(_ request: Request, path: String) async throws -> Response {
        guard request.method == .get else {
            return Self.notAllowed(request, allow: "GET")
        }
        _ = try await signedIn(request)
        guard path == Self.requestsPath else { return Self.json(.ok, settings) }
        return Self.json(.ok, try requestLog.reply(query: QueryString.parse(request.uri.query ?? "", plus: .space)))
    }

    // MARK: Live views

    /// `GET /dashboard/changes?className=…` for any administrator: the class's changes as server-sent events.
    private func liveChanges(_ request: Request) async throws -> Response {
        guard request.method == .get else { return Self.notAllowed(request, allow: "GET") }
        _ = try await signedIn(request)
        guard let changes else { throw APIError(.notFound, "Live views are not served here.") }
        return try changes.response(className: QueryString.parse(request.uri.query ?? "", plus: .space)["className"])
    }

    // MARK: Accounts

    /// `GET /dashboard/users/<id>/account` for any administrator; `POST …/revoke-sessions` and `POST …/unlock` for a
    /// read-write one with the CSRF token.
    private func account(_ request: Request, path: String) async throws -> Response {
        let (session, cookie) = try await signedIn(request)
        let parts = path.dropFirst(Self.usersPath.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let userId = parts.first.map(String.init), !userId.isEmpty else { throw APIError(.notFound, "Not found: \(path).") }
        switch (request.method, parts[1]) {
        case (.get, "account"):
            return Self.json(.ok, try await service.account(userId: userId))
        case (.post, "revoke-sessions"), (.post, "unlock"):
            try checkCSRF(request, cookie: cookie)
            guard session.role == .admin else { throw APIError(.forbidden, "A viewer of the console may not change anything.") }
            var reply: JSON = [:]
            if parts[1] == "unlock" {
                try await service.unlock(userId: userId)
            } else {
                reply = ["revoked": .int(Int64(try await service.revokeSessions(userId: userId)))]
            }
            logger.notice("dashboard action", metadata: ["by": "\(session.name)", "method": "POST", "path": "\(path)"])
            return Self.json(.ok, reply)
        case (_, "account"), (_, "revoke-sessions"), (_, "unlock"):
            return Self.notAllowed(request, allow: parts[1] == "account" ? "GET" : "POST")
        default:
            throw APIError(.notFound, "Not found: \(path).")
        }
    }

    // MARK: Imports

    /// `GET /dashboard/imports[/<id>]` for any administrator; `POST /dashboard/imports?from=…&name=…` with the export as
    /// the body, for a read-write one with the CSRF token.
    private func imports(_ request: Request, path: String) async throws -> Response {
        let (session, cookie) = try await signedIn(request)
        guard let imports else { throw APIError(.notFound, "Imports are not served here.") }
        let id = path == Self.importsPath ? nil : String(path.dropFirst(Self.importsPath.count + 1))
        switch (request.method, id) {
        case (.get, nil):
            return Self.json(.ok, ["results": .array(imports.list().map(\.wire))])
        case (.get, let id?):
            guard let status = imports.status(id: id) else { throw APIError(.notFound, "No import \(id) on this instance.") }
            return Self.json(.ok, status.wire)
        case (.post, nil):
            try checkCSRF(request, cookie: cookie)
            guard session.role == .admin else { throw APIError(.forbidden, "A viewer of the console may not import.") }
            let query = QueryString.parse(request.uri.query ?? "", plus: .space)
            guard let source = query["from"].flatMap(MigrationSource.init(rawValue:)) else {
                throw APIError(.invalidParameter, "from must be one of \(MigrationSource.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            let name = query["name"] ?? ""
            let id = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            let file = try imports.uploadPath(id: id, name: name)
            try await Self.save(request, to: file, limit: ImportJobs.maximumSize)
            let status = imports.start(id: id, name: name, source: source, path: file)
            logger.notice("dashboard action", metadata: ["by": "\(session.name)", "method": "POST", "path": "\(Self.importsPath)", "import": "\(id)"])
            return Self.json(.accepted, status.wire)
        default:
            return Self.notAllowed(request, allow: id == nil ? "GET, POST" : "GET")
        }
    }

    /// Streams a request's body into a new file, refusing it (and removing the file) past `limit` bytes.
    static func save(_ request: Request, to path: String, limit: Int64) async throws {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw APIError(.internalError, "The upload could not be stored.")
        }
        var written: Int64 = 0
        do {
            defer { try? handle.close() }
            if let declared = request.headers[.contentLength].flatMap(Int64.init), declared > limit { throw tooLarge(limit) }
            for try await buffer in request.body {
                written += Int64(buffer.readableBytes)
                guard written <= limit else { throw tooLarge(limit) }
                try handle.write(contentsOf: buffer.readableBytesView)
            }
            guard written > 0 else { throw APIError(.invalidParameter, "The upload is empty.") }
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    static func tooLarge(_ limit: Int64) -> APIError {
        APIError(.requestTooLarge, "The export is larger than \(limit) bytes: import it with cirrus import.")
    }

    // MARK: The API

    private func proxy(_ request: Request, api: (Request) async throws -> Response) async throws -> Response {
        let (session, cookie) = try await signedIn(request)
        let reads = request.method == .get || request.method == .head
        if !reads { try checkCSRF(request, cookie: cookie) }
        let rest = String(request.uri.path.dropFirst(Self.apiPrefix.count))
        if session.role == .viewer {
            guard reads else { throw APIError(.forbidden, "A viewer of the console may not change anything.") }
            try Self.checkReadOnly(rest, query: request.uri.query)
        }
        var fields = HTTPFields()
        for field in request.headers where Self.isForwarded(field.name) { fields.append(field) }
        fields[HTTPField.Name("X-LC-Id")!] = keys.appId
        fields[HTTPField.Name("X-LC-Key")!] = keys.masterKey + ",master"
        let target = "/1.1/" + rest + (request.uri.query.map { "?" + $0 } ?? "")
        let head = HTTPRequest(method: request.method, scheme: nil, authority: nil, path: target, headerFields: fields)
        var response = try await RequestLog.$console.withValue(session.name) {
            try await Self.$viewer.withValue(session.role == .viewer) { try await api(Request(head: head, body: request.body)) }
        }
        response.headers[.accessControlAllowOrigin] = nil
        response.headers[.cacheControl] = "no-store"
        if !reads {
            logger.notice("dashboard action", metadata: [
                "by": "\(session.name)", "method": "\(request.method.rawValue)", "path": "/1.1/\(rest)", "status": "\(response.status.code)",
            ])
        }
        return response
    }

    /// Refuses a viewer's read that writes: CQL other than `select`.
    static func checkReadOnly(_ path: String, query: String?) throws {
        guard path == "cloudQuery" else { return }
        let statement = QueryString.parse(query ?? "", plus: .space)["cql"] ?? ""
        if case .select? = (try? CloudQueryLanguage.cql.parse(statement))?.statement { return }
        throw APIError(.forbidden, "A viewer of the console may run CQL select statements only.")
    }

    /// The request headers passed on to the API: none that carry credentials (the proxy sets the master key's) or the
    /// console's cookie.
    static func isForwarded(_ name: HTTPField.Name) -> Bool {
        let lower = name.canonicalName
        if name == .cookie || name == .authorization { return false }
        return !["x-lc-", "x-avoscloud-", "x-uluru-", "x-parse-", "x-bmob-", "x-cirrus-"].contains { lower.hasPrefix($0) }
    }

    // MARK: Replies

    /// The headers of every console reply.
    static func protect(_ headers: inout HTTPFields) {
        headers[HTTPField.Name("Content-Security-Policy")!] =
            "default-src 'self'; img-src 'self' data: blob:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
    }

    static func cookie(_ value: String, maxAge: Int64, secure: Bool) -> String {
        "\(DashboardSession.cookieName)=\(value); Path=\(prefix); Max-Age=\(maxAge); HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

    /// The console's cookie among the request's `Cookie` headers.
    static func cookieValue(_ headers: HTTPFields) -> String? {
        for line in headers[values: .cookie] {
            for pair in line.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == DashboardSession.cookieName {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }

    /// Whether the browser reached the server over https (through a proxy that says so): the cookie is then `Secure`.
    static func isHTTPS(_ request: Request) -> Bool {
        request.headers[HTTPField.Name("X-Forwarded-Proto")!]?.lowercased() == "https"
    }

    /// 405 with the methods the path takes.
    static func notAllowed(_ request: Request, allow: String) -> Response {
        var response = error(APIError(.methodNotAllowed, "Method \(request.method.rawValue) is not allowed here."))
        response.headers[.allow] = allow
        return response
    }

    static func json(_ status: HTTPResponse.Status, _ body: JSON) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: JSONWriter.bytes(body)))
        )
    }

    static func error(_ error: any Error) -> Response {
        let reply = ErrorReply.response(for: error, dialect: .leancloud)
        return json(reply.status, reply.body)
    }
}
