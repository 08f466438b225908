import CirrusTesting
import Testing

/// Object-level permissions as the services apply them over the in-memory store: no HTTP, no database.
@Suite("An ACL hides an object from find, get and count for callers it does not name, but not from its owner or the master key")
struct ACLVisibilityTests {
    /// A caller and whether the ACL `{"owner": read+write, "role:Editors": read}` lets it read the note.
    static let callers: [(name: String, caller: Caller, sees: Bool)] = [
        ("its owner", Caller(isMaster: false, userId: "owner"), true),
        ("the master key", .master, true),
        ("a member of a role the ACL names", Caller(isMaster: false, userId: "editor", roleNames: ["Editors"]), true),
        ("another user", Caller(isMaster: false, userId: "stranger"), false),
        ("a client without a session", .anonymous, false),
        ("a member of another role", Caller(isMaster: false, userId: "other", roleNames: ["Readers"]), false),
    ]

    @Test("the note is found, fetched and counted only by the callers the ACL grants read", arguments: callers)
    func visibility(name: String, caller: Caller, sees: Bool) async throws {
        let app = try await InMemoryServices.make()
        let acl: JSON = ["owner": ["read": true, "write": true], "role:Editors": ["read": true]]
        let note = try await app.objects.create("Note", body: ["text": "secret", "ACL": acl], options: WriteOptions(), caller: .master)
        _ = try await app.objects.create("Note", body: ["text": "public"], options: WriteOptions(), caller: .master)

        let (found, count) = try await app.objects.find(Query(className: "Note"), withCount: true, caller: caller)
        #expect(found.contains { $0.objectId == note.objectId } == sees, "find by \(name)")
        #expect(count == (sees ? 2 : 1), "count by \(name)")
        let fetched = try await app.objects.get("Note", objectId: note.objectId, include: [], caller: caller)
        #expect((fetched?.fields["text"] == "secret") == sees, "get by \(name)")
        let filtered = Query(className: "Note", condition: .compare(FieldPath(field: "text"), .equal, .string("secret")))
        #expect(try await app.objects.find(filtered, withCount: false, caller: caller).objects.count == (sees ? 1 : 0), "a query naming its value, by \(name)")
    }
}

@Suite("Class permissions refuse a create or a find to a caller without the role they name")
struct ClassPermissionTests {
    /// A caller and whether the `Report` class's permissions (create and find for the role `Editors`) let it in.
    static let callers: [(name: String, caller: Caller, allowed: Bool)] = [
        ("a member of the role", Caller(isMaster: false, userId: "editor", roleNames: ["Editors"]), true),
        ("the master key", .master, true),
        ("a user without the role", Caller(isMaster: false, userId: "writer", roleNames: ["Writers"]), false),
        ("a client without a session", .anonymous, false),
    ]

    static func makeApp() async throws -> InMemoryServices {
        let app = try await InMemoryServices.make()
        let rules: JSON = ["classLevelPermissions": ["create": ["role:Editors": true], "find": ["role:Editors": true], "get": ["role:Editors": true]]]
        _ = try await app.schema.create("Report", change: try SchemaChange(body: rules), caller: .master)
        _ = try await app.objects.create("Report", body: ["title": "first"], options: WriteOptions(), caller: .master)
        return app
    }

    @Test("a create succeeds only for callers the create rule names, and a refused one stores nothing", arguments: callers)
    func create(name: String, caller: Caller, allowed: Bool) async throws {
        let app = try await Self.makeApp()
        let attempt = await Result { try await app.objects.create("Report", body: ["title": "second"], options: WriteOptions(), caller: caller) }
        if allowed {
            #expect(throws: Never.self, "a create by \(name)") { try attempt.get() }
        } else {
            #expect(Self.reason(of: attempt) == .classPermissionDenied, "a create by \(name)")
        }
        let stored = try await app.objects.find(Query(className: "Report"), withCount: true, caller: .master).count
        #expect(stored == (allowed ? 2 : 1), "the reports after a create by \(name)")
    }

    @Test("a find succeeds only for callers the find rule names", arguments: callers)
    func find(name: String, caller: Caller, allowed: Bool) async throws {
        let app = try await Self.makeApp()
        let attempt = await Result { try await app.objects.find(Query(className: "Report"), withCount: false, caller: caller) }
        if allowed {
            #expect(try attempt.get().objects.map { $0.fields["title"] } == ["first"], "a find by \(name)")
        } else {
            #expect(Self.reason(of: attempt) == .classPermissionDenied, "a find by \(name)")
        }
    }

    static func reason<T>(of result: Result<T, any Error>) -> APIError.Reason? {
        guard case .failure(let error) = result else { return nil }
        return (error as? APIError)?.reason
    }
}

extension Result where Failure == any Error {
    /// The outcome of an asynchronous call.
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
