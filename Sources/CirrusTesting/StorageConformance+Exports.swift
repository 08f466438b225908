import CirrusModel
import CirrusStorage

/// The reads exports page through: every member of a relation field, in key order.
extension StorageConformance {
    static var exportChecks: [StorageCheck] {
        [
            StorageCheck("relation members of a whole class come in (owner, related) order, page by page after the last pair", relationMemberPages),
            StorageCheck("relation members of a missing class, field or after the last pair are an empty page", relationMembersEmpty),
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
}
