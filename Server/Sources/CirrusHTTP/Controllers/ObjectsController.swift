import CirrusModel
import CirrusServices
import CirrusStorage
import HTTPTypes

/// `/classes/<Class>[/<objectId>]`: create, fetch, update, delete and find objects.
struct ObjectsController: Sendable {
    let objects: ObjectService

    func register(on router: inout APIRouter) {
        router.on(.post, "classes/:className", transactional: TransactionalWrite(prepare: prepareCreate, reply: createdReply)) {
            try await create($0)
        }
        router.on(.get, "classes/:className") { try await find($0) }
        router.on(.get, "classes/:className/:objectId") { try await get($0) }
        router.on(.put, "classes/:className/:objectId", transactional: TransactionalWrite(prepare: prepareUpdate, reply: updatedReply)) {
            try await update($0)
        }
        router.on(.delete, "classes/:className/:objectId", transactional: TransactionalWrite(prepare: prepareDelete, reply: deletedReply)) {
            try await delete($0)
        }
    }

    func options(_ request: APIRequest) -> WriteOptions {
        WriteOptions(idStyle: request.dialect.idStyle, defaultOffsetMinutes: request.dialect.defaultOffsetMinutes)
    }

    private func fetchWhenSave(_ request: APIRequest) -> Bool {
        request.flag("fetchWhenSave") || request.flag("new")
    }

    /// A create: the halves a transactional batch runs (``prepareCreate(_:)``, ``createdReply(_:_:_:)``), committed alone.
    func create(_ request: APIRequest) async throws -> APIResponse {
        let (command, keys) = try await prepareCreate(request)
        return try await createdReply(request, try await objects.commitOne(command, caller: request.caller), keys)
    }

    /// The create of a single request or of a transactional batch.
    @Sendable func prepareCreate(_ request: APIRequest) async throws -> TransactionalWrite.Prepared {
        let insert = try await objects.prepareCreate(request.parameter("className"), body: try request.objectBody(), options: options(request), caller: request.caller)
        return (.insert(insert), [])
    }

    /// The reply to a create committed in a transactional batch.
    @Sendable func createdReply(_ request: APIRequest, _ result: WriteResult, _ changedKeys: [String]) async throws -> APIResponse {
        guard case .inserted(let object) = result else { throw APIError(.internalError, "A create wrote no object.") }
        return try await createdReply(request, object)
    }

    /// `201 {"objectId","createdAt"}` (the whole object with `fetchWhenSave`), with a `Location`.
    func createdReply(_ request: APIRequest, _ object: StoredObject) async throws -> APIResponse {
        let className = object.className
        let encoder = ObjectEncoder(dialect: request.dialect)
        var body: JSON = ["objectId": .string(object.objectId), "createdAt": .string(request.dialect.format(object.createdAt))]
        if fetchWhenSave(request) {
            body = encoder.encode(object, schema: try await objects.schema(of: className))
        }
        let location = "\(request.pathPrefix)/classes/\(className)/\(object.objectId)"
        return APIResponse(status: .created, body: body, headers: [(.location, location)])
    }

    func get(_ request: APIRequest) async throws -> APIResponse {
        let className = request.parameter("className")
        let parameters = QueryParameters(request: request, limits: objects.configuration.queryLimits)
        let include = try parameters.include()
        let keys = try parameters.keys()
        guard let object = try await objects.get(className, objectId: request.parameter("objectId"), include: include.paths, caller: request.caller)
        else {
            return missingObject(request)
        }
        let schema = try await objects.schema(of: className)
        let body = ObjectEncoder(dialect: request.dialect).fragment(
            object, schema: schema, returnACL: request.flag("returnACL"), keys: keys, include: include
        )
        return APIResponse(body: body)
    }

    /// LeanCloud answers a fetch of a missing object with `200 {}`; Parse and Bmob with error 101.
    private func missingObject(_ request: APIRequest) -> APIResponse {
        switch request.dialect {
        case .leancloud where request.parameter("className") == "_User":
            // LeanCloud answers a missing user with 211 rather than an empty object.
            return ErrorReply.response(for: APIError(.userNotFound, "Could not find user."), dialect: .leancloud)
        case .leancloud:
            var response = APIResponse(body: [:])
            response.isMissingObject = true
            return response
        case .parse:
            return ErrorReply.response(for: APIError(.objectNotFound, "Object not found."), dialect: .parse)
        case .bmob:
            return ErrorReply.response(for: APIError(.objectNotFound, "object not found for \(request.parameter("objectId")).") , dialect: .bmob)
        }
    }

