import Cirrus
import CirrusTesting
import Foundation
import Testing

/// The SMS-code flows against an in-process server over HTTP; codes are read from the server's SMS outbox. Each
/// flow uses its own number (one message per number per minute).
@Suite("SMS flows on a live server")
struct PhoneLiveTests {
    /// The code of the last message sent to `number`.
    static func code(_ server: LiveTestServer, _ number: String) throws -> String {
        try #require(server.smsOutbox.last(to: number)?.code)
    }

    /// Signs up a user with a phone number and password.
    static func signUp(_ application: LCApplication, _ number: String) async throws -> LCUser {
        let user = LCUser(application: application)
        user.username = LCString("u" + number.dropFirst())
        user.password = "secret"
        user.mobilePhoneNumber = LCString(number)
        try await user.signUp()
        return user
    }

    @Test("LCSMSClient sends a code and checks it; a wrong code is refused")
    func smsClient() async throws {
        try await withLiveApp { application, server in
            try await LCSMSClient.requestVerificationCode(application: application, mobilePhoneNumber: "+8618600000001", operation: "sign-up")
            let code = try Self.code(server, "+8618600000001")
            let wrong = try await #require(throws: LCError.self) {
                try await LCSMSClient.verifyMobilePhoneNumber(application: application, "+8618600000001", verificationCode: code == "000000" ? "111111" : "000000")
            }
            #expect(wrong.code == 603)
            try await LCSMSClient.verifyMobilePhoneNumber(application: application, "+8618600000001", verificationCode: code)
        }
    }

    @Test("signUpOrLogIn with a code creates a user named after the phone number")
    func signUpByCode() async throws {
        try await withLiveApp { application, server in
            try await LCSMSClient.requestVerificationCode(application: application, mobilePhoneNumber: "+8618600000002")
            let user = try await LCUser.signUpOrLogIn(
                application: application, mobilePhoneNumber: "+8618600000002", verificationCode: try Self.code(server, "+8618600000002")
            )
            #expect(user.username?.value == "+8618600000002")
            #expect(user.mobilePhoneNumber?.value == "+8618600000002")
            #expect(application.currentUser === user)
        }
    }

    @Test("a log-in code logs the user in")
    func logInByCode() async throws {
        try await withLiveApp { application, server in
            let user = try await Self.signUp(application, "+8618600000003")
            LCUser.logOut(application: application)
            try await LCUser.requestLoginVerificationCode(application: application, mobilePhoneNumber: "+8618600000003")
            let again = try await LCUser.logIn(
                application: application, mobilePhoneNumber: "+8618600000003", verificationCode: try Self.code(server, "+8618600000003")
            )
            #expect(again.objectId == user.objectId)
            #expect(application.currentUser === again)
        }
    }

    @Test("a verification code marks the phone number verified")
    func verifyPhone() async throws {
        try await withLiveApp { application, server in
            let user = try await Self.signUp(application, "+8618600000004")
            try await LCUser.requestVerificationCode(application: application, mobilePhoneNumber: "+8618600000004")
            try await LCUser.verifyMobilePhoneNumber(
                application: application, mobilePhoneNumber: "+8618600000004", verificationCode: try Self.code(server, "+8618600000004")
            )
            try await user.fetch()
            #expect(user.mobilePhoneVerified?.value == true)
        }
    }

    @Test("the current user changes its phone number with a code sent to the new number")
    func changePhone() async throws {
        try await withLiveApp { application, server in
            let user = try await Self.signUp(application, "+8618600000005")
            try await LCUser.requestVerificationCode(application: application, forUpdatingMobilePhoneNumber: "+8618600000006")
            try await LCUser.verifyVerificationCode(
                application: application, try Self.code(server, "+8618600000006"), toUpdateMobilePhoneNumber: "+8618600000006"
            )
            try await user.fetch()
            #expect(user.mobilePhoneNumber?.value == "+8618600000006")
            #expect(user.mobilePhoneVerified?.value == true)
        }
    }

    @Test("a password-reset code sets a new password")
    func resetPassword() async throws {
        try await withLiveApp { application, server in
            _ = try await Self.signUp(application, "+8618600000007")
            try await LCUser.requestPasswordReset(application: application, mobilePhoneNumber: "+8618600000007")
            try await LCUser.resetPassword(
                application: application, mobilePhoneNumber: "+8618600000007", verificationCode: try Self.code(server, "+8618600000007"),
                newPassword: "cat!@#123"
            )
            _ = try await LCUser.logIn(application: application, mobilePhoneNumber: "+8618600000007", password: "cat!@#123")
            let old = try await #require(throws: LCError.self) {
                try await LCUser.logIn(application: application, mobilePhoneNumber: "+8618600000007", password: "secret")
            }
            #expect(old.code == 210)
        }
    }
}
