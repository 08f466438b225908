import CirrusModel
import CirrusServices
import CirrusStorage
import CirrusTesting
import Logging
import Synchronization
import Testing

/// `include` on finds in every dialect: comma lists, dot paths, several levels, arrays of pointers, Bmob's
/// field picking, and the cost of one store round trip per level.
@Suite("Include on finds")
struct IncludeTests {
    static func pointer(_ className: String, _ id: String) -> JSON {
        ["__type": "Pointer", "className": .string(className), "objectId": .string(id)]
    }

    /// A Post with an author (whose department is set), an editor, a category and two tags.
    struct Fixture {
        let post: String
        let author: String
        let department: String
    }

    static func seed(_ client: TestClient) async throws -> Fixture {
        let department = try await client.create(.leancloud, "Department", ["title": "R&D"])
        let author = try await client.create(.leancloud, "Person", ["name": "ann", "department": pointer("Department", department)])
        let editor = try await client.create(.leancloud, "Person", ["name": "bob"])
        let category = try await client.create(.leancloud, "Category", ["label": "news"])
        let first = try await client.create(.leancloud, "Tag", ["word": "swift"])
        let second = try await client.create(.leancloud, "Tag", ["word": "sql"])
        let post = try await client.create(.leancloud, "Post", [
            "title": "hello", "content": "world", "words": 2,
            "author": pointer("Person", author), "editor": pointer("Person", editor), "category": pointer("Category", category),
            "tags": [pointer("Tag", first), pointer("Tag", second)],
        ])
        _ = try await client.create(.leancloud, "Comment", ["text": "nice", "post": pointer("Post", post)])
        return Fixture(post: post, author: author, department: department)
    }

    static func first(_ client: TestClient, _ endpoint: Endpoint, _ className: String, _ query: String) async throws -> JSON {
        let reply = try await client.request(endpoint, .get, "/classes/\(className)?" + query)
        #expect(reply.status == 200, "\(reply.bodyText)")
        return try #require(reply.json["results"]?[0])
    }

    /// LeanCloud keeps `__type: "Pointer"` on included objects; Parse and Bmob write `Object`.
    static func includedType(_ endpoint: Endpoint) -> JSON {
        endpoint.dialect == .leancloud ? "Pointer" : "Object"
    }

