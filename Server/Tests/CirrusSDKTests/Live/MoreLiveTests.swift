import Cirrus
import CirrusServer
import CirrusServices
import CirrusTesting
import Foundation
import Testing

/// CQL, third-party accounts and roles against an in-process server over HTTP.
@Suite("CQL, authData and roles on a live server")
struct MoreLiveTests {
    @Test("CQL selects with placeholders, counts, and reports syntax errors with 300")
    func cql() async throws {
        try await withLiveApp { application, _ in
            let todos = try (1...5).map { index in
                let todo = LCObject(application: application, className: "Todo")
                try todo.set("priority", value: index)
                return todo
            }
            try await LCObject.save(todos)
            let found = try await LCCQLClient.execute(application: application, "select * from Todo where priority > ? order by priority", parameters: [3])
            #expect(found.objects.compactMap { $0.get("priority")?.intValue } == [4, 5])
            #expect(found.objects.first?.className == "Todo")
            let counted = try await LCCQLClient.execute(application: application, "select count(*) from Todo where priority <= ?", parameters: [2])
            #expect(counted.count == 2)
            let error = try await #require(throws: LCError.self) { try await LCCQLClient.execute(application: application, "select * form Todo") }
            #expect(error.code == 300)
        }
    }

    @Test("a third-party log-in signs up once, logs in after; associate and disassociate edit authData")
    func authData() async throws {
        try await withLiveApp(configure: { $0.authData.trustedPlatforms = ["github", "weibo"] }) { application, _ in
            let first = LCUser(application: application)
            try await first.logIn(authData: ["uid": "github-42", "access_token": "token"], platform: .custom("github"))
            #expect(first.objectId != nil && first.sessionToken != nil)
            #expect(application.currentUser === first)
            let second = LCUser(application: application)
            try await second.logIn(authData: ["uid": "github-42", "access_token": "token2"], platform: "github")
            #expect(second.objectId == first.objectId)
            try await second.associate(authData: ["uid": "weibo-7", "access_token": "w"], platform: .weibo)
            let byWeibo = LCUser(application: application)
            try await byWeibo.logIn(authData: ["uid": "weibo-7", "access_token": "w"], platform: .weibo)
            #expect(byWeibo.objectId == first.objectId)
            try await byWeibo.disassociate(authData: "github")
            try await byWeibo.fetch()
            #expect(byWeibo.authData?.value["github"] == nil)
            #expect(byWeibo.authData?.value["weibo"] != nil)
        }
    }

    @Test("getRoles finds the roles whose users relation holds the user")
    func roles() async throws {
        try await withLiveApp { application, _ in
            let user = LCUser(application: application)
            user.username = "Tom"
            user.password = "cat"
            try await user.signUp()
            let acl = LCACL()
            acl.setAccess(.read, allowed: true)
            acl.setAccess(.write, allowed: true, forUserID: try #require(user.objectId?.value))
            let admin = LCRole(application: application, name: "Administrator")
            admin.ACL = acl
            try admin.users.insert(user)
            try await admin.save()
            let other = LCRole(application: application, name: "Moderator")
            other.ACL = acl
            try await other.save()
            let roles = try await user.getRoles()
            #expect(roles.compactMap { $0.name?.value } == ["Administrator"])
        }
    }

    @Test("an anonymous user becomes an ordinary one by saving a username and password; failOnNotExist refuses unknown accounts")
    func anonymous() async throws {
        try await withLiveApp(configure: { $0.authData.trustedPlatforms = ["github"] }) { application, _ in
            let user = try await LCUser.logInAnonymously(application: application)
            #expect(user.isAnonymous)
            #expect(user.sessionToken != nil && application.currentUser === user)
            user.username = "Tom"
            user.password = "cat"
            try await user.save()
            try await user.fetch()
            #expect(!user.isAnonymous)
            _ = try await LCUser.logIn(application: application, username: "Tom", password: "cat")
            let stranger = LCUser(application: application)
            let error = try await #require(throws: LCError.self) {
                try await stranger.logIn(authData: ["uid": "nobody", "access_token": "t"], platform: "github", options: .failOnNotExist)
            }
            #expect(error.code == 211)
        }
    }
}
