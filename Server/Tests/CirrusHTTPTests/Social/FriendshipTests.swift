import CirrusModel
import CirrusTesting
import Foundation
import HTTPTypes
import Testing

/// The follow graph and friend requests over HTTP (docs/SOCIAL.md), on the test store.
@Suite("Follows, follower lists and friend requests")
struct FriendshipTests {
    @Test("a follow with attributes writes both directions, reads back with include, and an unfollow removes both (R#16)")
    func followAndUnfollow() async throws {
        try await TestServer.with { client in
            let users = try await client.users(["fan", "star"])
            let (fan, star) = (users[0], users[1])
            let attributes: JSON = ["group": 1, "position": ["__type": "GeoPoint", "latitude": 0, "longitude": 0]]
            let followed = try await client.lc(.post, "/users/\(fan.id)/friendship/\(star.id)", json: attributes, as: fan)
            #expect(followed.status == 200 && followed.json == [:], "\(followed.bodyText)")
            let followees = try await client.results(
                "/classes/_Followee", where: ["user": TestClient.userPointer(fan.id), "group": 1], extra: "&include=followee"
            )
            #expect(followees.count == 1)
            #expect(followees.first?["followee"]?["objectId"] == .string(star.id))
            #expect(followees.first?["followee"]?["username"] != nil, "the followee is included")
            #expect(followees.first?["position"]?["__type"] == "GeoPoint")
            let followers = try await client.results("/classes/_Follower", where: ["user": TestClient.userPointer(star.id)])
            #expect(followers.map { $0["follower"]?["objectId"] } == [.string(fan.id)])
            #expect(followers.first?["group"] == 1)

            let unfollowed = try await client.lc(.delete, "/users/\(fan.id)/friendship/\(star.id)", as: fan)
            #expect(unfollowed.status == 200 && unfollowed.json == [:], "\(unfollowed.bodyText)")
            #expect(try await client.results("/classes/_Followee", where: ["user": TestClient.userPointer(fan.id)]).isEmpty)
            #expect(try await client.results("/classes/_Follower", where: ["user": TestClient.userPointer(star.id)]).isEmpty)
            let again = try await client.lc(.delete, "/users/\(fan.id)/friendship/\(star.id)", as: fan)
            #expect(again.status == 400 && again.code == 221, "\(again.bodyText)")
        }
    }

    @Test("following again updates the attributes instead of adding rows; self names the session's user; PUT changes attributes")
    func followAgain() async throws {
        try await TestServer.with { client in
            let users = try await client.users(["fan", "star"])
            let (fan, star) = (users[0], users[1])
            for group in [1, 2] {
                let reply = try await client.lc(.post, "/users/self/friendship/\(star.id)", json: ["group": .int(Int64(group))], as: fan)
                #expect(reply.status == 200, "\(reply.bodyText)")
            }
            let updated = try await client.lc(.put, "/users/self/friendship/\(star.id)", json: ["friendship": ["score": 200]], as: fan)
            #expect(updated.status == 200, "\(updated.bodyText)")
            let followees = try await client.results("/classes/_Followee", where: ["user": TestClient.userPointer(fan.id)])
            #expect(followees.count == 1)
            #expect(followees.first?["group"] == 2 && followees.first?["score"] == 200)
            let followers = try await client.results("/classes/_Follower", where: ["user": TestClient.userPointer(star.id)])
            #expect(followers.count == 1 && followers.first?["score"] == 200)
        }
    }

    @Test("concurrent follows of the same pair leave one row in each direction")
    func concurrentFollows() async throws {
        try await TestServer.with { client in
            let users = try await client.users(["fan", "star"])
            let (fan, star) = (users[0], users[1])
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<6 { group.addTask { try await client.lc(.post, "/users/\(fan.id)/friendship/\(star.id)", as: fan).status } }
                for try await status in group { #expect(status == 200) }
            }
            #expect(try await client.results("/classes/_Followee", where: ["user": TestClient.userPointer(fan.id)]).count == 1)
            #expect(try await client.results("/classes/_Follower", where: ["user": TestClient.userPointer(star.id)]).count == 1)
        }
    }

