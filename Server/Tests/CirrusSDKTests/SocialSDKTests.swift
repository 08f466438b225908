@testable import Cirrus
import CirrusModel
import CirrusTesting
import Foundation
import Testing

/// LeanCloud's in-app social features through the SDK against an in-process server over HTTP (docs/SOCIAL.md): follows
/// and their queries, friend requests, statuses sent to followers and privately, inboxes, unread counts, deletion.
///
/// One app plays several users: each `LCUser` signed up keeps its own session token, which its follows, friend requests
/// and inbox reads carry; statuses are sent, and `LCQuery` finds made, as the app's current user, which the tests set.
@Suite("Social on a live server")
struct SocialSDKTests {
    /// Signs up `name` (password `pw-<name>`); it becomes the current user.
    static func signUp(_ application: LCApplication, _ name: String) async throws -> LCUser {
        let user = LCUser(application: application)
        user.username = LCString(name)
        user.password = LCString("pw-" + name)
        try await user.signUp()
        return user
    }

    /// The objectId of a saved object.
    static func id(_ object: LCObject) throws -> String {
        try #require(object.objectId?.value)
    }

    @Test("a follow with attributes shows in the follower and followee queries with the users; unfollowing twice is 221")
    func followAndUnfollow() async throws {
        try await withLiveApp { application, _ in
            let star = try await Self.signUp(application, "star")
            let fan = try await Self.signUp(application, "fan")
            let (starId, fanId) = (try Self.id(star), try Self.id(fan))
            try await fan.follow(starId, attributes: ["group": "music", "score": 5])

            let followers = try await LCUser.followerQuery(application: application, userId: starId).find()
            #expect(followers.count == 1)
            let row = try #require(followers.first)
            #expect(row.className == "_Follower")
            let follower = try #require(row.get("follower") as? LCUser)
            #expect(follower.objectId?.value == fanId)
            #expect(follower.username?.value == "fan", "the follower is included with its fields")
            #expect(row.get("group")?.stringValue == "music" && row.get("score")?.intValue == 5)

            let followees = try await fan.followeeQuery().find()
            #expect(followees.compactMap { ($0.get("followee") as? LCUser)?.username?.value } == ["star"])
            #expect(followees.first?.get("group")?.stringValue == "music")
            let sports = LCUser.followeeQuery(application: application, userId: fanId)
            sports.whereKey("group", .equalTo("sports"))
            #expect(try await sports.find().isEmpty, "the follow's attributes are conditions of the queries")

            try await fan.follow(starId)
            #expect(try await star.followerQuery().find().count == 1, "following again keeps one row")
            try await fan.unfollow(starId)
            #expect(try await star.followerQuery().find().isEmpty)
            #expect(try await fan.followeeQuery().find().isEmpty)
            let again = try await #require(throws: LCError.self) { try await fan.unfollow(starId) }
            #expect(again.code == 221)

            let unknown = try await #require(throws: LCError.self) { try await fan.follow("000000000000000000000000") }
            #expect(unknown.code == 211)
            let withoutSession = LCUser(application: application, className: "_User", objectId: fanId)
            await #expect(throws: LCError.self, "a user without its session token may not follow") {
                try await withoutSession.follow(starId)
            }
            #expect(try await star.followerQuery().find().isEmpty)
        }
    }

    @Test("a friend request is found by the friend and accepted once: both follow each other as friends")
    func friendRequestAccepted() async throws {
        try await withLiveApp { application, _ in
            let jerry = try await Self.signUp(application, "jerry")
            let tom = try await Self.signUp(application, "tom")
            let (jerryId, tomId) = (try Self.id(jerry), try Self.id(tom))
            let sent = try await tom.requestFriendship(with: jerryId, attributes: ["group": "school"])
            #expect(sent.objectId != nil && sent.createdAt != nil)
            #expect(sent.status?.value == "pending" && sent.friend?.objectId?.value == jerryId)
            let asking = try await tom.followeeQuery().find()
            #expect(asking.first?.get("friendStatus")?.boolValue == false, "the requester follows the friend, not as a friend yet")
            #expect(asking.first?.get("group")?.stringValue == "school")
            let twice = try await #require(throws: LCError.self) { try await tom.requestFriendship(with: jerryId) }
            #expect(twice.code == 137, "one pending request per pair")

            application.currentUser = jerry
            let pending = try await jerry.friendshipRequestQuery().find()
            #expect(pending.count == 1)
            let request = try #require(pending.first as? LCFriendshipRequest)
            #expect(request.objectId == sent.objectId)
            #expect(request.user?.username?.value == "tom", "the requester is included")
            #expect(request.status?.value == "pending")

            let notTheirs = try await #require(throws: LCError.self) { try await tom.acceptFriendshipRequest(request) }
            #expect(notTheirs.code == 403, "only the user asked answers")
            try await jerry.acceptFriendshipRequest(request, attributes: ["group": "work"])
            #expect(request.status?.value == "accepted")
            let answered = try await #require(throws: LCError.self) { try await jerry.declineFriendshipRequest(request) }
            #expect(answered.code == 305, "a request is answered once")
            #expect(try await jerry.friendshipRequestQuery().find().isEmpty)

            let tomsFriends = try await tom.friendshipQuery().find()
            #expect(tomsFriends.compactMap { ($0.get("followee") as? LCUser)?.objectId?.value } == [jerryId])
            let jerrysFriends = try await jerry.friendshipQuery().find()
            #expect(jerrysFriends.compactMap { ($0.get("followee") as? LCUser)?.objectId?.value } == [tomId])
            #expect(jerrysFriends.first?.get("group")?.stringValue == "work")
            #expect(try await LCUser.followerQuery(application: application, userId: tomId).find().count == 1)
        }
    }

    @Test("a friend request declined by id leaves the requester's follow and no friendship")
    func friendRequestDeclined() async throws {
        try await withLiveApp { application, _ in
            let jerry = try await Self.signUp(application, "jerry")
            let spike = try await Self.signUp(application, "spike")
            let sent = try await spike.requestFriendship(with: try Self.id(jerry))
            let byId = LCFriendshipRequest(application: application, objectId: try #require(sent.objectId?.value))
            try await jerry.declineFriendshipRequest(byId)
            #expect(byId.status?.value == "declined")
            #expect(try await spike.followeeQuery().find().count == 1, "the requester still follows")
            #expect(try await spike.friendshipQuery().find().isEmpty)
        }
    }

    @Test("statuses sent to followers reach their inboxes newest first, page by sinceId and maxId, and count unread")
    func statusesToFollowers() async throws {
        try await withLiveApp { application, _ in
            let reader = try await Self.signUp(application, "reader")
            let other = try await Self.signUp(application, "other")
            let writer = try await Self.signUp(application, "writer")
            let writerId = try Self.id(writer)
            try await reader.follow(writerId)
            try await other.follow(writerId)

            let first = LCStatus(application: application, data: ["message": "first", "image": "https://example.com/a.png"])
            try await first.sendToFollowers()
            #expect(first.objectId != nil && first.createdAt != nil)
            #expect(first.source?.objectId?.value == writerId, "the sender is the status's source")
            let second = LCStatus(application: application, data: ["message": "second"])
            try await second.sendToFollowers()

            let inbox = LCInboxQuery(owner: reader)
            let statuses = try await inbox.find()
            #expect(statuses.map { $0.get("message")?.stringValue } == ["second", "first"])
            #expect(statuses.map(\.messageId) == [2, 1])
            #expect(statuses.map(\.objectId) == [second.objectId, first.objectId])
            #expect(statuses.allSatisfy { $0.inboxType == .default })
            #expect(statuses.last?.get("image")?.stringValue == "https://example.com/a.png")
            #expect(statuses.first?.source?.objectId?.value == writerId)
            #expect(statuses.first?.createdAt != nil)
            #expect(inbox.end, "the page holds the inbox's oldest status")

            let included = LCInboxQuery(owner: reader)
            included.whereKey("source", .included)
            #expect(try await included.find().first.flatMap { $0.source as? LCUser }?.username?.value == "writer")
            let filtered = LCInboxQuery(owner: reader)
            filtered.whereKey("message", .equalTo("first"))
            #expect(try await filtered.find().map(\.objectId) == [first.objectId])

            let third = LCStatus(application: application, data: ["message": "third"])
            try await third.sendToFollowers()
            let newer = LCInboxQuery(owner: reader)
            newer.sinceId = try #require(statuses.first?.messageId)
            #expect(try await newer.find().map { $0.get("message")?.stringValue } == ["third"])
            let older = LCInboxQuery(owner: reader)
            older.maxId = 2
            older.limit = 1
            let page = try await older.find()
            #expect(page.map(\.messageId) == [2])
            #expect(!older.end, "status 1 is below the page")

            #expect(try await LCStatus.unreadCount(owner: reader) == LCStatus.UnreadCount(total: 3, unread: 3))
            try await LCStatus.resetUnreadCount(owner: reader)
            #expect(try await LCStatus.unreadCount(owner: reader) == LCStatus.UnreadCount(total: 3, unread: 0))
            #expect(try await LCStatus.unreadCount(owner: other).unread == 3, "each inbox counts its own")
            #expect(try await LCInboxQuery(owner: writer).find().count == 3, "a default status reaches its sender's inbox too")

            let stranger = LCUser(application: application, className: "_User", objectId: try Self.id(reader))
            let refused = try await #require(throws: LCError.self, "an inbox is read by its owner") {
                try await LCInboxQuery(owner: stranger).find()
            }
            #expect(refused.code == 403)
        }
    }

    @Test("a private status reaches its recipient's private inbox alone")
    func privateStatus() async throws {
        try await withLiveApp { application, _ in
            let recipient = try await Self.signUp(application, "recipient")
            let follower = try await Self.signUp(application, "follower")
            let sender = try await Self.signUp(application, "sender")
            try await follower.follow(try Self.id(sender))

            let note = LCStatus(application: application, data: ["message": "psst"])
            try await note.sendPrivately(to: LCUser(application: application, className: "_User", objectId: try Self.id(recipient)))
            #expect(note.inboxType == .private)

            let received = try await LCInboxQuery(owner: recipient, inboxType: .private).find()
            #expect(received.map(\.objectId) == [note.objectId])
            #expect(received.first?.inboxType == .private && received.first?.messageId == 1)
            #expect(received.first?.get("message")?.stringValue == "psst")
            #expect(try await LCInboxQuery(owner: recipient).find().isEmpty, "not in the timeline")
            #expect(try await LCInboxQuery(owner: follower, inboxType: .private).find().isEmpty)
            #expect(try await LCInboxQuery(owner: sender, inboxType: .private).find().isEmpty)
            #expect(try await LCStatus.unreadCount(owner: recipient, inboxType: .private) == LCStatus.UnreadCount(total: 1, unread: 1))
        }
    }

    @Test("a status sent to a query of users (by a field of theirs) reaches their inboxes of a custom type")
    func statusToQuery() async throws {
        try await withLiveApp { application, _ in
            let chosen = try await Self.signUp(application, "chosen")
            try chosen.set("team", value: "red")
            try await chosen.save()
            let left = try await Self.signUp(application, "left")
            _ = try await Self.signUp(application, "announcer")
            let users = LCQuery(application: application, className: "_User")
            users.whereKey("team", .equalTo("red"))
            let news = LCStatus(application: application, data: ["message": "news"], inboxType: "news")
            try await news.send(to: users)
            let inbox = try await LCInboxQuery(owner: chosen, inboxType: "news").find()
            #expect(inbox.map(\.objectId) == [news.objectId])
            #expect(inbox.first?.inboxType == LCStatus.InboxType("news"))
            #expect(try await LCInboxQuery(owner: left, inboxType: "news").find().isEmpty)
        }
    }

    @Test("deleting a status removes it from every inbox; only its sender may, and nobody without a session sends")
    func deleteStatus() async throws {
        try await withLiveApp { application, _ in
            let reader = try await Self.signUp(application, "reader")
            let writer = try await Self.signUp(application, "writer")
            try await reader.follow(try Self.id(writer))
            let kept = LCStatus(application: application, data: ["message": "kept"])
            try await kept.sendToFollowers()
            let gone = LCStatus(application: application, data: ["message": "gone"])
            try await gone.sendToFollowers()
            #expect(try await LCInboxQuery(owner: reader).find().count == 2)

            application.currentUser = reader
            let goneId = try #require(gone.objectId?.value)
            let notTheirs = try await #require(throws: LCError.self) { try await LCStatus(application: application, objectId: goneId).delete() }
            #expect(notTheirs.code == 403, "a status is deleted by its sender")

            application.currentUser = writer
            try await gone.delete()
            #expect(try await LCInboxQuery(owner: reader).find().map(\.objectId) == [kept.objectId])
            #expect(try await LCInboxQuery(owner: writer).find().map(\.objectId) == [kept.objectId])
            #expect(try await LCStatus.unreadCount(owner: reader).total == 1)
            await #expect(throws: LCError.self, "it is gone") { try await gone.delete() }

            LCUser.logOut(application: application)
            let anonymous = try await #require(throws: LCError.self) { try await LCStatus(application: application, data: ["message": "x"]).sendToFollowers() }
            #expect(anonymous.code == LCError.InternalErrorCode.inconsistency.rawValue, "refused before any request")
        }
    }
}

