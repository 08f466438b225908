import CirrusTesting
import Testing

@Suite("A user who signed up logs in with the right password and is refused with a wrong one")
struct SignUpLogInTests {
    /// A log-in after signing up `ann` with the password `right-password`, and the reason it fails with (`nil`: it succeeds).
    static let logIns: [(name: LogInName, password: String, failure: APIError.Reason?)] = [
        (.username("ann"), "right-password", nil),
        (.email("ANN@example.io"), "right-password", nil),
        (.username("ann"), "wrong-password", .loginMismatch),
        (.username("Ann"), "right-password", .userNotFound),
        (.username("bob"), "right-password", .userNotFound),
        (.username("ann"), "", .passwordMissing),
    ]

    @Test("the log-in gives the user's session, or fails with its reason", arguments: logIns)
    func logIn(name: LogInName, password: String, failure: APIError.Reason?) async throws {
        let app = try await InMemoryServices.make()
        let signedUp = try await app.users.signUp(
            body: ["username": "ann", "password": "right-password", "email": "ann@example.io"], options: WriteOptions(),
            session: SessionRequest(kind: .stable), caller: .anonymous
        )
        #expect(signedUp.user.fields["password"] == nil, "the password is never part of the user object")
        do {
            let loggedIn = try await app.users.logIn(name, password: password, session: SessionRequest(kind: .stable))
            #expect(failure == nil, "\(name) with \(password) logged in")
            #expect(loggedIn.user.objectId == signedUp.user.objectId)
            #expect(loggedIn.sessionToken == signedUp.sessionToken, "a stable session is the user's one token")
            let caller = try await app.users.caller(sessionToken: loggedIn.sessionToken, base: .anonymous)
            #expect(caller.userId == signedUp.user.objectId, "the session stands for the user")
        } catch let error as APIError {
            #expect(error.reason == failure, "\(name) with \(password): \(error)")
        }
    }

    @Test("a second sign-up with a taken username or e-mail address is refused and stores no user")
    func takenNames() async throws {
        let app = try await InMemoryServices.make()
        let session = SessionRequest(kind: .stable)
        _ = try await app.users.signUp(
            body: ["username": "ann", "password": "p", "email": "ann@example.io"], options: WriteOptions(), session: session, caller: .anonymous
        )
        let taken: [(JSON, APIError.Reason)] = [
            (["username": "ann", "password": "q"], .usernameTaken),
            (["username": "other", "password": "q", "email": "Ann@Example.io"], .emailTaken),
        ]
        for (body, reason) in taken {
            await #expect(throws: APIError.self) {
                do {
                    _ = try await app.users.signUp(body: body, options: WriteOptions(), session: session, caller: .anonymous)
                } catch let error as APIError {
                    #expect(error.reason == reason, "\(body)")
                    throw error
                }
            }
        }
        let users = try await app.store.find(StorageQuery(className: "_User", schema: nil, condition: .always))
        #expect(users.map { $0.fields["username"] } == ["ann"], "the users after the refused sign-ups")
    }
}

@Suite("An include does not reveal an object the caller may not read")
struct IncludeVisibilityTests {
    /// A caller and whether it may read the author (whose ACL lets its owner alone read it).
    static let callers: [(name: String, caller: Caller, readsAuthor: Bool)] = [
        ("the author's owner", Caller(isMaster: false, userId: "owner"), true),
        ("the master key", .master, true),
        ("another user", Caller(isMaster: false, userId: "stranger"), false),
        ("a client without a session", .anonymous, false),
    ]

    @Test("the included author is expanded only for callers its ACL lets read it", arguments: callers)
    func include(name: String, caller: Caller, readsAuthor: Bool) async throws {
        let app = try await InMemoryServices.make()
        let author = try await app.objects.create(
            "Author", body: ["name": "hidden name", "ACL": ["owner": ["read": true, "write": true]]], options: WriteOptions(), caller: .master
        )
        let pointer: JSON = ["__type": "Pointer", "className": "Author", "objectId": .string(author.objectId)]
        let post = try await app.objects.create("Post", body: ["title": "open", "author": pointer], options: WriteOptions(), caller: .master)

        let found = try await app.objects.find(Query(className: "Post", include: [FieldPath(field: "author")]), withCount: false, caller: caller)
        #expect(found.objects.count == 1, "the public post is found by \(name)")
        let included = found.objects.first?.fields["author"]
        #expect((included?["name"] == "hidden name") == readsAuthor, "the author's name in a find by \(name): \(String(describing: included))")
        #expect(included?["objectId"] == .string(author.objectId), "the pointer stays for \(name)")

        let fetched = try await app.objects.get("Post", objectId: post.objectId, include: [FieldPath(field: "author")], caller: caller)
        #expect((fetched?.fields["author"]?["name"] == "hidden name") == readsAuthor, "the author's name in a get by \(name)")
    }
}
