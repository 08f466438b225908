import CirrusModel
import CirrusServices
import HTTPTypes

/// Cloud functions, served by the app's cloud-code engine: LeanCloud's `POST /functions/<name>` and RPC
/// `POST /call/<name>`, Parse's and Bmob's `POST /functions/<name>`, each answered `{"result": …}` in the caller's
/// dialect; the function's own error reaches the caller unchanged. `GET /functions/_ops/metadatas` (master key) reads
/// the engine's list of functions and hooks again and answers it.
struct FunctionsController: Sendable {
    let engine: CloudEngine?

    func register(on router: inout APIRouter) {
        router.on(.get, "functions/_ops/metadatas") { try await metadata($0) }
        router.on(.post, "functions/:name") { try await call($0, rpc: false) }
        router.on(.post, "call/:name", dialects: [.leancloud]) { try await call($0, rpc: true) }
    }

    private func call(_ request: APIRequest, rpc: Bool) async throws -> APIResponse {
        let name = request.parameter("name")
        guard let engine else {
            throw APIError(.cloudFunctionNotFound, "No such cloud function: \(name.prefix(128)) (no cloud-code engine is configured).")
        }
        // The parameters go to the engine as sent: a JSON object, or none.
        let parameters: JSON? = request.bodyText != nil || request.parsedBody != nil ? try request.objectBody() : nil
        let function = CloudEngine.FunctionCall(
            name: name, rpc: rpc, parameters: parameters.map(JSONWriter.bytes), production: request.production, clientAddress: request.clientAddress
        )
        return APIResponse(body: try await engine.call(function, caller: request.caller))
    }

    private func metadata(_ request: APIRequest) async throws -> APIResponse {
        guard request.caller.isMaster else { throw APIError(.masterKeyRequired, "The master key is required.") }
        guard let engine, engine.isConfigured else { throw APIError(.cloudFunctionNotFound, "No cloud-code engine is configured (--engine-url).") }
        let names = try await engine.refreshNames().names
        return APIResponse(body: ["result": .array(names.map(JSON.string))])
    }
}
