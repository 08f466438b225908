import CirrusModel
import CirrusTesting
import Testing

/// Every read and write path × {master, owner, role member, other user, anonymous}: an object readable by its
/// owner and the role `Team` and writable by its owner only must be found, changed or deleted exactly by those.
@Suite("Permission matrix")
struct PermissionMatrixTests {
    /// A read path: whether `principal` sees the object `id` of class `Doc` through it.
    enum ReadPath: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case get, find, count, include, innerQuery, selectQuery, cql, aggregate, batchGet, relatedTo
        var testDescription: String { rawValue }
    }

    /// A write path: whether `principal` changes or deletes the object through it.
    enum WritePath: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case update, atomicOperation, conditionalUpdate, delete, batchUpdate, batchTransaction, cqlUpdate, cqlDelete, multiDelete
        var testDescription: String { rawValue }
    }

    static let readers: Set<Principal> = [.master, .owner, .roleMember]
    static let writers: Set<Principal> = [.master, .owner]

    @Test("a read path shows the object exactly to the principals its ACL lets read", arguments: ReadPath.allCases)
    func read(_ path: ReadPath) async throws {
        try await TestServer.with { client in
            let fixture = try await PermissionFixture.make(client)
            let id = try await client.create(.leancloud, "Doc", ["n": 5, "ACL": fixture.acl])
            let pointer: JSON = ["__type": "Pointer", "className": "Doc", "objectId": .string(id)]
            let holder = try await client.create(
                .leancloud, "Holder", ["doc": pointer, "docId": .string(id), "docs": ["__op": "AddRelation", "objects": [pointer]]]
            )
            for principal in Principal.allCases {
                let sees = try await Self.sees(path, id, holder, client, fixture.auth(principal))
                #expect(sees == Self.readers.contains(principal), "\(path) as \(principal)")
            }
        }
    }

    static func sees(_ path: ReadPath, _ id: String, _ holder: String, _ client: TestClient, _ auth: TestClient.Auth) async throws -> Bool {
        func results(_ suffix: String) async throws -> [String] {
            let reply = try await client.request(.leancloud, .get, suffix, auth: auth)
            return reply.json["results"]?.arrayValue?.compactMap { $0["objectId"]?.stringValue } ?? []
        }
        switch path {
        case .get:
            return try await client.request(.leancloud, .get, "/classes/Doc/\(id)", auth: auth).json["objectId"]?.stringValue == id
        case .find:
            return try await results("/classes/Doc").contains(id)
        case .count:
            return try await client.request(.leancloud, .get, "/classes/Doc?count=1&limit=0", auth: auth).json["count"] == 1
        case .include:
            let reply = try await client.request(.leancloud, .get, "/classes/Holder/\(holder)?include=doc", auth: auth)
            return reply.json["doc"]?["n"] == 5
        case .innerQuery:
            let inner: JSON = ["doc": ["$inQuery": ["className": "Doc", "where": ["n": 5]]]]
            return try await results("/classes/Holder?" + URLQuery.whereClause(inner)).contains(holder)
        case .selectQuery:
            let select: JSON = ["docId": ["$select": ["query": ["className": "Doc", "where": ["n": 5]], "key": "objectId"]]]
            return try await results("/classes/Holder?" + URLQuery.whereClause(select)).contains(holder)
        case .cql:
            let reply = try await client.request(.leancloud, .get, "/cloudQuery?cql=" + URLQuery.encode("select * from Doc where n = 5"), auth: auth)
            return reply.json["results"]?.arrayValue?.contains { $0["objectId"]?.stringValue == id } == true
        case .aggregate:
            let reply = try await client.request(.leancloud, .get, "/classes/Doc?sum=n", auth: auth)
            return reply.json["results"]?[0]?["_sumN"] == 5
        case .batchGet:
            let reply = try await client.request(.leancloud, .post, "/batch", json: [
                "requests": [["method": "GET", "path": .string("/1.1/classes/Doc/\(id)")]],
            ], auth: auth)
            return reply.json[0]?["success"]?["objectId"]?.stringValue == id
        case .relatedTo:
            let related: JSON = ["$relatedTo": ["object": ["__type": "Pointer", "className": "Holder", "objectId": .string(holder)], "key": "docs"]]
            return try await results("/classes/Doc?" + URLQuery.whereClause(related)).contains(id)
        }
    }

    @Test("a write path changes the object exactly for the principals its ACL lets write", arguments: WritePath.allCases)
    func write(_ path: WritePath) async throws {
        try await TestServer.with { client in
            let fixture = try await PermissionFixture.make(client)
            for principal in Principal.allCases {
                let id = try await client.create(.leancloud, "Doc", ["n": 5, "ACL": fixture.acl])
                try await Self.write(path, id, client, fixture.auth(principal))
                let after = try await client.request(.leancloud, .get, "/classes/Doc/\(id)", auth: .master).json
                let changed = after["n"] != 5
                #expect(changed == Self.writers.contains(principal), "\(path) as \(principal): \(after)")
            }
        }
    }

    static func write(_ path: WritePath, _ id: String, _ client: TestClient, _ auth: TestClient.Auth) async throws {
        let object = "/classes/Doc/\(id)"
        switch path {
        case .update:
            _ = try await client.request(.leancloud, .put, object, json: ["n": 6], auth: auth)
        case .atomicOperation:
            _ = try await client.request(.leancloud, .put, object, json: ["n": ["__op": "Increment", "amount": 1]], auth: auth)
        case .conditionalUpdate:
            _ = try await client.request(.leancloud, .put, object + "?" + URLQuery.whereClause(["n": 5]), json: ["n": 7], auth: auth)
        case .delete:
            _ = try await client.request(.leancloud, .delete, object, auth: auth)
        case .batchUpdate:
            _ = try await client.request(.leancloud, .post, "/batch", json: [
                "requests": [["method": "PUT", "path": .string("/1.1" + object), "body": ["n": 8]]],
            ], auth: auth)
        case .batchTransaction:
            _ = try await client.request(.leancloud, .post, "/batch", json: [
                "transaction": true, "requests": [["method": "PUT", "path": .string("/1.1" + object), "body": ["n": 9]]],
            ], auth: auth)
        case .cqlUpdate:
            _ = try await client.request(.leancloud, .get, "/cloudQuery?cql=" + URLQuery.encode("update Doc set n = 10 where objectId = '\(id)'"), auth: auth)
        case .cqlDelete:
            _ = try await client.request(.leancloud, .get, "/cloudQuery?cql=" + URLQuery.encode("delete from Doc where objectId = '\(id)'"), auth: auth)
        case .multiDelete:
            let other = try await client.create(.leancloud, "Doc", ["n": 1])
            _ = try await client.request(.leancloud, .delete, "/classes/Doc/\(other),\(id)", auth: auth)
        }
    }
}
