import CirrusModel
import CirrusStorage
import CirrusTesting
import Testing

/// An update and the value of field `v` afterwards.
struct OperationCase: Sendable, CustomTestStringConvertible {
    let name: String
    /// The value of `v` before, or `nil` for an object without `v`.
    let initial: JSON?
    let operation: JSON
    /// The value of `v` after, or `nil` when it must be gone.
    let expected: JSON?

    var testDescription: String { name }
}

@Suite("Atomic operations, sub-path updates and relations over HTTP")
struct OperationTests {
    static let operations: [OperationCase] = [
        OperationCase(name: "Increment", initial: 10, operation: ["__op": "Increment", "amount": 5], expected: 15),
        OperationCase(name: "Increment without amount", initial: 10, operation: ["__op": "Increment"], expected: 11),
        OperationCase(name: "Increment by a negative amount", initial: 10, operation: ["__op": "Increment", "amount": -15], expected: -5),
        OperationCase(name: "Increment by a fraction", initial: 1, operation: ["__op": "Increment", "amount": 0.5], expected: 1.5),
        OperationCase(name: "Increment of a missing field", initial: nil, operation: ["__op": "Increment", "amount": 3], expected: 3),
        OperationCase(name: "Decrement", initial: 10, operation: ["__op": "Decrement", "amount": 4], expected: 6),
        OperationCase(name: "Decrement without amount", initial: 10, operation: ["__op": "Decrement"], expected: 9),
        OperationCase(name: "BitAnd", initial: 0b1100, operation: ["__op": "BitAnd", "value": 0b1010], expected: 0b1000),
        OperationCase(name: "BitOr", initial: 0b1100, operation: ["__op": "BitOr", "value": 0b1010], expected: 0b1110),
        OperationCase(name: "BitXor", initial: 0b1100, operation: ["__op": "BitXor", "value": 0b1010], expected: 0b0110),
        OperationCase(name: "BitAnd of a missing field", initial: nil, operation: ["__op": "BitAnd", "value": 7], expected: 0),
        OperationCase(name: "BitOr of a missing field", initial: nil, operation: ["__op": "BitOr", "value": 1], expected: 1),
        OperationCase(name: "BitXor of a missing field", initial: nil, operation: ["__op": "BitXor", "value": 1], expected: 1),
        OperationCase(name: "Add keeps duplicates", initial: [1, 2], operation: ["__op": "Add", "objects": [2]], expected: [1, 2, 2]),
        OperationCase(name: "Add to a missing field", initial: nil, operation: ["__op": "Add", "objects": ["a", "b"]], expected: ["a", "b"]),
        OperationCase(name: "AddUnique skips present values", initial: [1, 2], operation: ["__op": "AddUnique", "objects": [2, 3, 3]], expected: [1, 2, 3]),
        OperationCase(
            name: "AddUnique compares objects by value", initial: [["a": 1]], operation: ["__op": "AddUnique", "objects": [["a": 1], ["a": 2]]],
            expected: [["a": 1], ["a": 2]]
        ),
        OperationCase(name: "Remove drops every occurrence", initial: [1, 2, 1, 3], operation: ["__op": "Remove", "objects": [1]], expected: [2, 3]),
        OperationCase(name: "Remove of an absent value", initial: [1, 2], operation: ["__op": "Remove", "objects": [5]], expected: [1, 2]),
        OperationCase(
            name: "Remove of a pointer", initial: [["__type": "Pointer", "className": "P", "objectId": "a"], ["__type": "Pointer", "className": "P", "objectId": "b"]],
            operation: ["__op": "Remove", "objects": [["__type": "Pointer", "className": "P", "objectId": "a"]]],
            expected: [["__type": "Pointer", "className": "P", "objectId": "b"]]
        ),
        OperationCase(name: "Delete removes the key", initial: "x", operation: ["__op": "Delete"], expected: nil),
        OperationCase(name: "Delete of a missing key", initial: nil, operation: ["__op": "Delete"], expected: nil),
    ]

    static let cases: [(Endpoint, OperationCase)] = Endpoint.dialects.flatMap { endpoint in operations.map { (endpoint, $0) } }

    @Test("an operation on an update changes the stored value", arguments: cases)
    func update(_ endpoint: Endpoint, _ operation: OperationCase) async throws {
        try await TestServer.with { client in
            var fields: [String: JSON] = ["other": "kept"]
            if let initial = operation.initial { fields["v"] = initial }
            let id = try await client.create(endpoint, "Ops", .object(fields))
            let reply = try await client.request(endpoint, .put, "/classes/Ops/\(id)", json: ["v": operation.operation])
            #expect(reply.status == 200, "\(reply.bodyText)")
            let fetched = try await client.fetch(endpoint, "Ops", id)
            #expect(fetched.json["v"] == operation.expected)
            #expect(fetched.json["other"] == "kept")
        }
    }

