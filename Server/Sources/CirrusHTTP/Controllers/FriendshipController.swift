import CirrusModel
import CirrusServices
import CirrusStorage
import HTTPTypes

/// LeanCloud's follow graph and friend requests (docs/SOCIAL.md): `/users/<id|self>/friendship/<target>` (follow,
/// update, unfollow), `/users/<id|self>/followers`, `/followees`, `/followersAndFollowees`, `/mutualFollowees`, and
/// `/users/friendshipRequests[/<id>/accept|decline]`. The lists are finds over `_Follower` and `_Followee` with the
/// usual parameters (`where`, `include`, `keys`, `order`, `limit`, `skip`, `count`), restricted to the user's rows.
struct FriendshipController: Sendable {
    let friendships: FriendshipService
    let requests: FriendRequestService
    let objects: ObjectsController

    func register(on router: inout APIRouter) {
        let leancloud: Set<Dialect> = [.leancloud]
        router.on(.post, "users/friendshipRequests", dialects: leancloud) { try await ask($0) }
        router.on(.put, "users/friendshipRequests/:requestId/accept", dialects: leancloud) { try await answer($0, accept: true) }
        router.on(.put, "users/friendshipRequests/:requestId/decline", dialects: leancloud) { try await answer($0, accept: false) }
        router.on(.post, "users/:userId/friendship/:targetId", dialects: leancloud) { try await follow($0) }
        router.on(.put, "users/:userId/friendship/:targetId", dialects: leancloud) { try await updateFollow($0) }
        router.on(.delete, "users/:userId/friendship/:targetId", dialects: leancloud) { try await unfollow($0) }
        router.on(.get, "users/:userId/followers", dialects: leancloud) { try await list($0, "_Follower", where: [:]) }
        router.on(.get, "users/:userId/followees", dialects: leancloud) { try await list($0, "_Followee", where: [:]) }
        router.on(.get, "users/:userId/followersAndFollowees", dialects: leancloud) { try await both($0) }
        router.on(.get, "users/:userId/mutualFollowees", dialects: leancloud) { try await mutual($0) }
    }

    private func follow(_ request: APIRequest) async throws -> APIResponse {
        let userId = try friendships.subject(request.parameter("userId"), caller: request.caller)
        let attributes = try FriendshipService.attributes(try request.optionalJSONBody())
        try await friendships.follow(userId, target: request.parameter("targetId"), attributes: attributes)
        return APIResponse(body: [:])
    }

    private func updateFollow(_ request: APIRequest) async throws -> APIResponse {
        let userId = try friendships.subject(request.parameter("userId"), caller: request.caller)
        try await friendships.updateFollow(userId, target: request.parameter("targetId"), attributes: FriendshipService.attributes(try request.optionalJSONBody()))
        return APIResponse(body: [:])
    }

    private func unfollow(_ request: APIRequest) async throws -> APIResponse {
        let userId = try friendships.subject(request.parameter("userId"), caller: request.caller)
        try await friendships.unfollow(userId, target: request.parameter("targetId"))
        return APIResponse(body: [:])
    }

    /// The user a list is about: `self` is the caller's; any user's lists are readable (their rows' ACLs apply).
    private func listed(_ request: APIRequest) throws(APIError) -> String {
        let named = request.parameter("userId")
        guard named == "self" else { return named }
        guard let userId = request.caller.userId else { throw APIError(.sessionRequired, "A session token is required to read 'self'.") }
        return userId
    }

    /// A find over `className` restricted to the user's rows (and `extra`), with the request's parameters.
    private func list(_ request: APIRequest, _ className: String, where extra: [String: JSON]) async throws -> APIResponse {
        var request = request.addressing(className)
        var clauses: [JSON] = [.object(extra.merging(["user": FriendshipService.user(try listed(request))]) { first, _ in first })]
        if let text = request.query["where"], !text.isEmpty {
            do { clauses.insert(try JSONParser.parse(text), at: 0) } catch { throw APIError(.invalidJSON, "'where' is not valid JSON: \(error.description).") }
        }
        request.query["where"] = JSONWriter.string(clauses.count == 1 ? clauses[0] : ["$and": .array(clauses)])
        return try await objects.find(request)
    }

    /// `{"followers":[…],"followees":[…]}`, with `followers_count` and `followees_count` when `count` is asked.
    private func both(_ request: APIRequest) async throws -> APIResponse {
        async let followers = list(request, "_Follower", where: [:])
        async let followees = list(request, "_Followee", where: [:])
        let (first, second) = (try await followers.body, try await followees.body)
        var body: [String: JSON] = ["followers": first["results"] ?? [], "followees": second["results"] ?? []]
        if request.flag("count") {
            body["followers_count"] = first["count"] ?? 0
            body["followees_count"] = second["count"] ?? 0
        }
        return APIResponse(body: .object(body))
    }

    /// The user's followees that follow it back: its `_Followee` rows whose `followee` is one of its followers.
    private func mutual(_ request: APIRequest) async throws -> APIResponse {
        let user = FriendshipService.user(try listed(request))
        if let text = request.query["where"], case .object(let members)? = try? JSONParser.parse(text), members["user"] != nil || members["followee"] != nil {
            throw APIError(.invalidQuery, "mutualFollowees chooses 'user' and 'followee' itself; 'where' may not name them.")
        }
        let followers: JSON = ["$select": ["query": ["className": "_Follower", "where": ["user": user]], "key": "follower"]]
        return try await list(request, "_Followee", where: ["followee": followers])
    }

    /// `201 {"objectId","createdAt"}`.
    private func ask(_ request: APIRequest) async throws -> APIResponse {
        let created = try await requests.ask(try request.objectBody(), caller: request.caller)
        return APIResponse(status: .created, body: ["objectId": .string(created.objectId), "createdAt": .string(request.dialect.format(created.createdAt))])
    }

    /// `{"objectId","updatedAt"}`.
    private func answer(_ request: APIRequest, accept: Bool) async throws -> APIResponse {
        let id = request.parameter("requestId")
        let answered = accept
            ? try await requests.accept(id, body: try request.optionalJSONBody(), caller: request.caller)
            : try await requests.decline(id, caller: request.caller)
        return APIResponse(body: ["objectId": .string(answered.objectId), "updatedAt": .string(request.dialect.format(answered.updatedAt))])
    }
}
