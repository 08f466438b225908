@testable import Cirrus
import CirrusModel
import Foundation
import Testing

/// The requests of LCUser's calls, and the current user.
@Suite("User requests")
struct UserRequestTests {
    static let userReply = #"{"objectId":"u1","username":"Tom","sessionToken":"token-1","createdAt":"2026-01-01T00:00:00.000Z"}"#

    @Test("sign-up posts /1.1/users, forgets the password and becomes the current user")
    func signUp() async throws {
        let transport = RecordingTransport(json: [Self.userReply])
        let application = try makeApplication(transport)
        let user = LCUser(application: application)
        user.username = LCString("Tom")
        user.password = "cat!@#123"
        try user.set("email", value: "tom@leancloud.rocks")
        try await user.signUp()
        let request = try #require(transport.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/1.1/users")
        #expect(request.json == (try json(#"{"username":"Tom","password":"cat!@#123","email":"tom@leancloud.rocks"}"#)))
        #expect(user.sessionToken?.value == "token-1")
        #expect(user.password == nil)
        #expect(application.currentUser === user)
    }

    @Test("log-ins post /1.1/login with the credentials given", arguments: [
        ("username", #"{"username":"Tom","password":"p"}"#),
        ("email", #"{"email":"tom@leancloud.rocks","password":"p"}"#),
        ("mobilePhoneNumber", #"{"mobilePhoneNumber":"+19490008888","password":"p"}"#),
    ])
    func logIn(kind: String, body: String) async throws {
        let transport = RecordingTransport(json: [Self.userReply])
        let application = try makeApplication(transport)
        let user: LCUser
        switch kind {
        case "username": user = try await LCUser.logIn(application: application, username: "Tom", password: "p")
        case "email": user = try await LCUser.logIn(application: application, email: "tom@leancloud.rocks", password: "p")
        default: user = try await LCUser.logIn(application: application, mobilePhoneNumber: "+19490008888", password: "p")
        }
        #expect(transport.requests.first?.path == "/1.1/login")
        #expect(transport.requests.first?.json == (try json(body)))
        #expect(user.username?.value == "Tom")
        #expect(application.currentUser?.sessionToken?.value == "token-1")
    }

    @Test("the current user's session token goes with requests until log-out")
    func sessionHeader() async throws {
        let transport = RecordingTransport(json: [Self.userReply, #"{"results":[]}"#, #"{"results":[]}"#])
        let application = try makeApplication(transport)
        _ = try await LCUser.logIn(application: application, username: "Tom", password: "p")
        #expect(transport.requests[0].headers["X-LC-Session"] == nil)
        _ = try await LCQuery(application: application, className: "Todo").find()
        #expect(transport.requests[1].headers["X-LC-Session"] == "token-1")
        LCUser.logOut(application: application)
        #expect(application.currentUser == nil)
        _ = try await LCQuery(application: application, className: "Todo").find()
        #expect(transport.requests[2].headers["X-LC-Session"] == nil)
    }

    @Test("logIn(sessionToken:) reads /1.1/users/me with that token")
    func sessionToken() async throws {
        let transport = RecordingTransport(json: [#"{"objectId":"u1","username":"Tom"}"#])
        let application = try makeApplication(transport)
        let user = try await LCUser.logIn(application: application, sessionToken: "anmlwi96s381m6ca7o7266pzf")
        #expect(transport.requests.first?.path == "/1.1/users/me")
        #expect(transport.requests.first?.headers["X-LC-Session"] == "anmlwi96s381m6ca7o7266pzf")
        #expect(user.sessionToken?.value == "anmlwi96s381m6ca7o7266pzf")
    }

    @Test("updatePassword and refreshSessionToken PUT under the user and keep the new token")
    func passwordAndToken() async throws {
        let transport = RecordingTransport(json: [Self.userReply, #"{"sessionToken":"token-2"}"#, #"{"objectId":"u1","sessionToken":"token-3"}"#])
        let application = try makeApplication(transport)
        let user = try await LCUser.logIn(application: application, username: "Tom", password: "p")
        try await user.updatePassword(oldPassword: "p", newPassword: "q")
        #expect(transport.requests[1].method == "PUT")
        #expect(transport.requests[1].path == "/1.1/users/u1/updatePassword")
        #expect(transport.requests[1].json == (try json(#"{"old_password":"p","new_password":"q"}"#)))
        #expect(transport.requests[1].headers["X-LC-Session"] == "token-1")
        try await user.refreshSessionToken()
        #expect(transport.requests[2].path == "/1.1/users/u1/refreshSessionToken")
        #expect(transport.requests[2].headers["X-LC-Session"] == "token-2")
        #expect(application.currentUser?.sessionToken?.value == "token-3")
    }

    @Test("the mail requests post the address")
    func mail() async throws {
        let transport = RecordingTransport(json: ["{}"])
        let application = try makeApplication(transport)
        try await LCUser.requestPasswordReset(application: application, email: "tom@leancloud.rocks")
        try await LCUser.requestVerificationMail(application: application, email: "tom@leancloud.rocks")
        #expect(transport.requests.map(\.path) == ["/1.1/requestPasswordReset", "/1.1/requestEmailVerify"])
        #expect(transport.requests.allSatisfy { $0.json == ["email": "tom@leancloud.rocks"] })
    }

    @Test("the current user is kept in a file and read back by the next launch")
    func persisted() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cirrus-sdk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transport = RecordingTransport(json: [Self.userReply])
        let configuration = LCApplication.Configuration(transport: transport, currentUserStorage: .directory(directory))
        let application = try LCApplication(id: "app", key: "key", serverURL: "https://api.example.com", configuration: configuration)
        _ = try await LCUser.logIn(application: application, username: "Tom", password: "p")
        let relaunched = try LCApplication(id: "app", key: "key", serverURL: "https://api.example.com", configuration: configuration)
        let current = try #require(relaunched.currentUser)
        #expect(current.objectId?.value == "u1")
        #expect(current.username?.value == "Tom")
        #expect(current.sessionToken?.value == "token-1")
        LCUser.logOut(application: relaunched)
        let again = try LCApplication(id: "app", key: "key", serverURL: "https://api.example.com", configuration: configuration)
        #expect(again.currentUser == nil)
    }

    @Test("fetching the current user keeps its session token, which later requests still carry")
    func fetchKeepsToken() async throws {
        let transport = RecordingTransport(json: [Self.userReply, #"{"objectId":"u1","username":"Tom","nickname":"tommy"}"#, #"{"results":[]}"#])
        let application = try makeApplication(transport)
        let user = try await LCUser.logIn(application: application, username: "Tom", password: "p")
        try await user.fetch()
        #expect(user.get("nickname")?.stringValue == "tommy")
        #expect(user.sessionToken?.value == "token-1")
        _ = try await LCQuery(application: application, className: "Todo").find()
        #expect(transport.requests[1].headers["X-LC-Session"] == "token-1")
        #expect(transport.requests[2].headers["X-LC-Session"] == "token-1")
    }
}

/// Which session token the writes of a user carry.
@Suite("User write sessions")
struct UserWriteSessionTests {
    @Test("a user read by a query saves and deletes without a session token, even when it is the current user's account; reads carry the current user's")
    func unauthenticatedCopy() async throws {
        let updated = #"{"updatedAt":"2026-01-02T00:00:00.000Z"}"#
        let transport = RecordingTransport(
            json: [UserRequestTests.userReply, updated, #"{"objectId":"u1","username":"Toodle"}"#, "{}", updated]
        )
        let application = try makeApplication(transport)
        let tom = try await LCUser.logIn(application: application, username: "Tom", password: "p")
        let copy = LCUser(application: application, className: "_User", objectId: try #require(tom.objectId))
        try copy.set("username", value: "Toodle")
        try await copy.save()
        try await copy.fetch()
        try await copy.delete()
        try tom.set("username", value: "Jerry")
        try await tom.save()
        let sessions = transport.requests.dropFirst().map { "\($0.method) \($0.headers["X-LC-Session"] ?? "none")" }
        #expect(sessions == ["PUT none", "GET token-1", "DELETE none", "PUT token-1"])
    }
}