    @Test("an operation on a create starts from a missing field", arguments: operations.filter { $0.initial == nil })
    func create(_ operation: OperationCase) async throws {
        try await TestServer.with { client in
            let id = try await client.create(.leancloud, "Ops", ["v": operation.operation, "other": "kept"])
            let fetched = try await client.fetch(.leancloud, "Ops", id)
            #expect(fetched.json["v"] == operation.expected)
            #expect(fetched.json["other"] == "kept")
        }
    }

    @Test("one update may mix operations and plain values")
    func mixed() async throws {
        try await TestServer.with { client in
            let id = try await client.create(.leancloud, "Ops", ["n": 1, "list": [1], "gone": true])
            let reply = try await client.request(.leancloud, .put, "/classes/Ops/\(id)?new=true", json: [
                "n": ["__op": "Increment", "amount": 2], "list": ["__op": "Add", "objects": [2]], "gone": ["__op": "Delete"], "name": "set",
            ])
            #expect(reply.status == 200)
            #expect(reply.json["n"] == 3)
            #expect(reply.json["list"] == [1, 2])
            #expect(reply.json["name"] == "set")
            #expect(reply.json["gone"] == nil)
            let fetched = try await client.fetch(.leancloud, "Ops", id)
            #expect(fetched.keys == ["createdAt", "list", "n", "name", "objectId", "updatedAt"])
        }
    }

    @Test("array operations take long lists of objects", arguments: [70, 600, 1200])
    func longLists(_ count: Int) async throws {
        try await TestServer.with { client in
            let numbers = (0..<count).map { JSON.int(Int64($0)) }
            let id = try await client.create(.leancloud, "Ops", ["list": [-1]])
            let added = try await client.request(.leancloud, .put, "/classes/Ops/\(id)", json: ["list": ["__op": "Add", "objects": .array(numbers)]])
            #expect(added.status == 200, "\(added.bodyText)")
            #expect(try await client.fetch(.leancloud, "Ops", id).json["list"] == .array([-1] + numbers))
            let unique = try await client.request(.leancloud, .put, "/classes/Ops/\(id)", json: [
                "list": ["__op": "AddUnique", "objects": .array(numbers + [.int(Int64(count))])],
            ])
            #expect(unique.status == 200, "\(unique.bodyText)")
            #expect(try await client.fetch(.leancloud, "Ops", id).json["list"] == .array([-1] + numbers + [.int(Int64(count))]))
            let removed = try await client.request(.leancloud, .put, "/classes/Ops/\(id)", json: ["list": ["__op": "Remove", "objects": .array(numbers)]])
            #expect(removed.status == 200, "\(removed.bodyText)")
            #expect(try await client.fetch(.leancloud, "Ops", id).json["list"] == [-1, .int(Int64(count))])
            let created = try await client.request(.leancloud, .post, "/classes/Ops", json: ["list": ["__op": "AddUnique", "objects": .array(numbers + numbers)]])
            #expect(created.status == 201, "\(created.bodyText)")
        }
    }

    @Test("concurrent increments through HTTP are all applied")
    func concurrentIncrements() async throws {
        try await TestServer.with { client in
            let id = try await client.create(.leancloud, "Counter", ["n": 0])
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<40 {
                    group.addTask {
                        try await client.request(.leancloud, .put, "/classes/Counter/\(id)", json: ["n": ["__op": "Increment", "amount": 1]]).status
                    }
                }
                for try await status in group { #expect(status == 200) }
            }
            #expect(try await client.fetch(.leancloud, "Counter", id).json["n"] == 40)
        }
    }

