import CirrusModel
import CirrusTesting
import Testing

/// Every read and write path × {master, owner, role member, other user, anonymous, a forged and a revoked session} ×
/// every dialect: an object readable by its owner and the role `Team` and writable by its owner only must be found,
/// changed or deleted exactly by those; a refused write changes nothing, its relations included.
@Suite("Permission matrix")
struct PermissionMatrixTests {
    /// A read path: whether `principal` sees the object `id` of class `Doc` through it.
    enum ReadPath: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case get, find, count, include, innerQuery, selectQuery, cql, aggregate, batchGet, relatedTo
        var testDescription: String { rawValue }
    }

    /// A write path: whether `principal` changes or deletes the object through it.
    enum WritePath: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case update, atomicOperation, conditionalUpdate, delete, batchUpdate, batchTransaction, cqlUpdate, cqlDelete, multiDelete, addRelation,
            removeRelation, relationInTransaction, updateWithRelation
        var testDescription: String { rawValue }
    }

    static let readCases = Endpoint.matrix(ReadPath.self)
    static let writeCases = Endpoint.matrix(WritePath.self)

    static let readers: Set<Principal> = [.master, .owner, .roleMember]
    static let writers: Set<Principal> = [.master, .owner]

    @Test("a read path shows the object exactly to the principals its ACL lets read", arguments: readCases)
    func read(_ endpoint: Endpoint, _ path: ReadPath) async throws {
        try await TestServer.with { client in
            let fixture = try await PermissionFixture.make(client, endpoint)
            let id = try await client.create(endpoint, "Doc", ["n": 5, "ACL": fixture.acl])
            let pointer: JSON = ["__type": "Pointer", "className": "Doc", "objectId": .string(id)]
            let holder = try await client.create(
                endpoint, "Holder", ["doc": pointer, "docId": .string(id), "docs": ["__op": "AddRelation", "objects": [pointer]]]
            )
            for principal in Principal.allCases {
                let sees = try await Self.sees(path, id, holder, client, endpoint, fixture.auth(principal))
                #expect(sees == Self.readers.contains(principal), "\(path) as \(principal) in \(endpoint.dialect)")
            }
        }
    }

    static func sees(
        _ path: ReadPath, _ id: String, _ holder: String, _ client: TestClient, _ endpoint: Endpoint, _ auth: TestClient.Auth
    ) async throws -> Bool {
        func results(_ suffix: String) async throws -> [String] {
            let reply = try await client.request(endpoint, .get, suffix, auth: auth)
            return reply.json["results"]?.arrayValue?.compactMap { $0["objectId"]?.stringValue } ?? []
        }
        switch path {
        case .get:
            return try await client.request(endpoint, .get, "/classes/Doc/\(id)", auth: auth).json["objectId"]?.stringValue == id
        case .find:
            return try await results("/classes/Doc").contains(id)
        case .count:
            return try await client.request(endpoint, .get, "/classes/Doc?count=1&limit=0", auth: auth).json["count"] == 1
        case .include:
            let reply = try await client.request(endpoint, .get, "/classes/Holder/\(holder)?include=doc", auth: auth)
            return reply.json["doc"]?["n"] == 5
        case .innerQuery:
            let inner: JSON = ["doc": ["$inQuery": ["className": "Doc", "where": ["n": 5]]]]
            return try await results("/classes/Holder?" + URLQuery.whereClause(inner)).contains(holder)
        case .selectQuery:
            let select: JSON = ["docId": ["$select": ["query": ["className": "Doc", "where": ["n": 5]], "key": "objectId"]]]
            return try await results("/classes/Holder?" + URLQuery.whereClause(select)).contains(holder)
        case .cql:
            let parameter = endpoint.dialect == .bmob ? "bql" : "cql"
            let reply = try await client.request(endpoint, .get, "/cloudQuery?\(parameter)=" + URLQuery.encode("select * from Doc where n = 5"), auth: auth)
            return reply.json["results"]?.arrayValue?.contains { $0["objectId"]?.stringValue == id } == true
        case .aggregate:
            let reply = try await client.request(endpoint, .get, "/classes/Doc?sum=n", auth: auth)
            return reply.json["results"]?[0]?["_sumN"] == 5
        case .batchGet:
            let reply = try await client.request(endpoint, .post, "/batch", json: [
                "requests": [["method": "GET", "path": .string("\(endpoint.prefix)/classes/Doc/\(id)")]],
            ], auth: auth)
            return reply.json[0]?["success"]?["objectId"]?.stringValue == id
        case .relatedTo:
            let related: JSON = ["$relatedTo": ["object": ["__type": "Pointer", "className": "Holder", "objectId": .string(holder)], "key": "docs"]]
            return try await results("/classes/Doc?" + URLQuery.whereClause(related)).contains(id)
        }
    }

    @Test("a write path changes the object exactly for the principals its ACL lets write", arguments: writeCases)
    func write(_ endpoint: Endpoint, _ path: WritePath) async throws {
        try await TestServer.with { client in
            let fixture = try await PermissionFixture.make(client, endpoint)
            let tag = try await client.create(endpoint, "Tag", ["name": "kept"])
            let tagPointer: JSON = ["__type": "Pointer", "className": "Tag", "objectId": .string(tag)]
            for principal in Principal.allCases {
                let id = try await client.create(endpoint, "Doc", ["n": 5, "ACL": fixture.acl, "tags": ["__op": "AddRelation", "objects": [tagPointer]]])
                let before = try await Self.snapshot(id, client, endpoint)
                try await Self.write(path, id, client, endpoint, fixture.auth(principal))
                let after = try await Self.snapshot(id, client, endpoint)
                #expect((after != before) == Self.writers.contains(principal), "\(path) as \(principal) in \(endpoint.dialect): \(after)")
            }
        }
    }

    /// The object as the master key reads it, and the members of its relation `tags`.
    static func snapshot(_ id: String, _ client: TestClient, _ endpoint: Endpoint) async throws -> [JSON] {
        var object = try await client.request(endpoint, .get, "/classes/Doc/\(id)", auth: .master).json.objectValue ?? [:]
        object["updatedAt"] = nil
        let related: JSON = ["$relatedTo": ["object": ["__type": "Pointer", "className": "Doc", "objectId": .string(id)], "key": "tags"]]
        let members = try await client.request(endpoint, .get, "/classes/Tag?" + URLQuery.whereClause(related), auth: .master)
        return [.object(object), .array((members.json["results"]?.arrayValue ?? []).compactMap { $0["objectId"] })]
    }

    static func write(_ path: WritePath, _ id: String, _ client: TestClient, _ endpoint: Endpoint, _ auth: TestClient.Auth) async throws {
        let object = "/classes/Doc/\(id)"
        let cql = endpoint.dialect == .bmob ? "bql" : "cql"
        func relation(_ op: String, _ objects: [JSON]) -> JSON { ["__op": .string(op), "objects": .array(objects)] }
        switch path {
        case .update:
            _ = try await client.request(endpoint, .put, object, json: ["n": 6], auth: auth)
        case .atomicOperation:
            _ = try await client.request(endpoint, .put, object, json: ["n": ["__op": "Increment", "amount": 1]], auth: auth)
        case .conditionalUpdate:
            _ = try await client.request(endpoint, .put, object + "?" + URLQuery.whereClause(["n": 5]), json: ["n": 7], auth: auth)
        case .delete:
            _ = try await client.request(endpoint, .delete, object, auth: auth)
        case .batchUpdate:
            _ = try await client.request(endpoint, .post, "/batch", json: [
                "requests": [["method": "PUT", "path": .string(endpoint.prefix + object), "body": ["n": 8]]],
            ], auth: auth)
        case .batchTransaction:
            _ = try await client.request(endpoint, .post, "/batch", json: [
                "transaction": true, "requests": [["method": "PUT", "path": .string(endpoint.prefix + object), "body": ["n": 9]]],
            ], auth: auth)
        case .cqlUpdate:
            _ = try await client.request(endpoint, .get, "/cloudQuery?\(cql)=" + URLQuery.encode("update Doc set n = 10 where objectId = '\(id)'"), auth: auth)
        case .cqlDelete:
            _ = try await client.request(endpoint, .get, "/cloudQuery?\(cql)=" + URLQuery.encode("delete from Doc where objectId = '\(id)'"), auth: auth)
        case .multiDelete:
            guard endpoint.dialect == .leancloud else { return try await write(.delete, id, client, endpoint, auth) }
            let other = try await client.create(endpoint, "Doc", ["n": 1])
            _ = try await client.request(endpoint, .delete, "/classes/Doc/\(other),\(id)", auth: auth)
        case .addRelation:
            let extra = try await client.create(endpoint, "Tag", ["name": "added"])
            let pointer: JSON = ["__type": "Pointer", "className": "Tag", "objectId": .string(extra)]
            _ = try await client.request(endpoint, .put, object, json: ["tags": relation("AddRelation", [pointer])], auth: auth)
        case .removeRelation:
            let members = try await snapshot(id, client, endpoint)[1].arrayValue ?? []
            let pointers = members.map { JSON.object(["__type": "Pointer", "className": "Tag", "objectId": $0]) }
            _ = try await client.request(endpoint, .put, object, json: ["tags": relation("RemoveRelation", pointers)], auth: auth)
        case .relationInTransaction:
            let extra = try await client.create(endpoint, "Tag", ["name": "added"])
            let pointer: JSON = ["__type": "Pointer", "className": "Tag", "objectId": .string(extra)]
            _ = try await client.request(endpoint, .post, "/batch", json: [
                "transaction": true,
                "requests": [["method": "PUT", "path": .string(endpoint.prefix + object), "body": ["tags": relation("AddRelation", [pointer])]]],
            ], auth: auth)
        case .updateWithRelation:
            let extra = try await client.create(endpoint, "Tag", ["name": "added"])
            let pointer: JSON = ["__type": "Pointer", "className": "Tag", "objectId": .string(extra)]
            _ = try await client.request(endpoint, .put, object, json: ["n": 11, "tags": relation("AddRelation", [pointer])], auth: auth)
        }
    }

    /// Roles are objects too: a user who may not write a role cannot change its name, ACL, users or inherited roles.
    enum RoleWrite: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case addUser, removeUser, addRole, changeACL
        var testDescription: String { rawValue }
    }

    static let roleCases = Endpoint.matrix(RoleWrite.self)

    @Test("a role changes only for the principals its ACL lets write", arguments: roleCases)
    func roleWrites(_ endpoint: Endpoint, _ write: RoleWrite) async throws {
        try await TestServer.with { client in
            let fixture = try await PermissionFixture.make(client, endpoint)
            let acl: JSON = ["*": ["read": true], .init(stringLiteral: fixture.owner.id): ["read": true, "write": true]]
            for principal in Principal.allCases {
                let name = "Staff\(principal.rawValue)"
                let created = try await client.request(endpoint, .post, "/roles", json: ["name": .string(name), "ACL": acl], auth: .master)
                let id = try #require(created.json["objectId"]?.stringValue, "\(created.bodyText)")
                let user: JSON = ["__type": "Pointer", "className": "_User", "objectId": .string(fixture.other.id)]
                let team = try await client.request(endpoint, .get, "/roles?" + URLQuery.whereClause(["name": "Team"]), auth: .master)
                let teamPointer: JSON = ["__type": "Pointer", "className": "_Role", "objectId": team.json["results"]?[0]?["objectId"] ?? .null]
                let body: JSON = switch write {
                case .addUser: ["users": ["__op": "AddRelation", "objects": [user]]]
                case .removeUser: ["users": ["__op": "RemoveRelation", "objects": [user]]]
                case .addRole: ["roles": ["__op": "AddRelation", "objects": [teamPointer]]]
                case .changeACL: ["ACL": ["*": ["read": true, "write": true]]]
                }
                if write == .removeUser {
                    _ = try await client.request(endpoint, .put, "/roles/\(id)", json: ["users": ["__op": "AddRelation", "objects": [user]]], auth: .master)
                }
                let seeded = try await Self.roleSnapshot(id, client, endpoint)
                let reply = try await client.request(endpoint, .put, "/roles/\(id)", json: body, auth: fixture.auth(principal))
                let after = try await Self.roleSnapshot(id, client, endpoint)
                let writes = Self.writers.contains(principal)
                #expect((after != seeded) == writes, "\(write) as \(principal) in \(endpoint.dialect): \(reply.bodyText)")
                #expect((reply.status < 300) == writes, "\(write) as \(principal): \(reply.status) \(reply.bodyText)")
            }
        }
    }

    /// A role as the master key reads it, with the members of its two relations.
    static func roleSnapshot(_ id: String, _ client: TestClient, _ endpoint: Endpoint) async throws -> [JSON] {
        var role = try await client.request(endpoint, .get, "/roles/\(id)?returnACL=true", auth: .master).json.objectValue ?? [:]
        role["updatedAt"] = nil
        var snapshot: [JSON] = [.object(role)]
        for (key, className) in [("users", "_User"), ("roles", "_Role")] {
            let related: JSON = ["$relatedTo": ["object": ["__type": "Pointer", "className": "_Role", "objectId": .string(id)], "key": .string(key)]]
            let path = className == "_User" ? "/users" : "/roles"
            let members = try await client.request(endpoint, .get, path + "?" + URLQuery.whereClause(related), auth: .master)
            snapshot.append(.array((members.json["results"]?.arrayValue ?? []).compactMap { $0["objectId"] }))
        }
        return snapshot
    }
}