/// The requests of the social calls, through an in-memory transport.
@Suite("Social requests")
struct SocialRequestTests {
    /// A user of `application` with an id and a session token, as signing up leaves it.
    static func user(_ application: LCApplication, _ id: String) -> LCUser {
        let user = LCUser(application: application)
        user.merge(["objectId": .string(id), "sessionToken": .string("token-" + id)], decoder: ObjectDecoder(application: application))
        return user
    }

    @Test("follow posts the attributes (or {}) with the follower's token; unfollow deletes; the queries are of _Follower and _Followee")
    func follows() async throws {
        let transport = RecordingTransport(json: ["{}"])
        let application = try makeApplication(transport)
        let fan = Self.user(application, "fan1")
        try await fan.follow("star1", attributes: ["group": 1, "at": LCGeoPoint(latitude: 1, longitude: 2)])
        try await fan.follow("star1")
        try await fan.unfollow("star1")
        let requests = transport.requests
        #expect(requests.map(\.method) == ["POST", "POST", "DELETE"])
        #expect(requests.allSatisfy { $0.path == "/1.1/users/fan1/friendship/star1" && $0.headers["X-LC-Session"] == "token-fan1" })
        #expect(requests[0].json == (try json(#"{"group":1,"at":{"__type":"GeoPoint","latitude":1.0,"longitude":2.0}}"#)))
        #expect(requests[1].json == [:])
        #expect(requests[2].body == nil)

        let followers = LCUser.followerQuery(application: application, userId: "star1")
        #expect(followers.className == "_Follower")
        #expect(followers.whereJSON == (try json(#"{"user":{"__type":"Pointer","className":"_User","objectId":"star1"}}"#)))
        #expect(followers.parameters().contains { $0 == ("include", "follower") })
        let friends = fan.friendshipQuery()
        #expect(friends.className == "_Followee")
        #expect(friends.whereJSON == (try json(#"{"user":{"__type":"Pointer","className":"_User","objectId":"fan1"},"friendStatus":true}"#)))
        #expect(friends.parameters().contains { $0 == ("include", "followee") })

        let unsaved = LCUser(application: application)
        await #expect(throws: LCError.self) { try await unsaved.follow("star1") }
        await #expect(throws: LCError.self) { try await fan.follow("") }
        #expect(transport.requests.count == 3)
    }

