import CirrusModel
import CirrusServices
import HTTPTypes

/// Scheduled jobs (master key), in every dialect: `GET`/`POST /jobs`, `GET`/`PUT`/`DELETE /jobs/<name>`,
/// `POST /jobs/<name>/run` (run now, answering the run), `GET /jobs/<name>/runs[?limit=n]` (newest first).
struct JobsController: Sendable {
    let jobs: ScheduledJobs

    func register(on router: inout APIRouter) {
        router.on(.get, "jobs") { try await list($0) }
        router.on(.post, "jobs") { try await create($0) }
        router.on(.get, "jobs/:name") { try await get($0) }
        router.on(.put, "jobs/:name") { try await update($0) }
        router.on(.delete, "jobs/:name") { try await delete($0) }
        router.on(.post, "jobs/:name/run") { try await run($0) }
        router.on(.get, "jobs/:name/runs") { try await runs($0) }
    }

    private func master(_ request: APIRequest) throws(APIError) {
        guard request.caller.isMaster else { throw APIError(.masterKeyRequired, "The master key is required.") }
    }

    private func list(_ request: APIRequest) async throws -> APIResponse {
        try master(request)
        return APIResponse(body: ["results": .array(try await jobs.list().map(\.wire))])
    }

    private func create(_ request: APIRequest) async throws -> APIResponse {
        try master(request)
        return APIResponse(status: .created, body: try await jobs.create(try request.objectBody()).wire)
    }

    private func get(_ request: APIRequest) async throws -> APIResponse {
        try master(request)
        return APIResponse(body: try await jobs.get(request.parameter("name")).wire)
    }

    private func update(_ request: APIRequest) async throws -> APIResponse {
        try master(request)
        return APIResponse(body: try await jobs.update(request.parameter("name"), body: try request.objectBody()).wire)
    }

    private func delete(_ request: APIRequest) async throws -> APIResponse {
        try master(request)
        try await jobs.delete(request.parameter("name"))
        return APIResponse(body: [:])
    }

    private func run(_ request: APIRequest) async throws -> APIResponse {
        try master(request)
        return APIResponse(body: try await jobs.runNow(request.parameter("name")).wire)
    }

    private func runs(_ request: APIRequest) async throws -> APIResponse {
        try master(request)
        let limit = try request.query["limit"].map { text throws(APIError) -> Int in
            guard let value = Int(text), value > 0 else { throw APIError(.invalidParameter, "limit must be a positive number.") }
            return value
        } ?? 20
        return APIResponse(body: ["results": .array(try await jobs.runs(request.parameter("name"), limit: limit).map(\.wire))])
    }
}