    @Test("a comma list includes several pointer fields of different classes", arguments: Endpoint.all)
    func commaList(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            _ = try await Self.seed(client)
            let post = try await Self.first(client, endpoint, "Post", "include=author,editor,%20category")
            #expect(post["author"]?["name"] == "ann")
            #expect(post["author"]?["__type"] == Self.includedType(endpoint))
            #expect(post["author"]?["className"] == "Person")
            #expect(post["editor"]?["name"] == "bob")
            #expect(post["category"]?["label"] == "news")
            #expect(post["author"]?["department"]?["__type"] == "Pointer")
            #expect(post["author"]?["department"]?["title"] == nil)
            #expect(post["tags"]?[0]?["word"] == nil)
        }
    }

    @Test("dot paths include several levels, and the parent on the way", arguments: Endpoint.all)
    func levels(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            _ = try await Self.seed(client)
            let comment = try await Self.first(client, endpoint, "Comment", "include=post.author.department,post.category")
            #expect(comment["post"]?["title"] == "hello")
            #expect(comment["post"]?["__type"] == Self.includedType(endpoint))
            #expect(comment["post"]?["author"]?["name"] == "ann")
            #expect(comment["post"]?["author"]?["department"]?["title"] == "R&D")
            #expect(comment["post"]?["author"]?["department"]?["__type"] == Self.includedType(endpoint))
            #expect(comment["post"]?["category"]?["label"] == "news")
            #expect(comment["post"]?["editor"]?["name"] == nil)
        }
    }

    @Test("an array of pointers is included element by element", arguments: Endpoint.all)
    func arrays(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            _ = try await Self.seed(client)
            let post = try await Self.first(client, endpoint, "Post", "include=tags")
            let tags = try #require(post["tags"]?.arrayValue)
            #expect(tags.map { $0["word"] } == ["swift", "sql"])
            #expect(tags.map { $0["__type"] } == [Self.includedType(endpoint), Self.includedType(endpoint)])
        }
    }

    @Test("included objects carry createdAt and updatedAt in the dialect's date format", arguments: Endpoint.all)
    func dates(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            _ = try await Self.seed(client)
            let post = try await Self.first(client, endpoint, "Post", "include=author")
            #expect(WireFormat.matches(post["author"]?["createdAt"]?.stringValue, WireFormat.date(endpoint.dialect)))
            #expect(WireFormat.matches(post["author"]?["updatedAt"]?.stringValue, WireFormat.date(endpoint.dialect)))
        }
    }

    /// Bmob's `include=post[title|content]`: the included object keeps the picked fields and its built-in keys.
    @Test("include=post[title|content] keeps only those fields of the included object", arguments: Endpoint.all)
    func picking(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            _ = try await Self.seed(client)
            let comment = try await Self.first(client, endpoint, "Comment", "include=" + URLQuery.encode("post[title|content]"))
            let post = try #require(comment["post"]?.objectValue)
            #expect(post.keys.sorted() == ["__type", "className", "content", "createdAt", "objectId", "title", "updatedAt"])
            #expect(comment["text"] == "nice")
            let nested = try await Self.first(client, endpoint, "Comment", "include=" + URLQuery.encode("post,post.author[name]"))
            #expect(nested["post"]?["title"] == "hello")
            #expect(nested["post"]?["author"]?.objectValue?.keys.sorted() == ["__type", "className", "createdAt", "name", "objectId", "updatedAt"])
        }
    }

    @Test("keys with dot paths select fields of included objects", arguments: Endpoint.all)
    func keysOfIncluded(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            _ = try await Self.seed(client)
            let post = try await Self.first(client, endpoint, "Post", "include=author&keys=title,author.name")
            #expect(post["title"] == "hello")
            #expect(post["content"] == nil)
            #expect(post["author"]?["name"] == "ann")
            #expect(post["author"]?["department"] == nil)
        }
    }

    @Test("include on a fetch by id and in a batch GET", arguments: Endpoint.all)
    func fetchAndBatch(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let fixture = try await Self.seed(client)
            let fetched = try await client.fetch(endpoint, "Post", fixture.post, query: "include=author.department")
            #expect(fetched.json["author"]?["department"]?["title"] == "R&D")
            let item: JSON = ["method": "GET", "path": .string("\(endpoint.prefix)/classes/Post"), "params": ["include": "author,category"]]
            let batch = try await client.request(endpoint, .post, "/batch", json: ["requests": [item]])
            #expect(batch.json[0]?["success"]?["results"]?[0]?["category"]?["label"] == "news")
        }
    }

    // MARK: - Round trips

    @Test("an include of N pointer fields costs one store fetch per level, not one per pointer")
    func oneRoundTripPerLevel() async throws {
        try await TestServer.with { client in
            _ = try await Self.seed(client)
            for index in 0..<5 {
                _ = try await client.create(.leancloud, "Comment", ["text": .string("c\(index)"), "post": try await Self.postPointer(client)])
            }
            let store = CountingStore(client.store)
            let service = ObjectService(store: store, schemas: SchemaCache(store: store), configuration: ServiceConfiguration(), logger: Logger(label: "test"))
            func include(_ className: String, _ paths: [String]) async throws -> [StoredObject] {
                let query = Query(className: className, include: try paths.map { try FieldPath(parsing: $0) })
                store.reset()
                return try await service.find(query, withCount: false, caller: .anonymous).objects
            }

            let posts = try await include("Post", ["author", "editor", "category", "tags"])
            #expect(store.pointerFetches == 1)
            #expect(store.fetchesById == 0)
            #expect(posts.first?.fields["tags"]?[1]?["word"] == "sql")
            #expect(posts.first?.fields["category"]?["label"] == "news")

            let comments = try await include("Comment", ["post.author.department", "post.editor", "post.category", "post.tags"])
            #expect(comments.count == 6)
            #expect(store.pointerFetches == 3)
            #expect(comments.allSatisfy { $0.fields["post"]?["author"]?["department"]?["title"] == "R&D" })

            _ = try await include("Comment", [])
            #expect(store.pointerFetches == 0)
        }
    }

    static func postPointer(_ client: TestClient) async throws -> JSON {
        let reply = try await client.request(.leancloud, .get, "/classes/Post?keys=objectId")
        return pointer("Post", try #require(reply.json["results"]?[0]?["objectId"]?.stringValue))
    }
}

/// The real store, counting the fetches that go through it.
final class CountingStore: StorageAdapter {
    private let base: any StorageAdapter
    private let counts = Mutex((pointers: 0, byId: 0))