    @Test("follows are refused for another user, without a session, of oneself, of an unknown user, and through the class API")
    func refusals() async throws {
        try await TestServer.with { client in
            let users = try await client.users(["fan", "star", "other"])
            let (fan, star, other) = (users[0], users[1], users[2])
            let forOther = try await client.lc(.post, "/users/\(other.id)/friendship/\(star.id)", as: fan)
            #expect(forOther.status == 403, "\(forOther.bodyText)")
            let anonymous = try await client.lc(.post, "/users/self/friendship/\(star.id)", as: nil)
            #expect(anonymous.code == 206, "\(anonymous.bodyText)")
            let itself = try await client.lc(.post, "/users/self/friendship/\(fan.id)", as: fan)
            #expect(itself.status == 400, "\(itself.bodyText)")
            let unknown = try await client.lc(.post, "/users/self/friendship/000000000000000000000000", as: fan)
            #expect(unknown.code == 211, "\(unknown.bodyText)")
            let reserved = try await client.lc(.post, "/users/self/friendship/\(star.id)", json: ["followee": TestClient.userPointer(other.id)], as: fan)
            #expect(reserved.code == 105, "\(reserved.bodyText)")
            let forged = try await client.lc(
                .post, "/classes/_Followee", json: ["user": TestClient.userPointer(star.id), "followee": TestClient.userPointer(fan.id)], as: other
            )
            #expect(forged.status == 403, "\(forged.bodyText)")
            #expect(try await client.results("/classes/_Followee", where: [:]).isEmpty, "nothing was written")
            let master = try await client.send(.leancloud, .post, "/1.1/users/\(other.id)/friendship/\(star.id)", auth: .master)
            #expect(master.status == 200, "the master key follows for any user: \(master.bodyText)")
        }
    }

    @Test("followers, followees, both with counts, and mutual followees list the user's rows with the find parameters")
    func lists() async throws {
        try await TestServer.with { client in
            let users = try await client.users(["a", "b", "c", "d"])
            let (a, b, c, d) = (users[0], users[1], users[2], users[3])
            // a follows b and c; b and d follow a.
            for (follower, target) in [(a, b), (a, c), (b, a), (d, a)] {
                #expect(try await client.lc(.post, "/users/self/friendship/\(target.id)", json: ["group": "g"], as: follower).status == 200)
            }
            let followers = try await client.lc(.get, "/users/\(a.id)/followers?include=follower&count=1", as: c)
            #expect(followers.json["count"] == 2, "\(followers.bodyText)")
            let names = Set(followers.json["results"]?.arrayValue?.compactMap { $0["follower"]?["username"]?.stringValue } ?? [])
            #expect(names.count == 2 && names.allSatisfy { $0.hasPrefix("b-") || $0.hasPrefix("d-") })
            let followees = try await client.lc(.get, "/users/self/followees", as: a)
            #expect(Set(followees.json["results"]?.arrayValue?.compactMap { $0["followee"]?["objectId"] } ?? []) == [.string(b.id), .string(c.id)])
            let filtered = try await client.lc(
                .get, "/users/self/followees?where=" + (JSONWriter.string(["followee": TestClient.userPointer(c.id)]).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""),
                as: a
            )
            #expect(filtered.json["results"]?.arrayValue?.count == 1)
            let both = try await client.lc(.get, "/users/\(a.id)/followersAndFollowees?count=1", as: b)
            #expect(both.json["followers_count"] == 2 && both.json["followees_count"] == 2, "\(both.bodyText)")
            #expect(both.json["followers"]?.arrayValue?.count == 2 && both.json["followees"]?.arrayValue?.count == 2)
            let mutual = try await client.lc(.get, "/users/self/mutualFollowees?include=followee", as: a)
            #expect(mutual.json["results"]?.arrayValue?.map { $0["followee"]?["objectId"] } == [.string(b.id)], "\(mutual.bodyText)")
            let naming = try await client.lc(
                .get, "/users/self/mutualFollowees?where=" + (JSONWriter.string(["user": TestClient.userPointer(b.id)]).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""),
                as: a
            )
            #expect(naming.status == 400, "\(naming.bodyText)")
        }
    }