    /// An update: the halves a transactional batch runs (``prepareUpdate(_:)``, ``updatedReply(_:_:_:)``), committed alone.
    func update(_ request: APIRequest) async throws -> APIResponse {
        let (command, keys) = try await prepareUpdate(request)
        return try await updatedReply(request, try await objects.commitOne(command, caller: request.caller), keys)
    }

    /// The update of a single request or of a transactional batch.
    @Sendable func prepareUpdate(_ request: APIRequest) async throws -> TransactionalWrite.Prepared {
        let condition = try QueryParameters(request: request, limits: objects.configuration.queryLimits).writeCondition()
        let (update, keys) = try await objects.prepareUpdate(
            request.parameter("className"), objectId: request.parameter("objectId"), body: try request.objectBody(), condition: condition,
            options: options(request), caller: request.caller
        )
        return (.update(update), keys)
    }

    /// The reply to an update committed in a transactional batch.
    @Sendable func updatedReply(_ request: APIRequest, _ result: WriteResult, _ changedKeys: [String]) async throws -> APIResponse {
        guard case .updated(let object) = result else { throw APIError(.internalError, "An update wrote no object.") }
        return try await updatedReply(request, UpdateOutcome(object: object, changedKeys: changedKeys))
    }

    /// LeanCloud `{"updatedAt","objectId"}`, others `{"updatedAt"}`; with `fetchWhenSave` (or `new`) also the
    /// changed fields and the Relation descriptors, as recorded from LeanCloud.
    func updatedReply(_ request: APIRequest, _ outcome: UpdateOutcome) async throws -> APIResponse {
        let object = outcome.object
        var members: [String: JSON] = ["updatedAt": .string(request.dialect.format(object.updatedAt))]
        if request.dialect.updateReplyHasObjectId { members["objectId"] = .string(object.objectId) }
        if fetchWhenSave(request) {
            let schema = try await objects.schema(of: object.className)
            let full = ObjectEncoder(dialect: request.dialect).encode(object, schema: schema).objectValue ?? [:]
            let relationKeys = (schema?.relationFields ?? []).map(\.name)
            for key in outcome.changedKeys + relationKeys { members[key] = full[key] }
        }
        return APIResponse(body: .object(members))
    }

    /// A delete: the half a transactional batch runs (``prepareDelete(_:)``), committed alone; deleting a missing object
    /// is answered as the dialect answers it.
    func delete(_ request: APIRequest) async throws -> APIResponse {
        let (command, _) = try await prepareDelete(request)
        do {
            _ = try await objects.commitOne(command, caller: request.caller)
        } catch let error as APIError where error.reason == .objectNotFound {
            return try deletedReply(request, missing: error)
        }
        return try deletedReply(request, missing: nil)
    }

    /// The delete of a single request or of a transactional batch.
    @Sendable func prepareDelete(_ request: APIRequest) async throws -> TransactionalWrite.Prepared {
        let condition = try QueryParameters(request: request, limits: objects.configuration.queryLimits).writeCondition()
        // A delete's body may hold `__ignore_hooks` (R#121), the only thing it says.
        var body = request.bodyText != nil || request.parsedBody != nil ? (try? request.jsonBody()) ?? [:] : [:]
        let skips = try HookSkips.take(from: &body, caller: request.caller)
        let delete = try await objects.prepareDelete(
            request.parameter("className"), objectIds: objectIds(request), condition: condition, skips: skips, caller: request.caller
        )
        return (.delete(delete), [])
    }

    /// The reply to a delete committed in a transactional batch.
    @Sendable func deletedReply(_ request: APIRequest, _ result: WriteResult, _ changedKeys: [String]) async throws -> APIResponse {
        try deletedReply(request, missing: nil)
    }

    /// The objectIds of a delete: LeanCloud accepts a comma-separated list (`DELETE /classes/C/id1,id2`).
    func objectIds(_ request: APIRequest) -> [String] {
        let raw = request.parameter("objectId")
        return request.dialect.deletesIdLists ? raw.split(separator: ",", omittingEmptySubsequences: false).map(String.init) : [raw]
    }

    /// `{}` (Bmob `{"msg":"ok"}`); deleting a missing object succeeds in LeanCloud and fails elsewhere.
    func deletedReply(_ request: APIRequest, missing: APIError?) throws -> APIResponse {
        if missing != nil, request.dialect != .leancloud {
            let raw = request.parameter("objectId")
            throw APIError(.objectNotFound, request.dialect == .parse ? "Object not found." : "object not found for \(raw).")
        }
        return APIResponse(body: request.dialect.acknowledgement)
    }
}
