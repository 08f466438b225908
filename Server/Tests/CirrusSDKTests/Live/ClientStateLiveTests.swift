@testable import Cirrus
import CirrusModel
import CirrusServer
import CirrusTesting
import Foundation
import Testing

/// A subclass whose fields are plain Swift types (seed 001 L1936–2046).
final class Gadget: LCObject, @unchecked Sendable {
    @LCField("name") var name: String?
    @LCField("stock") var stock: Int?
    @LCField("price") var price: Double?
    @LCField("onSale") var onSale: Bool?
    @LCField("releasedAt") var releasedAt: Date?
    @LCField("tags") var tags: [String]?
    @LCField("sizes") var sizes: [String: Int]?
    @LCField("maker") var maker: Maker?

    override class func objectClassName() -> String { "Gadget" }
}

/// The client state the seeds show beyond seed 000: user state, default ACLs, fetches, dictionaries, typed queries,
/// plain-typed subclasses, the server's clock and schemas.
@Suite("Client state on a live server")
struct ClientStateLiveTests {
    /// Lets clients find users (closed by default on a Cirrus server).
    static func openUsers(_ server: LiveTestServer) async throws {
        let (status, body) = try await server.master("PUT", "/1.1/schemas/_User", body: #"{"classLevelPermissions":{"find":{"*":true}}}"#)
        #expect(status == 200, "\(body)")
    }

    static func signUp(_ application: LCApplication, _ name: String) async throws -> LCUser {
        let user = LCUser(application: application)
        user.username = LCString(name)
        user.password = LCString("pw-\(name)")
        try await user.signUp()
        return user
    }

    @Test("a default ACL goes to new objects, with the current user's access when asked, and stops others")
    func defaultACL() async throws {
        try await withLiveApp { application, _ in
            let owner = try await Self.signUp(application, "owner")
            let acl = LCACL()
            acl.setAccess(.read, allowed: true)
            LCACL.setDefault(acl, withAccessForCurrentUser: true, application: application)
            let note = LCObject(application: application, className: "Note")
            try note.set("text", value: "mine")
            try await note.save()
            let saved = try #require(note.ACL)
            #expect(saved.getAccess(.read) && !saved.getAccess(.write))
            #expect(saved.getAccess([.read, .write], forUserID: owner.objectId?.value))
            let explicit = LCObject(application: application, className: "Note")
            explicit.ACL = LCACL()
            try await explicit.save()
            #expect(explicit.ACL?.value.isEmpty == true, "an ACL of the object's own is kept")

            _ = try await Self.signUp(application, "other")
            let foreign = LCObject(application: application, className: "Note", objectId: try #require(note.objectId))
            try foreign.set("text", value: "defaced")
            await #expect(throws: LCError.self) { try await foreign.save() }
            LCACL.setDefault(LCACL(), withAccessForCurrentUser: false, application: application)
            let locked = LCObject(application: application, className: "Note")
            try await locked.save()
            #expect(locked.ACL?.value.isEmpty == true)
            LCACL.setDefault(nil, withAccessForCurrentUser: false, application: application)
            let open = LCObject(application: application, className: "Note")
            try await open.save()
            #expect(open.ACL == nil)
        }
    }

    @Test("fetch with keys includes pointer keys as objects and overwrites unsaved changes of those keys; fetchIfNeeded reads once")
    func fetching() async throws {
        try await withLiveApp { application, _ in
            let folder = LCObject(application: application, className: "TodoFolder")
            try folder.set("name", value: "Work")
            let todo = LCObject(application: application, className: "Todo")
            try todo.set("todoFolder", value: folder)
            try todo.set("title", value: "saved")
            try todo.set("priority", value: 1)
            try await todo.save()

            let again = LCObject(application: application, className: "Todo", objectId: try #require(todo.objectId))
            #expect(!again.isDataAvailable)
            try again.set("title", value: "local")
            try again.set("priority", value: 9)
            try await again.fetch(keys: ["todoFolder", "title"])
            let fetchedFolder = try #require(again.get("todoFolder") as? LCObject)
            #expect(fetchedFolder.get("name")?.stringValue == "Work" && fetchedFolder.isDataAvailable, "the pointer came back as the object")
            #expect(again.get("title")?.stringValue == "saved", "the fetched key's local change is gone")
            #expect(again.get("priority")?.intValue == 9, "a key not fetched keeps its change")
            try await again.fetch()
            #expect(again.get("priority")?.intValue == 1 && !again.hasDataToUpload, "a whole fetch drops every local change")

            let lazy = LCObject(application: application, className: "Todo", objectId: try #require(todo.objectId))
            try await lazy.fetchIfNeeded()
            #expect(lazy.isDataAvailable && lazy.get("title")?.stringValue == "saved")
            let found = try await LCQuery(application: application, className: "Todo").find()
            #expect(found.first?.isDataAvailable == true)
            #expect((found.first?.get("todoFolder") as? LCObject)?.isDataAvailable == false, "a pointer not included has no data")
        }
    }

    @Test("objects turn into dictionaries and back; a dictionary without objectId saves as a new object")
    func dictionaries() async throws {
        try await withLiveApp { application, _ in
            let owner = try await Self.signUp(application, "tom")
            let todo = LCObject(application: application, className: "Todo")
            try todo.set("title", value: "马拉松报名")
            try todo.set("priority", value: 2)
            try todo.set("owner", value: owner)
            try todo.set("due", value: LCDate(Date(timeIntervalSince1970: 1_800_000_000)))
            let dictionary = todo.dictionaryForObject()
            #expect(dictionary["className"] as? String == "Todo" && dictionary["title"] as? String == "马拉松报名")
            #expect((dictionary["owner"] as? [String: Any])?["objectId"] as? String == owner.objectId?.value)
            let data = try JSONSerialization.data(withJSONObject: dictionary)
            let copy = try LCObject.object(dictionary: try #require(JSONSerialization.jsonObject(with: data) as? [String: Any]), application: application)
            try await copy.save()
            let saved = try await LCQuery(application: application, className: "Todo").get(copy.objectId)
            #expect(saved.get("title")?.stringValue == "马拉松报名" && saved.get("priority")?.intValue == 2)
            #expect((saved.get("owner") as? LCUser)?.objectId == owner.objectId)
            #expect(saved.get("due")?.dateValue == Date(timeIntervalSince1970: 1_800_000_000))
            let restored = try LCObject.object(dictionary: saved.dictionaryForObject(), application: application)
            #expect(restored.objectId == saved.objectId && !restored.hasDataToUpload, "with an objectId it is the stored object")
            #expect(throws: LCError.self) { try LCObject.object(dictionary: ["title": "no class"], application: application) }
        }
    }

    @Test("geo points outside the globe are refused before any request")
    func geoPointRange() throws {
        let place = LCObject(className: "Place")
        for point in [LCGeoPoint(latitude: 91, longitude: 0), LCGeoPoint(latitude: 0, longitude: -180.5)] {
            #expect(!point.isValid)
            #expect(throws: LCError.self) { try place.set("location", value: point) }
        }
        try place.set("location", value: LCGeoPoint(latitude: -90, longitude: 180))
    }

    @Test("typed queries come from a class: LCUser.query() finds users, a subclass's query() its instances")
    func typedQueries() async throws {
        Gadget.register()
        try await withLiveApp { application, server in
            _ = try await Self.signUp(application, "tom")
            try await Self.openUsers(server)
            let users = try await LCUser.query(application: application).find()
            #expect(users.count == 1 && users.first is LCUser)
            let gadget = Gadget(application: application)
            gadget.name = "Phone"
            try await gadget.save()
            let query = Gadget.query(application: application)
            #expect(query.className == "Gadget")
            #expect(try await query.find().first is Gadget)
        }
    }

    @Test("@LCField holds plain Swift types: Int, Double, Bool, String, Date, arrays and dictionaries, saved and read back")
    func plainFields() async throws {
        Gadget.register()
        Maker.register()
        try await withLiveApp { application, _ in
            let maker = Maker(application: application)
            maker.title = "ACME"
            let gadget = Gadget(application: application)
            gadget.name = "Phone"
            gadget.stock = 12
            gadget.price = 99.5
            gadget.onSale = true
            gadget.releasedAt = Date(timeIntervalSince1970: 1_700_000_000)
            gadget.tags = ["new", "5G"]
            gadget.sizes = ["small": 1, "large": 3]
            gadget.maker = maker
            try await gadget.save()
            let query = Gadget.query(application: application)
            query.whereKey("stock", .greaterThan(10))
            query.whereKey("maker", .included)
            let found = try #require(try await query.getFirst() as? Gadget)
            #expect(found.name == "Phone" && found.stock == 12 && found.price == 99.5 && found.onSale == true)
            #expect(found.releasedAt == Date(timeIntervalSince1970: 1_700_000_000))
            #expect(found.tags == ["new", "5G"] && found.sizes == ["small": 1, "large": 3])
            #expect(found.maker?.title?.value == "ACME")
            try found.set("stock", value: 2.5)
            #expect(found.stock == nil && found.price == 99.5, "a value of another type reads as nil")
            found.tags = nil
            try await found.save()
            try await found.fetch()
            #expect(found.tags == nil && found.get("tags") == nil)
        }
    }

    @Test("the server's clock, in the three call forms")
    func serverDate() async throws {
        try await withLiveApp { application, _ in
            let date = try await application.serverDate()
            #expect(abs(date.timeIntervalSinceNow) < 60)
            let called: LCValueResult<LCDate> = await withCheckedContinuation { continuation in
                application.serverDate(completionQueue: .global()) { continuation.resume(returning: $0) }
            }
            #expect(called.object.map { abs($0.value.timeIntervalSinceNow) < 60 } == true)
            let blocked = await onThread { application.serverDate() as LCValueResult<LCDate> }
            #expect(blocked.isSuccess)
        }
    }

    @Test("isAuthenticated: a signed-up user is, one read by a query is not; the server tells a working token from a stale one")
    func authentication() async throws {
        try await withLiveApp { application, server in
            let user = try await Self.signUp(application, "tom")
            try await Self.openUsers(server)
            #expect(user.isAuthenticated && user.isNew)
            #expect(try await user.isAuthenticated())
            let old = try #require(user.sessionToken?.value)
            let read = try #require(try await LCUser.query(application: application).getFirst() as? LCUser)
            #expect(!read.isAuthenticated)
            #expect(try await !read.isAuthenticated(sessionToken: "not-a-token"))
            try await user.refreshSessionToken()
            #expect(try await !user.isAuthenticated(sessionToken: old), "a replaced token no longer works")
            #expect(try await user.isAuthenticated())
            let loggedIn = try await LCUser.logIn(application: application, username: "tom", password: "pw-tom")
            #expect(!loggedIn.isNew)
        }
    }

    @Test("a third-party log-in says whether it created the user; UnionID options join accounts of one UnionID")
    func thirdParty() async throws {
        try await withLiveApp(configure: { $0.authData.trustedPlatforms = ["wxleanoffice", "wxleansupport"] }) { application, _ in
            let office = LCUser(application: application)
            let officeData: [String: Any] = ["access_token": "officetoken", "expires_in": 1_384_686_496, "uid": "officeopenid"]
            try await office.logIn(authData: officeData, platform: "wxleanoffice", unionID: "unionid4a", unionIDPlatform: .weixin, options: [.mainAccount])
            #expect(office.isNew && office.objectId != nil)
            let support = LCUser(application: application)
            let supportData: [String: Any] = ["access_token": "supporttoken", "expires_in": 1_384_686_496, "uid": "supportopenid"]
            try await support.logIn(authData: supportData, platform: "wxleansupport", unionID: "unionid4a", unionIDPlatform: .weixin)
            #expect(support.objectId == office.objectId, "the same UnionID is the same user")
            #expect(!support.isNew)
            let again = LCUser(application: application)
            try await again.logIn(authData: officeData, platform: "wxleanoffice")
            #expect(!again.isNew && again.objectId == office.objectId)
        }
    }

    @Test("an anonymous user signs up with a username and password, keeping its id")
    func anonymousSignUp() async throws {
        try await withLiveApp { application, _ in
            let user = try await LCUser.logInAnonymously(application: application)
            let id = try #require(user.objectId)
            user.username = "Tom"
            user.password = "cat!@#123"
            try await user.signUp()
            #expect(user.objectId == id && !user.isAnonymous)
            #expect(application.currentUser === user)
            let loggedIn = try await LCUser.logIn(application: application, username: "Tom", password: "cat!@#123")
            #expect(loggedIn.objectId == id)
            #expect(loggedIn.authData?.value["anonymous"] == nil)
        }
    }

    @Test("an automatic user is there before any request and is created by its first save, or by saving an object pointing to it")
    func automaticUser() async throws {
        try await withLiveApp { application, server in
            LCUser.enableAutomaticUser(application: application)
            let user = try #require(application.currentUser)
            #expect(user.objectId == nil && user.isAnonymous && application.currentUser === user)
            try user.increase("RunCount")
            try await user.save()
            #expect(user.objectId != nil && user.sessionToken != nil)
            #expect(application.currentUser === user)

            LCUser.logOut(application: application)
            let second = try #require(application.currentUser)
            #expect(second !== user && second.objectId == nil)
            let note = LCObject(application: application, className: "Note")
            try note.set("owner", value: second)
            try await note.save()
            #expect(second.objectId != nil && second.sessionToken != nil, "saving the note signed the user up first")
            let (status, _) = try await server.master("GET", "/1.1/users/\(try #require(second.objectId?.value))")
            #expect(status == 200)
        }
    }

    @Test("an inner query finds its limit after its skip, oldest first")
    func innerQueryPaging() async throws {
        try await withLiveApp { application, _ in
            var posts: [LCObject] = []
            for index in 0..<5 {
                let post = LCObject(application: application, className: "Post")
                try post.set("index", value: index)
                try await post.save()
                posts.append(post)
                let comment = LCObject(application: application, className: "Comment")
                try comment.set("post", value: post)
                try comment.set("index", value: index)
                try await comment.save()
            }
            let inner = LCQuery(application: application, className: "Post")
            inner.limit = 2
            inner.skip = 2
            let outer = LCQuery(application: application, className: "Comment")
            outer.whereKey("post", .matchedQuery(inner))
            let found = try await outer.find().compactMap { $0.get("index")?.intValue }.sorted()
            #expect(found == [2, 3])
        }
    }

    @Test("a class's structure is readable with the app key: the fields a client may read, of the classes it may find")
    func classSchemas() async throws {
        try await withLiveApp { application, server in
            _ = try await Self.signUp(application, "tom")
            let todo = LCObject(application: application, className: "Todo")
            try todo.set("title", value: "x")
            try todo.set("secret", value: "y")
            try todo.set("owner", value: application.currentUser)
            try await todo.save()
            _ = try await server.master("PUT", "/1.1/schemas/Todo", body: #"{"fields":{"secret":{"type":"String","hidden":true}}}"#)
            let hiddenClass = LCObject(application: application, className: "Closed")
            try await hiddenClass.save()
            _ = try await server.master("PUT", "/1.1/schemas/Closed", body: #"{"classLevelPermissions":{"find":{}}}"#)

            let schema = try await application.classSchema("Todo")
            #expect(schema.className == "Todo" && schema.fields["title"]?.type == "String")
            #expect(schema.fields["owner"] == LCClassSchema.Field(type: "Pointer", targetClass: "_User"))
            #expect(schema.fields["secret"] == nil && schema.fields["objectId"] != nil)
            await #expect(throws: LCError.self, "users are not findable by default") { try await application.classSchema("_User") }
            try await Self.openUsers(server)
            let users = try await application.classSchema("_User")
            #expect(users.fields["username"] != nil)
            #expect(users.fields["password"] == nil && users.fields["email"] == nil && users.fields["authData"] == nil)
            let all = try await application.classSchemas().map(\.className)
            #expect(all.contains("Todo") && !all.contains("Closed"))
            await #expect(throws: LCError.self) { try await application.classSchema("Closed") }
            await #expect(throws: LCError.self) { try await application.classSchema("Missing") }
        }
    }

    @Test("fetchIfNeeded, isAuthenticated(sessionToken:) and classSchema in their completion-handler and blocking forms")
    func callForms() async throws {
        try await withLiveApp { application, _ in
            let user = try await Self.signUp(application, "tom")
            let todo = LCObject(application: application, className: "Todo")
            try todo.set("title", value: "x")
            try await todo.save()
            let id = try #require(todo.objectId)
            let lazy = LCObject(application: application, className: "Todo", objectId: id)
            let fetched: LCBooleanResult = await withCheckedContinuation { continuation in
                lazy.fetchIfNeeded(completionQueue: .global()) { continuation.resume(returning: $0) }
            }
            #expect(fetched.isSuccess && lazy.get("title")?.stringValue == "x")
            let blockingLazy = LCObject(application: application, className: "Todo", objectId: id)
            #expect(await onThread { blockingLazy.fetchIfNeeded() as LCBooleanResult }.isSuccess && blockingLazy.isDataAvailable)

            let valid: LCValueResult<Bool> = await withCheckedContinuation { continuation in
                user.isAuthenticated(completionQueue: .global()) { continuation.resume(returning: $0) }
            }
            #expect(valid.object == true)
            #expect(await onThread { user.isAuthenticated(sessionToken: "stale") as LCValueResult<Bool> }.object == false)

            let schema: LCValueResult<LCClassSchema> = await withCheckedContinuation { continuation in
                application.classSchema("Todo", completionQueue: .global()) { continuation.resume(returning: $0) }
            }
            #expect(schema.object?.fields["title"]?.type == "String")
            #expect(await onThread { application.classSchemas() as LCQueryResult<LCClassSchema> }.objects?.contains { $0.className == "Todo" } == true)
        }
    }
}