    @Test("a sub-path update changes one member of a nested object", arguments: Endpoint.dialects)
    func nestedPath(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let id = try await client.create(endpoint, "Profile", ["attr": ["gender": "m", "age": 30, "tags": ["a"]]])
            let reply = try await client.request(endpoint, .put, "/classes/Profile/\(id)", json: [
                "attr.gender": "f", "attr.age": ["__op": "Increment", "amount": 1], "attr.tags": ["__op": "Add", "objects": ["b"]],
                "attr.extra.deep": 1,
            ])
            #expect(reply.status == 200, "\(reply.bodyText)")
            let fetched = try await client.fetch(endpoint, "Profile", id)
            #expect(fetched.json["attr"] == ["gender": "f", "age": 31, "tags": ["a", "b"], "extra": ["deep": 1]])
            let removed = try await client.request(endpoint, .put, "/classes/Profile/\(id)", json: ["attr.extra": ["__op": "Delete"]])
            #expect(removed.status == 200)
            #expect(try await client.fetch(endpoint, "Profile", id).json["attr"] == ["gender": "f", "age": 31, "tags": ["a", "b"]])
        }
    }

    @Test("a sub-path update addresses array elements by index", arguments: Endpoint.dialects)
    func arrayElement(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let id = try await client.create(endpoint, "Team", ["arr": [["name": "a", "score": 1], ["name": "b", "score": 2]]])
            let reply = try await client.request(endpoint, .put, "/classes/Team/\(id)", json: [
                "arr.0.name": "z", "arr.1.score": ["__op": "Increment", "amount": 10],
            ])
            #expect(reply.status == 200, "\(reply.bodyText)")
            let fetched = try await client.fetch(endpoint, "Team", id)
            #expect(fetched.json["arr"] == [["name": "z", "score": 1], ["name": "b", "score": 12]])
        }
    }

    @Test("AddRelation and RemoveRelation edit the join table and show a descriptor on every object of the class", arguments: Endpoint.dialects)
    func relations(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let posts = [try await client.create(endpoint, "Post", ["n": 1]), try await client.create(endpoint, "Post", ["n": 2])]
            let pointers: [JSON] = posts.map { ["__type": "Pointer", "className": "Post", "objectId": .string($0)] }
            let owner = try await client.create(endpoint, "Person", ["pname": "a", "likes": ["__op": "AddRelation", "objects": .array(pointers)]])
            let other = try await client.create(endpoint, "Person", ["pname": "b"])
            let descriptor: JSON = ["__type": "Relation", "className": "Post"]
            #expect(try await client.fetch(endpoint, "Person", owner).json["likes"] == descriptor)
            #expect(try await client.fetch(endpoint, "Person", other).json["likes"] == descriptor)
            let found = try await client.request(endpoint, .get, "/classes/Person")
            #expect(found.json["results"]?.arrayValue?.allSatisfy { $0["likes"] == descriptor } == true)
            #expect(Set(try await client.store.relationTargets(className: "Person", objectId: owner, field: "likes").map(\.objectId)) == Set(posts))

            let removed = try await client.request(endpoint, .put, "/classes/Person/\(owner)", json: ["likes": ["__op": "RemoveRelation", "objects": [pointers[0]]]])
            #expect(removed.status == 200, "\(removed.bodyText)")
            #expect(try await client.store.relationTargets(className: "Person", objectId: owner, field: "likes").map(\.objectId) == [posts[1]])

            let batch = try await client.request(endpoint, .put, "/classes/Person/\(other)", json: [
                "likes": ["__op": "Batch", "ops": [
                    ["__op": "AddRelation", "objects": .array(pointers)], ["__op": "RemoveRelation", "objects": [pointers[1]]],
                ]],
                "pname": "c",
            ])
            #expect(batch.status == 200, "\(batch.bodyText)")
            #expect(try await client.store.relationTargets(className: "Person", objectId: other, field: "likes").map(\.objectId) == [posts[0]])
            #expect(try await client.fetch(endpoint, "Person", other).json["pname"] == "c")
        }
    }

    @Test("a relation field keeps its target class")
    func relationTargetClass() async throws {
        try await TestServer.with { client in
            let post = try await client.create(.leancloud, "Post", ["n": 1])
            let comment = try await client.create(.leancloud, "Comment", ["n": 1])
            let id = try await client.create(.leancloud, "Person", [
                "likes": ["__op": "AddRelation", "objects": [["__type": "Pointer", "className": "Post", "objectId": .string(post)]]],
            ])
            let wrong = try await client.request(.leancloud, .put, "/classes/Person/\(id)", json: [
                "likes": ["__op": "AddRelation", "objects": [["__type": "Pointer", "className": "Comment", "objectId": .string(comment)]]],
            ])
            #expect(wrong.status == 400)
            #expect(wrong.code == 111)
            let plain = try await client.request(.leancloud, .put, "/classes/Person/\(id)", json: ["likes": 3])
            #expect(plain.code == 111)
        }
    }

    @Test("deleting an object removes its relation members")
    func deleteRelationOwner() async throws {
        try await TestServer.with { client in
            let post = try await client.create(.leancloud, "Post", ["n": 1])
            let id = try await client.create(.leancloud, "Person", [
                "likes": ["__op": "AddRelation", "objects": [["__type": "Pointer", "className": "Post", "objectId": .string(post)]]],
            ])
            _ = try await client.request(.leancloud, .delete, "/classes/Person/\(id)")
            #expect(try await client.store.relationTargets(className: "Person", objectId: id, field: "likes").isEmpty)
        }
    }
}
