import CirrusModel
import CirrusStorage

/// The reads exports page through: every member of a relation field, in key order.
extension StorageConformance {
    static var exportChecks: [StorageCheck] {
        [
            StorageCheck("relation members of a whole class come in (owner, related) order, page by page after the last pair", relationMemberPages),
            StorageCheck("relation members of a missing class, field or after the last pair are an empty page", relationMembersEmpty),
            StorageCheck("the passwords and sessions of several users are read at once, users without any left out", accountsInBulk),
        ]
    }

    static func relationMemberPages(_ driver: StorageConformanceDriver) async throws {
        let tags = (1...3).map { Pointer(className: "Tag", objectId: "t\($0)") }
        try await driver.insert("Album", ["title": "b"], id: "b2", relations: [("tags", [tags[2], tags[0]])])
        try await driver.insert("Album", ["title": "a"], id: "a1", relations: [("tags", [tags[1], tags[0], tags[2]])])
        try await driver.insert("Album", ["title": "c"], id: "c3", relations: [("others", [tags[0]])])
        let expected = [
            RelationMember(owningId: "a1", relatedId: "t1"), RelationMember(owningId: "a1", relatedId: "t2"),
            RelationMember(owningId: "a1", relatedId: "t3"), RelationMember(owningId: "b2", relatedId: "t1"),
            RelationMember(owningId: "b2", relatedId: "t3"),
        ]
        let all = try await driver.store.relationMembers(ownerClass: "Album", field: "tags", after: nil, limit: 100)
        try verifyEqual(all, expected, "every member of the field, ordered")
        var paged: [RelationMember] = []
        var after: RelationMember?
        var pages = 0
        while true {
            let page = try await driver.store.relationMembers(ownerClass: "Album", field: "tags", after: after, limit: 2)
            try verify(page.count <= 2, "a page holds at most the limit, got \(page.count)")
            guard let last = page.last else { break }
            paged += page
            after = last
            pages += 1
            try verify(pages < 10, "paging ends")
        }
        try verifyEqual(paged, expected, "the pages together, in order, without repeats")
        try verifyEqual(pages, 3, "pages of two")
        let afterOwner = try await driver.store.relationMembers(
            ownerClass: "Album", field: "tags", after: RelationMember(owningId: "a1", relatedId: "t2"), limit: 100
        )
        try verifyEqual(afterOwner, Array(expected.dropFirst(2)), "members after a pair within one owner")
        try verifyEqual(
            try await driver.store.relationMembers(ownerClass: "Album", field: "others", after: nil, limit: 10),
            [RelationMember(owningId: "c3", relatedId: "t1")], "another field's members only"
        )
        try await driver.updated("Album", "a1", ["tags": ["__op": "RemoveRelation", "objects": [tags[1].wire]]])
        try verifyEqual(
            try await driver.store.relationMembers(ownerClass: "Album", field: "tags", after: nil, limit: 2),
            [RelationMember(owningId: "a1", relatedId: "t1"), RelationMember(owningId: "a1", relatedId: "t3")], "a removed member is gone"
        )
    }

    static func relationMembersEmpty(_ driver: StorageConformanceDriver) async throws {
        try verifyEqual(try await driver.store.relationMembers(ownerClass: "Absent", field: "r", after: nil, limit: 10), [], "a missing class")
        try await driver.insert("Album", ["title": "a"], id: "a1", relations: [("tags", [Pointer(className: "Tag", objectId: "t1")])])
        try verifyEqual(try await driver.store.relationMembers(ownerClass: "Album", field: "nope", after: nil, limit: 10), [], "a missing field")
        try verifyEqual(
            try await driver.store.relationMembers(ownerClass: "Album", field: "tags", after: RelationMember(owningId: "a1", relatedId: "t1"), limit: 10),
            [], "after the last pair"
        )
        try verifyEqual(try await driver.store.relationMembers(ownerClass: "Album", field: "tags", after: nil, limit: 0), [], "a limit of zero")
    }

    static func accountsInBulk(_ driver: StorageConformanceDriver) async throws {
        func session(_ token: String, _ user: String, _ kind: StoredSession.Kind, at milliseconds: Int64) -> StoredSession {
            StoredSession(
                token: token, sessionId: "s-" + token, userId: user, kind: kind, createdAt: Timestamp(millisecondsSince1970: milliseconds),
                expiresAt: kind == .stable ? nil : Timestamp(millisecondsSince1970: milliseconds + 1000), installationId: kind == .stable ? nil : "i1",
                createdWith: kind == .stable ? nil : ["action": "login"]
            )
        }
        let sessions = [
            session("b-late", "u2", .revocable, at: 300), session("a-stable", "u1", .stable, at: 100), session("c-early", "u2", .revocable, at: 200),
            session("d-other", "u3", .stable, at: 50),
        ]
        var writes: [WriteCommand] = [
            .account(.setPassword(userId: "u1", password: "$scrypt$one")), .account(.setPassword(userId: "u2", password: "$2b$10$two")),
            .account(.setPassword(userId: "u4", password: nil)), .account(.appendFailure(userId: "u5", at: Timestamp(millisecondsSince1970: 1))),
        ]
        writes += sessions.map { .account(.createSession($0)) }
        for result in try await driver.store.perform(writes, atomically: true) { _ = try verifySuccess(result, "an account write") }
        try verifyEqual(
            try await driver.store.passwords(userIds: ["u1", "u2", "u3", "u4", "u5", "nobody"]), ["u1": "$scrypt$one", "u2": "$2b$10$two"],
            "passwords of the users that have one"
        )
        try verifyEqual(try await driver.store.passwords(userIds: []), [:], "no users")
        try verifyEqual(
            try await driver.store.sessions(userIds: ["u2", "u1", "nobody"]), [sessions[1], sessions[2], sessions[0]],
            "sessions by user, then oldest first, other users' left out"
        )
        try verifyEqual(try await driver.store.sessions(userIds: []), [], "no users")
    }
}
