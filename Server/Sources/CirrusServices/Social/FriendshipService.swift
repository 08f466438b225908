package import CirrusModel
import CirrusStorage
import Crypto

/// LeanCloud's follow graph: `A` following `B` is two rows written together, `_Followee{user: A, followee: B}` (A's
/// list) and `_Follower{user: B, follower: A}` (B's list), with the same attributes (`group`, …). Clients read both
/// classes as any other; only these endpoints write them (their class permissions refuse clients' writes), so the two
/// directions never disagree.
///
/// A user follows on its own behalf: the path's user must be the caller's (`self` names it), or the caller holds
/// the master key. The rows are readable by everyone and writable by the follower (LeanCloud's default
/// `friendshipACL`).
package struct FriendshipService: Sendable {
    let objects: ObjectService

    package init(objects: ObjectService) {
        self.objects = objects
    }

    /// Keys the server sets on a follow row; attributes may not name them.
    static let reservedKeys: Set<String> = ["user", "followee", "follower", "friendStatus", "objectId", "createdAt", "updatedAt", "ACL"]

    /// The user a path names (`self`: the caller's), once the caller may act for it.
    /// - Throws: ``APIError/Reason/sessionRequired`` without a user, ``APIError/Reason/forbidden`` for another's.
    package func subject(_ pathUser: String, caller: Caller) throws(APIError) -> String {
        if pathUser == "self" {
            guard let userId = caller.userId else { throw APIError(.sessionRequired, "A session token is required to act as 'self'.") }
            return userId
        }
        guard caller.isMaster || caller.userId == pathUser else {
            throw APIError(.forbidden, "A user's follows are changed with that user's session or the master key.")
        }
        return pathUser
    }

    /// The attributes a body gives a follow: the body itself, or its `friendship` object (both forms are LeanCloud's).
    package static func attributes(_ body: JSON) throws(APIError) -> [String: JSON] {
        switch body {
        case .null: return [:]
        case .object(let members):
            let attributes: [String: JSON]
            if members.count == 1, case .object(let inner)? = members["friendship"] { attributes = inner } else { attributes = members }
            if let reserved = attributes.keys.first(where: { reservedKeys.contains($0) || $0.hasPrefix("_") }) {
                throw APIError(.invalidKeyName, "'\(reserved)' is set by the server on a follow.")
            }
            return attributes
        default: throw APIError(.invalidJSON, "A follow's attributes are a JSON object.")
        }
    }

    /// `userId` follows `target` (again: its attributes are updated). `friendStatus`, when given, marks a friendship.
    package func follow(_ userId: String, target: String, attributes: [String: JSON], friendStatus: Bool? = nil) async throws {
        guard userId != target else { throw APIError(.invalidParameter, "A user cannot follow itself.") }
        guard try await objects.store.fetch(className: "_User", ids: [target]).first != nil else {
            throw APIError(.userNotFound, "Could not find user \(target).")
        }
        var fields = attributes
        if let friendStatus { fields["friendStatus"] = .bool(friendStatus) }
        if try await update(userId, target: target, fields: fields) { return }
        do {
            try await create(userId, target: target, fields: fields)
        } catch let error as APIError where error.reason == .duplicateValue {
            // A concurrent follow of the same pair created the rows first: this one updates them.
            _ = try await update(userId, target: target, fields: fields)
        }
    }

    /// Changes the attributes of an existing follow.
    /// - Throws: ``APIError/Reason/friendshipNotFound`` when `userId` does not follow `target`.
    package func updateFollow(_ userId: String, target: String, attributes: [String: JSON]) async throws {
        guard try await update(userId, target: target, fields: attributes) else {
            throw APIError(.friendshipNotFound, "User \(userId) does not follow \(target).")
        }
    }

    /// `userId` stops following `target`: both rows go.
    /// - Throws: ``APIError/Reason/friendshipNotFound`` when it did not follow.
    package func unfollow(_ userId: String, target: String) async throws {
        let rows = try await followRows(userId, target: target)
        guard !rows.followees.isEmpty else { throw APIError(.friendshipNotFound, "User \(userId) does not follow \(target).") }
        var commands: [(command: WriteCommand, caller: Caller)] = []
        commands.append((.delete(try await objects.prepareDelete("_Followee", objectIds: rows.followees, condition: nil, caller: .master)), .master))
        if !rows.followers.isEmpty {
            commands.append((.delete(try await objects.prepareDelete("_Follower", objectIds: rows.followers, condition: nil, caller: .master)), .master))
        }
        try Self.succeeded(try await objects.commit(commands, atomically: true))
    }

    /// Whether `userId` follows `target`, and whether they are friends (its `friendStatus`).
    package func following(_ userId: String, target: String) async throws -> (follows: Bool, friends: Bool) {
        let rows = try await find("_Followee", user: userId, otherKey: "followee", other: target)
        return (!rows.isEmpty, rows.contains { $0.fields["friendStatus"] == .bool(true) })
    }

    // MARK: Rows

    private func create(_ userId: String, target: String, fields: [String: JSON]) async throws {
        let acl = JSON.object(["*": .object(["read": .bool(true)]), userId: .object(["read": .bool(true), "write": .bool(true)])])
        var followee = fields
        followee["user"] = Self.user(userId)
        followee["followee"] = Self.user(target)
        followee["ACL"] = acl
        var follower = fields
        follower["user"] = Self.user(target)
        follower["follower"] = Self.user(userId)
        follower["ACL"] = acl
        var first = try await objects.prepareCreate("_Followee", body: .object(followee), options: WriteOptions(), caller: .master)
        first.object.objectId = Self.rowId("_Followee", userId, target)
        var second = try await objects.prepareCreate("_Follower", body: .object(follower), options: WriteOptions(), caller: .master)
        second.object.objectId = Self.rowId("_Follower", target, userId)
        let results = try await objects.commit([(.insert(first), .master), (.insert(second), .master)], atomically: true)
        for result in results {
            if case .failure(.duplicateObjectId) = result { throw APIError(.duplicateValue, "The follow exists.") }
        }
        try Self.succeeded(results)
    }

    /// Sets `fields` on both rows of an existing follow; `false` when there is none.
    private func update(_ userId: String, target: String, fields: [String: JSON]) async throws -> Bool {
        let rows = try await followRows(userId, target: target)
        guard !rows.followees.isEmpty else { return false }
        guard !fields.isEmpty else { return true }
        var commands: [(command: WriteCommand, caller: Caller)] = []
        for (className, ids) in [("_Followee", rows.followees), ("_Follower", rows.followers)] {
            for id in ids {
                let (command, _) = try await objects.prepareUpdate(className, objectId: id, body: .object(fields), condition: nil, options: WriteOptions(), caller: .master)
                commands.append((.update(command), .master))
            }
        }
        try Self.succeeded(try await objects.commit(commands, atomically: true))
        return true
    }

    /// The ids of the rows of one follow (imported data may hold more than one of each).
    private func followRows(_ userId: String, target: String) async throws -> (followees: [String], followers: [String]) {
        async let followees = find("_Followee", user: userId, otherKey: "followee", other: target)
        async let followers = find("_Follower", user: target, otherKey: "follower", other: userId)
        return (try await followees.map(\.objectId), try await followers.map(\.objectId))
    }

    /// The rows of `className` whose `user` is `user` and whose `otherKey` is `other`, read as the master.
    func find(_ className: String, user: String, otherKey: String, other: String) async throws -> [StoredObject] {
        guard let schema = try await objects.schema(of: className) else { return [] }
        let condition = Condition.and([
            .compare(FieldPath(field: "user"), .equal, .pointer(Pointer(className: "_User", objectId: user))),
            .compare(FieldPath(field: otherKey), .equal, .pointer(Pointer(className: "_User", objectId: other))),
        ])
        return try await objects.store.find(StorageQuery(className: className, schema: schema, condition: condition, limit: 100))
    }

    // MARK: Values

    /// A `_User` pointer.
    package static func user(_ id: String) -> JSON {
        Pointer(className: "_User", objectId: id).wire
    }

    /// The objectId of a new follow row: the same for the same pair, so that two concurrent follows cannot both
    /// create one (the second fails on the id and updates instead).
    static func rowId(_ className: String, _ user: String, _ other: String) -> String {
        let digest = SHA256.hash(data: Array("\(className)\u{0}\(user)\u{0}\(other)".utf8))
        let hex = Array("0123456789abcdef".utf8)
        return String(decoding: digest.prefix(12).flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 0x0F)]] }, as: UTF8.self)
    }

    /// Throws the first failure of a commit.
    static func succeeded(_ results: [Result<WriteResult, StorageError>]) throws {
        for result in results {
            if case .failure(let error) = result { throw error.apiError(className: "_Followee") }
        }
    }
}
