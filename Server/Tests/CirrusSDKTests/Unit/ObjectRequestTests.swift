@testable import Cirrus
import CirrusModel
import Foundation
import Testing

/// The requests LCObject's calls build, through an in-memory transport.
@Suite("Object requests")
struct ObjectRequestTests {
    @Test("a new object is created with POST /1.1/classes/<class>, its fields, and the app's headers")
    func create() async throws {
        let transport = RecordingTransport(json: [#"{"objectId":"o1","createdAt":"2026-01-01T00:00:00.000Z"}"#])
        let todo = LCObject(application: try makeApplication(transport), className: "Todo")
        try todo.set("title", value: "Sign up for Marathon")
        try todo.set("priority", value: 2)
        try await todo.save()
        let request = try #require(transport.requests.first)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://api.example.com/1.1/classes/Todo")
        #expect(request.json == (try json(#"{"title":"Sign up for Marathon","priority":2}"#)))
        #expect(request.headers["X-LC-Id"] == "test-app-id")
        #expect(request.headers["X-LC-Sign"]?.split(separator: ",").count == 2)
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.headers["X-LC-Session"] == nil)
        #expect(todo.objectId?.value == "o1")
        #expect(todo.createdAt?.isoString == "2026-01-01T00:00:00.000Z")
        #expect(todo.updatedAt == todo.createdAt)
        #expect(!todo.hasDataToUpload)
    }

    @Test("an update sends only changed fields and operations, with PUT")
    func update() async throws {
        let transport = RecordingTransport(json: [#"{"objectId":"a1","updatedAt":"2026-01-02T00:00:00.000Z"}"#])
        let account = LCObject(application: try makeApplication(transport), className: "Account", objectId: "a1")
        try account.increase("balance", by: -100)
        try account.append("tags", element: "x")
        try account.append("tags", elements: ["y"])
        try account.append("labels", element: "u", unique: true)
        try account.remove("old", elements: [1, 2])
        try account.unset("gone")
        try await account.save()
        let request = try #require(transport.requests.first)
        #expect(request.method == "PUT")
        #expect(request.path == "/1.1/classes/Account/a1")
        let expected = try json(#"""
        {"balance":{"__op":"Increment","amount":-100},"tags":{"__op":"Add","objects":["x","y"]},
        "labels":{"__op":"AddUnique","objects":["u"]},"old":{"__op":"Remove","objects":[1,2]},"gone":{"__op":"Delete"}}
        """#)
        #expect(request.json == expected)
        #expect(account.updatedAt?.isoString == "2026-01-02T00:00:00.000Z")
    }

    @Test("a saved object with nothing changed sends nothing")
    func unchanged() async throws {
        let transport = RecordingTransport()
        let object = LCObject(application: try makeApplication(transport), className: "Todo", objectId: "t1")
        try await object.save()
        #expect(transport.requests.isEmpty)
    }

    @Test("save options become fetchWhenSave=true and a where parameter")
    func saveOptions() async throws {
        let transport = RecordingTransport(json: [#"{"objectId":"a1","balance":50,"updatedAt":"2026-01-02T00:00:00.000Z"}"#])
        let application = try makeApplication(transport)
        let account = LCObject(application: application, className: "Account", objectId: "a1")
        try account.increase("balance", by: -100)
        let query = LCQuery(application: application, className: "Account")
        query.whereKey("balance", .greaterThanOrEqualTo(100))
        try await account.save(options: [.query(query), .fetchWhenSave])
        let request = try #require(transport.requests.first)
        #expect(request.query["fetchWhenSave"] == "true")
        #expect(request.queryJSON("where") == (try json(#"{"balance":{"$gte":100}}"#)))
        #expect(account.get("balance")?.intValue == 50)
    }

    @Test("operations on one key merge before a save", arguments: [
        ("two increments add up", { @Sendable (o: LCObject) in try o.increase("n", by: 2); try o.increase("n") }, #"{"n":{"__op":"Increment","amount":3}}"#),
        ("a set then an increment sends the sum", { @Sendable (o: LCObject) in try o.set("n", value: 5); try o.increase("n", by: 2) }, #"{"n":7}"#),
        ("a set then an append sends the array", { @Sendable (o: LCObject) in try o.set("a", value: [1]); try o.append("a", element: 2) }, #"{"a":[1,2]}"#),
        ("unique appends skip what is there", { @Sendable (o: LCObject) in try o.append("a", element: 1, unique: true); try o.append("a", elements: [1, 2], unique: true) },
         #"{"a":{"__op":"AddUnique","objects":[1,2]}}"#),
        ("an unset wins over earlier operations", { @Sendable (o: LCObject) in try o.increase("n"); try o.unset("n") }, #"{"n":{"__op":"Delete"}}"#),
    ] as [(String, @Sendable (LCObject) throws -> Void, String)])
    func merges(name: String, change: @Sendable (LCObject) throws -> Void, expected: String) async throws {
        let transport = RecordingTransport(json: [#"{"updatedAt":"2026-01-02T00:00:00.000Z"}"#])
        let object = LCObject(application: try makeApplication(transport), className: "C", objectId: "c1")
        try change(object)
        try await object.save()
        #expect(transport.requests.first?.json == (try json(expected)), "\(name)")
    }

    @Test("operations that cannot follow each other are refused")
    func conflicting() throws {
        let object = LCObject(application: LCApplication(), className: "C", objectId: "c1")
        try object.append("a", element: 1)
        #expect(throws: LCError.self) { try object.remove("a", element: 1) }
    }

    @Test("keys the server sets are refused")
    func reservedKeys() {
        let object = LCObject(application: LCApplication(), className: "C")
        for key in ["objectId", "createdAt", "updatedAt", ""] {
            #expect(throws: LCError.self) { try object.set(key, value: 1) }
        }
    }

    @Test("local values follow the operations before the save")
    func localValues() throws {
        let object = LCObject(application: LCApplication(), className: "C")
        try object.set("n", value: 1)
        try object.increase("n", by: 2)
        try object.set("tags", value: ["a", "b"])
        try object.append("tags", element: "c")
        try object.remove("tags", element: "a")
        try object.set("name", "Jerry")
        #expect(object.get("name")?.stringValue == "Jerry")
        #expect(object.get("n")?.intValue == 3)
        #expect(object.get("tags")?.arrayValue?.compactMap(\.stringValue) == ["b", "c"])
        #expect(object["n"] as? LCNumber == LCNumber(3))
    }

    @Test("new objects a save points to are saved first, with a batch")
    func childrenFirst() async throws {
        let transport = RecordingTransport(json: [
            #"[{"success":{"objectId":"p1","createdAt":"2026-01-01T00:00:00.000Z"}}]"#,
            #"{"objectId":"c1","createdAt":"2026-01-01T00:00:00.000Z"}"#,
        ])
        let application = try makeApplication(transport)
        let post = LCObject(application: application, className: "Post")
        try post.set("title", value: "I am starving!")
        let comment = LCObject(application: application, className: "Comment")
        try comment.set("content", value: "KFC is the best!")
        try comment.set("parent", value: post)
        try await comment.save()
        #expect(transport.requests.map(\.path) == ["/1.1/batch", "/1.1/classes/Comment"])
        let batch = try json(#"{"requests":[{"method":"POST","path":"/1.1/classes/Post","body":{"title":"I am starving!"}}]}"#)
        #expect(transport.requests[0].json == batch)
        #expect(transport.requests[1].json["parent"] == (try json(#"{"__type":"Pointer","className":"Post","objectId":"p1"}"#)))
        #expect(post.objectId?.value == "p1")
    }

    @Test("fetch reads GET /1.1/classes/<class>/<id> with keys; an empty reply is error 101")
    func fetch() async throws {
        let transport = RecordingTransport(json: [#"{"objectId":"t1","title":"x","updatedAt":"2026-01-02T00:00:00.000Z"}"#, "{}"])
        let todo = LCObject(application: try makeApplication(transport), className: "Todo", objectId: "t1")
        try await todo.fetch(keys: ["title", "content"])
        #expect(transport.requests[0].method == "GET")
        #expect(transport.requests[0].path == "/1.1/classes/Todo/t1")
        #expect(transport.requests[0].query["keys"] == "title,content")
        #expect(todo.get("title")?.stringValue == "x")
        await #expect(throws: LCError.self) { try await todo.fetch() }
        let error = try await #require(throws: LCError.self) { try await todo.fetch() }
        #expect(error.code == 101)
    }

    @Test("delete sends DELETE; an object without id cannot be deleted")
    func delete() async throws {
        let transport = RecordingTransport()
        let application = try makeApplication(transport)
        try await LCObject(application: application, className: "Todo", objectId: "t1").delete()
        #expect(transport.requests.first?.method == "DELETE")
        #expect(transport.requests.first?.path == "/1.1/classes/Todo/t1")
        await #expect(throws: LCError.self) { try await LCObject(application: application, className: "Todo").delete() }
    }

    @Test("the batch statics send one sub-request per object and report the first failed item")
    func batchStatics() async throws {
        let transport = RecordingTransport(json: [
            #"[{"success":{"objectId":"a","createdAt":"2026-01-01T00:00:00.000Z"}},{"success":{"objectId":"b","createdAt":"2026-01-01T00:00:00.000Z"}}]"#,
            #"[{"success":{}},{"error":{"code":101,"error":"not found"}}]"#,
            #"[{"success":{"objectId":"a","n":1}},{"success":null}]"#,
        ])
        let application = try makeApplication(transport)
        let first = LCObject(application: application, className: "T")
        let second = LCObject(application: application, className: "T")
        try first.set("n", value: 1)
        try await LCObject.save([first, second])
        #expect(transport.requests[0].json["requests"]?.arrayValue?.count == 2)
        #expect([first.objectId?.value, second.objectId?.value] == ["a", "b"])
        let deletion = try await #require(throws: LCError.self) { try await LCObject.delete([first, second]) }
        #expect(deletion.code == 101)
        let items = try #require(transport.requests[1].json["requests"]?.arrayValue)
        #expect(items.map { $0["method"] } == ["DELETE", "DELETE"])
        #expect(items.map { $0["path"] } == ["/1.1/classes/T/a", "/1.1/classes/T/b"])
        let fetching = try await #require(throws: LCError.self) { try await LCObject.fetch([first, second]) }
        #expect(fetching.code == 101)
        #expect(first.get("n")?.intValue == 1)
    }

    @Test("a batch save's options go in each of its objects' sub-requests as params, and nowhere without options")
    func batchSaveOptions() async throws {
        let transport = RecordingTransport(json: [
            #"[{"success":{"objectId":"a","updatedAt":"2026-01-01T00:00:00.000Z","n":2}}]"#,
            #"[{"success":{"objectId":"a","updatedAt":"2026-01-01T00:00:00.000Z"}}]"#,
        ])
        let application = try makeApplication(transport)
        let object = LCObject(application: application, className: "T", objectId: "a")
        try object.increase("n", by: 1)
        try await LCObject.save([object], options: [.fetchWhenSave])
        let item = try #require(transport.requests[0].json["requests"]?.arrayValue?.first)
        #expect(item["params"] == ["fetchWhenSave": "true"])
        #expect(object.get("n")?.intValue == 2)
        try object.increase("n", by: 1)
        try await LCObject.save([object])
        #expect(transport.requests[1].json["requests"]?.arrayValue?.first?["params"] == nil)
    }

    @Test("a server error reply becomes an LCError with the server's code and message")
    func serverError() async throws {
        let transport = RecordingTransport([
            TransportResponse(status: 400, body: Data(#"{"code":305,"error":"No effect on updating\/deleting a document."}"#.utf8))
        ])
        let object = LCObject(application: try makeApplication(transport), className: "T", objectId: "t")
        try object.set("a", value: 1)
        let error = try await #require(throws: LCError.self) { try await object.save() }
        #expect(error.code == 305)
        #expect(error.reason == "No effect on updating/deleting a document.")
        #expect(object.hasDataToUpload)
    }

    @Test("a field named error is a field; a 200 reply that is exactly {code, error} is an error")
    func errorField() async throws {
        let transport = RecordingTransport(json: [#"{"objectId":"t1","error":"disk full","code":7}"#, #"{"code":1,"error":"Internal error."}"#])
        let application = try makeApplication(transport)
        let log = LCObject(application: application, className: "Log", objectId: "t1")
        try await log.fetch()
        #expect(log.get("error")?.stringValue == "disk full")
        let error = try await #require(throws: LCError.self) { try await log.fetch() }
        #expect(error.code == 1 && error.reason == "Internal error.")
    }

    @Test("an operation recorded while a save is under way is sent by the next save; a failed save puts its own back first",
          arguments: [(200, 1), (400, 2)])
    func changedDuringSave(status: Int, pendingAmount: Int) async throws {
        let gate = GatedTransport(status: status)
        let application = try LCApplication(
            id: "id", key: "key", serverURL: "https://api.example.com", configuration: .init(transport: gate, currentUserStorage: .none)
        )
        let post = LCObject(application: application, className: "Post", objectId: "p1")
        try post.increase("likes")
        async let saved: Void = post.save()
        await gate.waitForRequest()
        try post.increase("likes")
        gate.open()
        _ = try? await saved
        #expect(post.pendingOperations()["likes"]?.json == ["__op": "Increment", "amount": .int(Int64(pendingAmount))])
        #expect(post.get("likes")?.intValue == 2)
    }
}

extension ObjectRequestTests {
    @Test("a batch item that fails keeps its object's changes pending; the saved ones are done")
    func batchItemFailure() async throws {
        let transport = RecordingTransport(json: [
            #"[{"success":{"updatedAt":"2026-01-02T00:00:00.000Z"}},{"error":{"code":137,"error":"A unique field was given a value that is already taken."}}]"#,
        ])
        let application = try makeApplication(transport)
        let first = LCObject(application: application, className: "T", objectId: "a")
        let second = LCObject(application: application, className: "T", objectId: "b")
        try first.set("name", value: "x")
        try second.set("name", value: "x")
        let error = try await #require(throws: LCError.self) { try await LCObject.save([first, second]) }
        #expect(error.code == 137)
        #expect(!first.hasDataToUpload)
        #expect(second.hasDataToUpload)
    }
}

/// A transport that holds its first request until ``open()``, then answers with `status`.
final class GatedTransport: Transport, @unchecked Sendable {
    private let status: Int
    private let lock = NSLock()
    private var arrived: CheckedContinuation<Void, Never>?
    private var hasArrived = false
    private var release: CheckedContinuation<Void, Never>?
    private var isOpen = false

    init(status: Int) {
        self.status = status
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        await withCheckedContinuation { continuation in
            let waiter = lock.withLock { () -> CheckedContinuation<Void, Never>? in
                hasArrived = true
                if isOpen { continuation.resume() } else { release = continuation }
                defer { arrived = nil }
                return arrived
            }
            waiter?.resume()
        }
        if status >= 400 { return TransportResponse(status: status, body: Data(#"{"code":1,"error":"refused"}"#.utf8)) }
        return TransportResponse(status: status, body: Data(#"{"updatedAt":"2026-01-02T00:00:00.000Z"}"#.utf8))
    }

    /// Returns once a request has arrived.
    func waitForRequest() async {
        await withCheckedContinuation { continuation in
            let ready = lock.withLock { () -> Bool in
                if hasArrived { return true }
                arrived = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Lets the held request (and any later one) through.
    func open() {
        let held = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            isOpen = true
            defer { release = nil }
            return release
        }
        held?.resume()
    }
}
