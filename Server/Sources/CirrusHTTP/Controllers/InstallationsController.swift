import CirrusModel
import CirrusServices
import CirrusStorage
import HTTPTypes

/// Installations: `/installations[/<objectId>]` and `/classes/_Installation[/<objectId>]`. A `POST` is an upsert
/// (``InstallationService``): `201` and a `Location` for a new device, `200 {"objectId","updatedAt"}` for a device
/// already registered (with its `objectId` in every dialect: the device learns its installation from it). Reads and deletes are the object API's, under `_Installation`'s default permissions (find and
/// delete for the master key only, as LeanCloud).
struct InstallationsController: Sendable {
    let installations: InstallationService
    let objects: ObjectsController

    func register(on router: inout APIRouter) {
        for prefix in ["installations", "classes/_Installation"] {
            router.on(.post, prefix) { try await save($0) }
            router.on(.put, prefix + "/:objectId") { try await update($0) }
        }
        router.on(.get, "installations") { try await objects.find($0.addressing("_Installation")) }
        router.on(.get, "installations/:objectId") { try await objects.get($0.addressing("_Installation")) }
        router.on(.delete, "installations/:objectId") { try await objects.delete($0.addressing("_Installation")) }
    }

    private func save(_ request: APIRequest) async throws -> APIResponse {
        let saved = try await installations.save(try request.objectBody(), options: objects.options(request), caller: request.caller)
        guard saved.created else {
            // The device learns its installation's id from the reply, in every dialect.
            var reply = try await objects.updatedReply(request, UpdateOutcome(object: saved.object, changedKeys: []))
            if case .object(var members) = reply.body {
                members["objectId"] = .string(saved.object.objectId)
                reply.body = .object(members)
            }
            return reply
        }
        return try await objects.createdReply(request.addressing("_Installation"), saved.object)
    }

    private func update(_ request: APIRequest) async throws -> APIResponse {
        let outcome = try await installations.update(
            objectId: request.parameter("objectId"), body: try request.objectBody(), options: objects.options(request), caller: request.caller
        )
        return try await objects.updatedReply(request, outcome)
    }
}