    @Test("a friend request is accepted once by the friend: both follow each other as friends; a declined one leaves the follow")
    func friendRequests() async throws {
        try await TestServer.with { client in
            let users = try await client.users(["asker", "friend", "stranger"])
            let (asker, friend, stranger) = (users[0], users[1], users[2])
            let body: JSON = ["user": TestClient.userPointer(asker.id), "friend": TestClient.userPointer(friend.id), "friendship": ["group": "school"]]
            let asked = try await client.lc(.post, "/users/friendshipRequests", json: body, as: asker)
            #expect(asked.status == 201, "\(asked.bodyText)")
            let requestId = try #require(asked.json["objectId"]?.stringValue)
            #expect(try await client.lc(.post, "/users/friendshipRequests", json: body, as: asker).code == 137, "one pending request per pair")
            let pendingFollow = try await client.results("/classes/_Followee", where: ["user": TestClient.userPointer(asker.id)])
            #expect(pendingFollow.first?["friendStatus"] == false && pendingFollow.first?["group"] == "school")
            #expect(try await client.lc(.put, "/users/friendshipRequests/\(requestId)/accept", as: stranger).status == 403)
            #expect(try await client.lc(.put, "/users/friendshipRequests/\(requestId)/accept", as: asker).status == 403)
            #expect(try await client.lc(.get, "/classes/_FriendshipRequest/\(requestId)", as: stranger).json == [:], "a stranger cannot read it")

            let accepted = try await client.lc(.put, "/users/friendshipRequests/\(requestId)/accept", json: ["friendship": ["group": "work"]], as: friend)
            #expect(accepted.status == 200 && accepted.json["updatedAt"] != nil, "\(accepted.bodyText)")
            #expect(try await client.lc(.put, "/users/friendshipRequests/\(requestId)/decline", as: friend).code == 305, "answered once")
            let request = try await client.lc(.get, "/classes/_FriendshipRequest/\(requestId)", as: asker)
            #expect(request.json["status"] == "accepted")
            let friendsOfAsker = try await client.lc(
                .get, "/users/self/followees?where=" + (JSONWriter.string(["friendStatus": true]).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""),
                as: asker
            )
            #expect(friendsOfAsker.json["results"]?.arrayValue?.map { $0["followee"]?["objectId"] } == [.string(friend.id)])
            let back = try await client.results("/classes/_Followee", where: ["user": TestClient.userPointer(friend.id)])
            #expect(back.first?["friendStatus"] == true && back.first?["group"] == "work")

            let second = try await client.lc(
                .post, "/users/friendshipRequests", json: ["user": TestClient.userPointer(stranger.id), "friend": TestClient.userPointer(friend.id)], as: stranger
            )
            let declined = try await client.lc(.put, "/users/friendshipRequests/\(second.json["objectId"]?.stringValue ?? "")/decline", as: friend)
            #expect(declined.status == 200, "\(declined.bodyText)")
            let strangerFollows = try await client.results("/classes/_Followee", where: ["user": TestClient.userPointer(stranger.id)])
            #expect(strangerFollows.first?["friendStatus"] == false)
            let forged = try await client.lc(
                .post, "/users/friendshipRequests", json: ["user": TestClient.userPointer(friend.id), "friend": TestClient.userPointer(stranger.id)], as: asker
            )
            #expect(forged.status == 403, "a request is made as the signed-in user: \(forged.bodyText)")
        }
    }
}