    init(_ base: any StorageAdapter) {
        self.base = base
    }

    var changeLog: ChangeLog { base.changeLog }

    func queryPlan(for query: StorageQuery) async throws -> [String] {
        try await base.queryPlan(for: query)
    }

    func append(_ records: [ChangeRecord]) async throws {
        try await base.append(records)
    }

    func saveLiveSubscription(_ subscription: StoredLiveSubscription, now: Timestamp) async throws {
        try await base.saveLiveSubscription(subscription, now: now)
    }

    func deleteLiveSubscription(queryId: String, clientId: String) async throws -> Bool {
        try await base.deleteLiveSubscription(queryId: queryId, clientId: clientId)
    }

    func liveSubscriptions(clientId: String, now: Timestamp) async throws -> [StoredLiveSubscription] {
        try await base.liveSubscriptions(clientId: clientId, now: now)
    }

    func renewLiveSubscription(queryId: String, clientId: String, until expiresAt: Timestamp) async throws -> Bool {
        try await base.renewLiveSubscription(queryId: queryId, clientId: clientId, until: expiresAt)
    }

    var pointerFetches: Int { counts.withLock { $0.pointers } }
    var fetchesById: Int { counts.withLock { $0.byId } }
    func reset() { counts.withLock { $0 = (0, 0) } }

    func fetch(_ pointers: [Pointer], readers: [String]?) async throws -> [StoredObject] {
        counts.withLock { $0.pointers += 1 }
        return try await base.fetch(pointers, readers: readers)
    }

    func fetch(className: String, ids: [String]) async throws -> [StoredObject] {
        counts.withLock { $0.byId += 1 }
        return try await base.fetch(className: className, ids: ids)
    }

