import Cirrus
import CirrusTesting
import Foundation
import Testing

/// LCUser against an in-process server over HTTP.
@Suite("Users on a live server")
struct UserLiveTests {
    /// Signs Tom up with a username, password, e-mail and phone number.
    static func signUpTom(_ application: LCApplication) async throws -> LCUser {
        let user = LCUser(application: application)
        user.username = LCString("Tom")
        user.password = LCString("cat!@#123")
        try user.set("email", value: "tom@leancloud.rocks")
        try user.set("mobilePhoneNumber", value: "+19490008888")
        try user.set("gender", value: "secret")
        try await user.signUp()
        return user
    }

    @Test("sign-up makes the current user; log-in by username, e-mail or phone gives the same user")
    func signUpAndLogIn() async throws {
        try await withLiveApp { application, _ in
            let user = try await Self.signUpTom(application)
            #expect(user.objectId != nil)
            #expect(user.sessionToken != nil)
            #expect(application.currentUser === user)
            LCUser.logOut(application: application)
            #expect(application.currentUser == nil)
            let byName = try await LCUser.logIn(application: application, username: "Tom", password: "cat!@#123")
            let byMail = try await LCUser.logIn(application: application, email: "tom@leancloud.rocks", password: "cat!@#123")
            let byPhone = try await LCUser.logIn(application: application, mobilePhoneNumber: "+19490008888", password: "cat!@#123")
            #expect(Set([byName, byMail, byPhone].compactMap { $0.objectId?.value }) == [try #require(user.objectId?.value)])
            #expect(byPhone.get("gender")?.stringValue == "secret")
            #expect(application.currentUser === byPhone)
            #expect(byName.sessionToken?.value == user.sessionToken?.value)
        }
    }

    @Test("the current user's session token lets it change its own fields, and is read back by a new launch")
    func currentUser() async throws {
        try await withLiveApp { application, server in
            let user = try await Self.signUpTom(application)
            try user.set("nickname", value: "tommy")
            try await user.save()
            let relaunched = try LCApplication(
                id: server.keys.appId, key: server.keys.appKey, serverURL: server.baseURL, configuration: application.configuration
            )
            let current = try #require(relaunched.currentUser)
            #expect(current.objectId == user.objectId)
            #expect(current.get("nickname")?.stringValue == "tommy")
            let me = try await LCUser.logIn(application: relaunched, sessionToken: try #require(current.sessionToken?.value))
            #expect(me.username?.value == "Tom")
            let book = LCObject(application: relaunched, className: "Book")
            try book.set("title", value: "My Fifth Book")
            try book.set("author", value: relaunched.currentUser)
            try await book.save()
            let books = LCQuery(application: relaunched, className: "Book")
            books.whereKey("author", .equalTo(relaunched.currentUser))
            #expect(try await books.count() == 1)
        }
    }

    @Test("another user may not change a user")
    func otherUser() async throws {
        try await withLiveApp { application, _ in
            let tom = try await Self.signUpTom(application)
            let jerry = LCUser(application: application)
            jerry.username = "Jerry"
            jerry.password = "mouse"
            try await jerry.signUp()
            let copy = LCUser(application: application, className: "_User", objectId: try #require(tom.objectId?.value))
            try copy.set("nickname", value: "hacked")
            let error = try await #require(throws: LCError.self) { try await copy.save() }
            #expect(error.code != 0)
        }
    }

    @Test("updatePassword changes the password; the old one no longer logs in")
    func updatePassword() async throws {
        try await withLiveApp { application, _ in
            let user = try await Self.signUpTom(application)
            try await user.updatePassword(oldPassword: "cat!@#123", newPassword: "dog")
            _ = try await LCUser.logIn(application: application, username: "Tom", password: "dog")
            let error = try await #require(throws: LCError.self) {
                try await LCUser.logIn(application: application, username: "Tom", password: "cat!@#123")
            }
            #expect(error.code == 210)
            let wrong = try await #require(throws: LCError.self) { try await user.updatePassword(oldPassword: "nope", newPassword: "x") }
            #expect(wrong.code == 210)
        }
    }

    @Test("refreshSessionToken replaces the token; the old one is refused")
    func refresh() async throws {
        try await withLiveApp { application, _ in
            let user = try await Self.signUpTom(application)
            let old = try #require(user.sessionToken?.value)
            try await user.refreshSessionToken()
            let new = try #require(user.sessionToken?.value)
            #expect(new != old)
            #expect(application.currentUser?.sessionToken?.value == new)
            _ = try await LCUser.logIn(application: application, sessionToken: new)
            let error = try await #require(throws: LCError.self) { try await LCUser.logIn(application: application, sessionToken: old) }
            #expect(error.code == 211)
        }
    }

    @Test("a taken username fails sign-up with 202; an unknown user cannot log in (211)")
    func failures() async throws {
        try await withLiveApp { application, _ in
            _ = try await Self.signUpTom(application)
            let twin = LCUser(application: application)
            twin.username = "Tom"
            twin.password = "x"
            let taken = try await #require(throws: LCError.self) { try await twin.signUp() }
            #expect(taken.code == 202)
            let unknown = try await #require(throws: LCError.self) {
                try await LCUser.logIn(application: application, username: "Nobody", password: "x")
            }
            #expect(unknown.code == 211)
        }
    }

    @Test("password-reset and verification e-mails reach the outbox")
    func mails() async throws {
        try await withLiveApp { application, server in
            _ = try await Self.signUpTom(application)
            let jerry = LCUser(application: application)
            jerry.username = "Jerry"
            jerry.password = "mouse"
            jerry.email = "jerry@leancloud.rocks"
            try await jerry.signUp()
            try await LCUser.requestPasswordReset(application: application, email: "tom@leancloud.rocks")
            #expect(server.mailOutbox.last(to: "tom@leancloud.rocks") != nil)
            try await LCUser.requestVerificationMail(application: application, email: "jerry@leancloud.rocks")
            #expect(server.mailOutbox.last(to: "jerry@leancloud.rocks") != nil)
            let again = try await #require(throws: LCError.self) {
                try await LCUser.requestPasswordReset(application: application, email: "jerry@leancloud.rocks")
            }
            #expect(again.code == 601)
        }
    }
}