    @Test("friend requests post user, friend and friendship; accept and decline PUT with the friend's token")
    func friendRequests() async throws {
        let transport = RecordingTransport(json: [
            #"{"objectId":"r1","createdAt":"2026-01-01T00:00:00.000Z"}"#, #"{"objectId":"r1","updatedAt":"2026-01-02T00:00:00.000Z"}"#,
        ])
        let application = try makeApplication(transport)
        let tom = Self.user(application, "tom1")
        let jerry = Self.user(application, "jerry1")
        let request = try await tom.requestFriendship(with: "jerry1", attributes: ["group": "school"])
        try await jerry.acceptFriendshipRequest(request, attributes: ["group": "work"])
        try await jerry.declineFriendshipRequest(LCFriendshipRequest(application: application, objectId: "r2"))
        let requests = transport.requests
        #expect(requests[0].method == "POST" && requests[0].path == "/1.1/users/friendshipRequests")
        #expect(requests[0].headers["X-LC-Session"] == "token-tom1")
        #expect(requests[0].json == (try json(#"""
            {"user":{"__type":"Pointer","className":"_User","objectId":"tom1"},
             "friend":{"__type":"Pointer","className":"_User","objectId":"jerry1"},"friendship":{"group":"school"}}
            """#)))
        #expect(request.objectId?.value == "r1" && request.status?.value == "accepted")
        #expect(requests[1].method == "PUT" && requests[1].path == "/1.1/users/friendshipRequests/r1/accept")
        #expect(requests[1].json == (try json(#"{"friendship":{"group":"work"}}"#)))
        #expect(requests[1].headers["X-LC-Session"] == "token-jerry1")
        #expect(requests[2].path == "/1.1/users/friendshipRequests/r2/decline" && requests[2].body == nil)

        let pending = jerry.friendshipRequestQuery()
        #expect(pending.className == "_FriendshipRequest")
        #expect(pending.whereJSON == (try json(#"{"friend":{"__type":"Pointer","className":"_User","objectId":"jerry1"},"status":"pending"}"#)))
        #expect(pending.parameters().contains { $0 == ("include", "user") })
    }

    @Test("statuses post the audience query, data with the sender as source, and the inbox type")
    func statuses() async throws {
        let transport = RecordingTransport(json: [#"{"objectId":"s1","createdAt":"2026-01-01T00:00:00.000Z"}"#])
        let application = try makeApplication(transport)
        let me = Self.user(application, "me1")
        application.currentUser = me
        let pointer = #"{"__type":"Pointer","className":"_User","objectId":"me1"}"#

        let status = LCStatus(application: application, data: ["message": "hello"])
        try await status.sendToFollowers()
        #expect(status.objectId?.value == "s1" && status.createdAt != nil)
        let toFollowers = try #require(transport.requests.last)
        #expect(toFollowers.method == "POST" && toFollowers.path == "/1.1/statuses")
        #expect(toFollowers.headers["X-LC-Session"] == "token-me1")
        #expect(toFollowers.json == (try json(#"""
            {"query":{"className":"_Follower","keys":"follower","where":{"user":\#(pointer)}},
             "data":{"message":"hello","source":\#(pointer)},"inboxType":"default"}
            """#)))

        try await LCStatus(application: application, data: ["message": "psst"]).sendPrivately(to: Self.user(application, "you1"))
        #expect(transport.requests.last?.json == (try json(#"""
            {"query":{"className":"_User","where":{"objectId":"you1"}},"data":{"message":"psst","source":\#(pointer)},"inboxType":"private"}
            """#)))

        let audience = LCQuery(application: application, className: "_Follower")
        audience.whereKey("user", .equalTo(me))
        audience.whereKey("follower", .selected)
        try await LCStatus(application: application, data: ["n": 1], inboxType: "news").send(to: audience)
        #expect(transport.requests.last?.json == (try json(#"""
            {"query":{"className":"_Follower","keys":"follower","where":{"user":\#(pointer)}},"data":{"n":1,"source":\#(pointer)},"inboxType":"news"}
            """#)))

        try await status.delete()
        #expect(transport.requests.last?.method == "DELETE" && transport.requests.last?.path == "/1.1/statuses/s1")
    }

    @Test("the inbox query sends owner, inboxType, sinceId, maxId and where with the owner's token, and reads messageIds")
    func inbox() async throws {
        let transport = RecordingTransport(json: [
            #"""
            {"results":[{"objectId":"s2","messageId":7,"inboxType":"default","message":"b","createdAt":"2026-01-02T00:00:00.000Z",
              "updatedAt":"2026-01-02T00:00:00.000Z","source":{"__type":"Pointer","className":"_User","objectId":"w1"}},
              {"objectId":"s1","messageId":5,"inboxType":"default","message":"a","createdAt":"2026-01-01T00:00:00.000Z"}],"end":true}
            """#,
            #"{"total":9,"unread":4}"#, "{}",
        ])
        let application = try makeApplication(transport)
        let reader = Self.user(application, "r1")
        let query = LCInboxQuery(owner: reader)
        query.sinceId = 3
        query.limit = 10
        query.whereKey("message", .notEqualTo("c"))
        query.whereKey("source", .included)
        let statuses = try await query.find()
        let request = try #require(transport.requests.first)
        #expect(request.method == "GET" && request.path == "/1.1/subscribe/statuses")
        #expect(request.headers["X-LC-Session"] == "token-r1")
        #expect(request.queryJSON("owner") == (try json(#"{"__type":"Pointer","className":"_User","objectId":"r1"}"#)))
        #expect(request.query["inboxType"] == "default" && request.query["sinceId"] == "3" && request.query["maxId"] == "0")
        #expect(request.query["limit"] == "10" && request.query["include"] == "source")
        #expect(request.queryJSON("where") == (try json(#"{"message":{"$ne":"c"}}"#)))
        #expect(statuses.map(\.messageId) == [7, 5])
        #expect(statuses.map { $0.objectId?.value } == ["s2", "s1"])
        #expect(statuses.first?.get("message")?.stringValue == "b")
        #expect(statuses.first?.get("messageId") == nil && statuses.first?.get("inboxType") == nil, "the inbox's members are not data")
        #expect((statuses.first?.source as? LCUser)?.objectId?.value == "w1")
        #expect(statuses.last?.updatedAt == statuses.last?.createdAt)
        #expect(query.end)

        let counted = try await LCStatus.unreadCount(owner: reader, inboxType: .private)
        #expect(counted == LCStatus.UnreadCount(total: 9, unread: 4))
        #expect(transport.requests[1].path == "/1.1/subscribe/statuses/count" && transport.requests[1].query["inboxType"] == "private")
        #expect(transport.requests[1].queryJSON("owner")?["objectId"] == "r1")
        try await LCStatus.resetUnreadCount(owner: reader)
        #expect(transport.requests[2].method == "POST" && transport.requests[2].path == "/1.1/subscribe/statuses/resetUnreadCount")
        #expect(transport.requests[2].json == (try json(#"{"owner":{"__type":"Pointer","className":"_User","objectId":"r1"},"inboxType":"default"}"#)))
        #expect(transport.requests[2].headers["X-LC-Session"] == "token-r1")
    }
}