    func claimHookCalls(now: Timestamp, leaseUntil: Timestamp, limit: Int) async throws -> [QueuedHookCall] {
        try await base.claimHookCalls(now: now, leaseUntil: leaseUntil, limit: limit)
    }
    func finishHookCall(id: Int64) async throws { try await base.finishHookCall(id: id) }
    func retryHookCall(id: Int64, attempts: Int, dueAt: Timestamp) async throws {
        try await base.retryHookCall(id: id, attempts: attempts, dueAt: dueAt)
    }
    func registrations(kind: CloudRegistration.Kind) async throws -> [CloudRegistration] { try await base.registrations(kind: kind) }
    func addRegistration(_ registration: CloudRegistration) async throws -> Bool { try await base.addRegistration(registration) }
    func replaceRegistration(_ registration: CloudRegistration) async throws -> Bool { try await base.replaceRegistration(registration) }
    func deleteRegistration(kind: CloudRegistration.Kind, name: String) async throws -> Bool { try await base.deleteRegistration(kind: kind, name: name) }
    func startJobRun(name: String, claiming: (due: Timestamp, next: Timestamp?)?, scheduledAt: Timestamp, startedAt: Timestamp) async throws -> Int64? {
        try await base.startJobRun(name: name, claiming: claiming, scheduledAt: scheduledAt, startedAt: startedAt)
    }
    func finishJobRun(id: Int64, succeeded: Bool, detail: String, finishedAt: Timestamp) async throws {
        try await base.finishJobRun(id: id, succeeded: succeeded, detail: detail, finishedAt: finishedAt)
    }
    func jobRuns(name: String, limit: Int) async throws -> [JobRun] { try await base.jobRuns(name: name, limit: limit) }
    func addPush(_ push: StoredPush, dedupeSince: Timestamp) async throws -> (push: StoredPush, added: Bool) { try await base.addPush(push, dedupeSince: dedupeSince) }
    func claimPush(now: Timestamp, leaseUntil: Timestamp) async throws -> StoredPush? { try await base.claimPush(now: now, leaseUntil: leaseUntil) }
    func recordPushPage(objectId: String, cursor: String, sent: Int, failed: Int, invalid: Int, leaseUntil: Timestamp) async throws {
        try await base.recordPushPage(objectId: objectId, cursor: cursor, sent: sent, failed: failed, invalid: invalid, leaseUntil: leaseUntil)
    }
    func finishPush(objectId: String, status: StoredPush.Status, at time: Timestamp) async throws { try await base.finishPush(objectId: objectId, status: status, at: time) }
    func push(objectId: String) async throws -> StoredPush? { try await base.push(objectId: objectId) }
    func pushes(statuses: [StoredPush.Status], limit: Int) async throws -> [StoredPush] { try await base.pushes(statuses: statuses, limit: limit) }
    func cancelPush(serial: Int64, at time: Timestamp) async throws -> Bool { try await base.cancelPush(serial: serial, at: time) }
    func deliver(statusId: String, to owners: [InboxOwner], type: String) async throws { try await base.deliver(statusId: statusId, to: owners, type: type) }
    func inbox(_ inbox: InboxKey, sinceId: Int64, maxId: Int64, limit: Int) async throws -> [InboxEntry] {
        try await base.inbox(inbox, sinceId: sinceId, maxId: maxId, limit: limit)
    }
    func inboxCount(_ inbox: InboxKey) async throws -> (total: Int, unread: Int) { try await base.inboxCount(inbox) }
    func markInboxRead(_ inbox: InboxKey) async throws { try await base.markInboxRead(inbox) }
    func removeInboxEntry(_ inbox: InboxKey, messageId: Int64) async throws -> Bool { try await base.removeInboxEntry(inbox, messageId: messageId) }
    func search(_ search: StorageSearch) async throws -> (hits: Int, objects: [StoredObject]) { try await base.search(search) }
    func rebuildSearchIndex(className: String, fields: [String]?) async throws -> Int {
        try await base.rebuildSearchIndex(className: className, fields: fields)
    }
    func prepare() async throws { try await base.prepare() }
    func loadSchemas() async throws -> [ClassSchema] { try await base.loadSchemas() }
    func loadSchema(of className: String) async throws -> ClassSchema? { try await base.loadSchema(of: className) }
    func perform(_ commands: [WriteCommand], atomically: Bool) async throws -> [Result<WriteResult, StorageError>] {
        try await base.perform(commands, atomically: atomically)
    }
    func aggregate(_ request: StorageAggregation) async throws -> [JSON] { try await base.aggregate(request) }
    func find(_ query: StorageQuery) async throws -> [StoredObject] { try await base.find(query) }
    func count(_ query: StorageQuery) async throws -> Int { try await base.count(query) }
    func ensureIndex(className: String, path: FieldPath) async throws { try await base.ensureIndex(className: className, path: path) }
    func relationTargets(className: String, objectId: String, field: String) async throws -> [Pointer] {
        try await base.relationTargets(className: className, objectId: objectId, field: field)
    }
    func passwords(userIds: [String]) async throws -> [String: String] { try await base.passwords(userIds: userIds) }
    func sessions(userIds: [String]) async throws -> [StoredSession] { try await base.sessions(userIds: userIds) }
    func relationMembers(ownerClass: String, field: String, after: RelationMember?, limit: Int) async throws -> [RelationMember] {
        try await base.relationMembers(ownerClass: ownerClass, field: field, after: after, limit: limit)
    }
    func account(userId: String) async throws -> StoredAccount? { try await base.account(userId: userId) }
    func session(token: String) async throws -> StoredSession? { try await base.session(token: token) }
    func sessions(userId: String) async throws -> [StoredSession] { try await base.sessions(userId: userId) }
    func roleNames(userId: String) async throws -> [String] { try await base.roleNames(userId: userId) }
    func code(purpose: String, target: String) async throws -> StoredCode? { try await base.code(purpose: purpose, target: target) }
    func codes(purpose: String, code: String) async throws -> [StoredCode] { try await base.codes(purpose: purpose, code: code) }
    func sendCount(target: String, since: Timestamp) async throws -> Int { try await base.sendCount(target: target, since: since) }
    func linkedUser(platform: String, uid: String) async throws -> StoredObject? { try await base.linkedUser(platform: platform, uid: uid) }
    func user(email: String) async throws -> StoredObject? { try await base.user(email: email) }
    func caseDuplicateEmails(limit: Int) async throws -> [String] { try await base.caseDuplicateEmails(limit: limit) }
    func defineClass(_ className: String, newFields: [String: FieldType], options: ClassOptions?) async throws -> ClassSchema {
        try await base.defineClass(className, newFields: newFields, options: options)
    }
    func deleteFields(className: String, fields: [String]) async throws { try await base.deleteFields(className: className, fields: fields) }
    func deleteClass(className: String) async throws { try await base.deleteClass(className: className) }
    func dropIndex(className: String, path: FieldPath) async throws { try await base.dropIndex(className: className, path: path) }
    func close() async throws {}
}
