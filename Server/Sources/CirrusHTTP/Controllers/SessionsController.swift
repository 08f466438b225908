import CirrusModel
import CirrusServices
import CirrusStorage
import HTTPTypes

/// Parse's sessions: `POST /logout` revokes the caller's session; `/sessions` lists and revokes the caller's
/// sessions, shown as `_Session` objects. Roles are `_Role` objects under `/roles` in every dialect.
struct SessionsController: Sendable {
    let users: UserService
    let objects: ObjectsController

    func register(on router: inout APIRouter) {
        router.on(.post, "logout", dialects: [.parse]) { request in
            try await users.logOut(request.caller)
            return APIResponse(body: [:])
        }
        router.on(.get, "sessions", dialects: [.parse]) { request in
            let sessions = try await users.sessions(of: request.caller)
            return APIResponse(body: ["results": .array(sessions.map { Self.encode($0, request.dialect) })])
        }
        router.on(.get, "sessions/me", dialects: [.parse]) { request in
            let sessions = try await users.sessions(of: request.caller)
            guard let session = sessions.first(where: { $0.token == request.caller.sessionToken }) else {
                throw APIError(.invalidSessionToken, "Invalid session token.")
            }
            return APIResponse(body: Self.encode(session, request.dialect))
        }
        router.on(.get, "sessions/:objectId", dialects: [.parse]) { request in
            let sessions = try await users.sessions(of: request.caller)
            guard let session = sessions.first(where: { $0.sessionId == request.parameter("objectId") }) else {
                throw APIError(.objectNotFound, "Object not found.")
            }
            return APIResponse(body: Self.encode(session, request.dialect))
        }
        router.on(.delete, "sessions/:objectId", dialects: [.parse]) { request in
            try await users.revokeSession(id: request.parameter("objectId"), caller: request.caller)
            return APIResponse(body: [:])
        }
        router.on(.get, "roles") { try await objects.find($0.addressing("_Role")) }
        router.on(.post, "roles") { try await objects.create($0.addressing("_Role")) }
        router.on(.get, "roles/:objectId") { try await objects.get($0.addressing("_Role")) }
        router.on(.put, "roles/:objectId") { try await objects.update($0.addressing("_Role")) }
        router.on(.delete, "roles/:objectId") { try await objects.delete($0.addressing("_Role")) }
    }


    /// A session as a `_Session` object.
    static func encode(_ session: StoredSession, _ dialect: Dialect) -> JSON {
        var members: [String: JSON] = [
            "objectId": .string(session.sessionId), "createdAt": .string(dialect.format(session.createdAt)),
            "updatedAt": .string(dialect.format(session.createdAt)), "sessionToken": .string(session.token),
            "user": Pointer(className: "_User", objectId: session.userId).wire, "restricted": false,
        ]
        if let expiresAt = session.expiresAt { members["expiresAt"] = .date(expiresAt) }
        if let installationId = session.installationId { members["installationId"] = .string(installationId) }
        if let createdWith = session.createdWith { members["createdWith"] = createdWith }
        return .object(members)
    }
}
