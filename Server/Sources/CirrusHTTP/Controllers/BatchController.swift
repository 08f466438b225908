import CirrusModel
import CirrusServices
import CirrusStorage
import HTTPTypes

/// `POST /batch`: sub-requests run in order through the same endpoints, each answered with
/// `{"success":…}` or `{"error":…}`; with `"transaction": true` the writes commit all together or not at all.
struct BatchController: Sendable {
    /// Commits the writes of a transactional batch.
    let objects: ObjectService
    /// Resolves the session token a Bmob sub-request may carry (`"token"`), which it then runs as.
    let users: UserService
    /// The router the sub-requests go through; set once all endpoints are registered.
    let router: @Sendable () -> APIRouter

    func register(on router: inout APIRouter) {
        router.on(.post, "batch") { try await batch($0) }
    }

    func batch(_ request: APIRequest) async throws -> APIResponse {
        guard !request.isBatchItem else { throw APIError(.invalidParameter, "A batch cannot contain another batch.") }
        let body = try request.objectBody()
        guard case .array(let items) = body["requests"] ?? .null else {
            throw APIError(.invalidParameter, "'requests' must be an array.")
        }
        guard items.count <= request.dialect.maximumBatchSize else {
            throw APIError(.tooManyRequestsInBatch, "A batch holds at most \(request.dialect.maximumBatchSize) requests, got \(items.count).")
        }
        var subrequests: [Result<APIRequest, APIError>] = []
        for item in items { subrequests.append(await withOwnSession(BatchItem.parse(item, in: request), token: item["token"]?.stringValue)) }
        if body["transaction"]?.boolValue == true {
            return try await transaction(subrequests, request)
        }
        var replies: [JSON] = []
        let router = router()
        for subrequest in subrequests {
            switch subrequest {
            case .failure(let error): replies.append(["error": ErrorReply.response(for: error, dialect: request.dialect).body])
            case .success(let item): replies.append(Self.reply(await router.dispatch(item)))
            }
        }
        return APIResponse(body: .array(replies))
    }

    /// A sub-request with its own `"token"` runs as that session's user (Bmob lets each request of a batch carry
    /// one); an invalid token fails that sub-request only.
    private func withOwnSession(_ parsed: Result<APIRequest, APIError>, token: String?) async -> Result<APIRequest, APIError> {
        guard let token, case .success(var item) = parsed else { return parsed }
        do {
            item.caller = try await users.caller(sessionToken: token, base: Caller(isMaster: item.caller.isMaster))
            item.sessionToken = token
            return .success(item)
        } catch let error as APIError {
            return .failure(error)
        } catch {
            return .failure(APIError(.internalError, "Internal server error."))
        }
    }

    /// `{"success": body}` for 2xx replies, `{"error": body}` otherwise.
    static func reply(_ response: APIResponse) -> JSON {
        if response.isMissingObject { return ["success": .null] }
        return response.status.code < 300 ? ["success": response.body] : ["error": response.body]
    }

    /// Prepares every write through its endpoint's ``TransactionalWrite``, commits them in one transaction, then
    /// builds each reply as its endpoint would.
    private func transaction(_ subrequests: [Result<APIRequest, APIError>], _ request: APIRequest) async throws -> APIResponse {
        var commands: [(command: WriteCommand, caller: Caller)] = []
        var prepared: [(item: APIRequest, write: TransactionalWrite, changedKeys: [String])] = []
        let router = router()
        for (index, subrequest) in subrequests.enumerated() {
            do {
                var item = try subrequest.get()
                let matched = try router.match(item.method, item.segments, dialect: item.dialect)
                guard let write = matched.route.transactional else {
                    throw APIError(.invalidParameter, "Only creates, updates and deletes of objects can run in a transaction.")
                }
                item.parameters = matched.parameters
                let (command, keys) = try await write.prepare(item)
                commands.append((command, item.caller))
                prepared.append((item, write, keys))
            } catch let error as APIError {
                throw APIError(error.reason, "Request \(index) of the transaction failed: \(error.message)")
            }
        }
        let results = try await objects.commit(commands, atomically: true)
        if let failed = results.firstIndex(where: { if case .failure(let error) = $0 { error != .rolledBack } else { false } }),
            case .failure(let error) = results[failed]
        {
            let reason = error.apiError(className: commands[failed].command.className)
            throw APIError(reason.reason, "Request \(failed) of the transaction failed: \(reason.message)")
        }
        var replies: [JSON] = []
        for (write, result) in zip(prepared, results) {
            guard case .success(let written) = result else { continue }
            replies.append(Self.reply(try await write.write.reply(write.item, written, write.changedKeys)))
        }
        return APIResponse(body: .array(replies))
    }
}

/// Parsing one `{"method","path","body","params"}` entry into a request.
enum BatchItem {
    static func parse(_ json: JSON, in batch: APIRequest) -> Result<APIRequest, APIError> {
        guard case .object(let members) = json, let methodName = members["method"]?.stringValue,
            let path = members["path"]?.stringValue
        else {
            return .failure(APIError(.invalidParameter, "Each batch request needs a \"method\" and a \"path\"."))
        }
        guard let method = HTTPRequest.Method(methodName.uppercased()), ["GET", "POST", "PUT", "DELETE"].contains(method.rawValue) else {
            return .failure(APIError(.invalidParameter, "Unsupported method \"\(methodName)\" in a batch request."))
        }
        let (pathPart, queryPart) = split(path)
        guard let (prefix, segments) = DialectPath.subrequest(pathPart) else {
            return .failure(APIError(.invalidParameter, "Batch paths start with /1.1/, /1/ or /parse/: \"\(path)\"."))
        }
        var query = QueryString.parse(queryPart)
        if case .object(let params) = members["params"] ?? .null {
            for (name, value) in params { query[name] = value.stringValue ?? JSONWriter.string(value) }
        }
        var item = APIRequest(dialect: batch.dialect, method: method, segments: segments, query: query, bodyText: nil, caller: batch.caller)
        item.pathPrefix = prefix
        item.sessionToken = batch.sessionToken
        // Per-client limits (uploads) count every sub-request as the batch's client's.
        item.client = batch.client
        item.installationId = batch.installationId
        item.production = batch.production
        item.isBatchItem = true
        item.parsedBody = members["body"].flatMap { $0.isNull ? nil : $0 } ?? (method == .post || method == .put ? nil : [:])
        if item.parsedBody == nil, method == .post || method == .put { item.parsedBody = [:] }
        return .success(item)
    }

    private static func split(_ path: String) -> (String, String) {
        guard let mark = path.firstIndex(of: "?") else { return (path, "") }
        return (String(path[..<mark]), String(path[path.index(after: mark)...]))
    }
}
