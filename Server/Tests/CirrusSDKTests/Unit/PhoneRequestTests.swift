@testable import Cirrus
import CirrusModel
import Foundation
import Testing

/// The requests of the SMS-code flows.
@Suite("SMS requests")
struct PhoneRequestTests {
    /// A call, and the method, path and body it must send.
    static let calls: [(String, @Sendable (LCApplication) async throws -> Void, String, String, String)] = [
        ("SMS code", { try await LCSMSClient.requestVerificationCode(application: $0, mobilePhoneNumber: "+1", applicationName: "App", operation: "op", timeToLive: 10) },
         "POST", "/1.1/requestSmsCode", #"{"mobilePhoneNumber":"+1","name":"App","op":"op","ttl":10}"#),
        ("SMS check", { try await LCSMSClient.verifyMobilePhoneNumber(application: $0, "+1", verificationCode: "123456") },
         "POST", "/1.1/verifySmsCode/123456", #"{"mobilePhoneNumber":"+1"}"#),
        ("log-in code", { try await LCUser.requestLoginVerificationCode(application: $0, mobilePhoneNumber: "+1") },
         "POST", "/1.1/requestLoginSmsCode", #"{"mobilePhoneNumber":"+1"}"#),
        ("phone verification code", { try await LCUser.requestVerificationCode(application: $0, mobilePhoneNumber: "+1") },
         "POST", "/1.1/requestMobilePhoneVerify", #"{"mobilePhoneNumber":"+1"}"#),
        ("phone verification", { try await LCUser.verifyMobilePhoneNumber(application: $0, mobilePhoneNumber: "+1", verificationCode: "123456") },
         "POST", "/1.1/verifyMobilePhone/123456", #"{"mobilePhoneNumber":"+1"}"#),
        ("phone change code", { try await LCUser.requestVerificationCode(application: $0, forUpdatingMobilePhoneNumber: "+1") },
         "POST", "/1.1/requestChangePhoneNumber", #"{"mobilePhoneNumber":"+1"}"#),
        ("phone change", { try await LCUser.verifyVerificationCode(application: $0, "123456", toUpdateMobilePhoneNumber: "+1") },
         "POST", "/1.1/changePhoneNumber", #"{"mobilePhoneNumber":"+1","code":"123456"}"#),
        ("password-reset code", { try await LCUser.requestPasswordReset(application: $0, mobilePhoneNumber: "+1") },
         "POST", "/1.1/requestPasswordResetBySmsCode", #"{"mobilePhoneNumber":"+1"}"#),
        ("password reset", { try await LCUser.resetPassword(application: $0, mobilePhoneNumber: "+1", verificationCode: "123456", newPassword: "p") },
         "PUT", "/1.1/resetPasswordBySmsCode/123456", #"{"mobilePhoneNumber":"+1","password":"p"}"#),
    ]

    @Test("each SMS call sends its method, path and body", arguments: calls.map { ($0.0, $0.1, $0.2, $0.3, $0.4) })
    func request(name: String, call: @Sendable (LCApplication) async throws -> Void, method: String, path: String, body: String) async throws {
        let transport = RecordingTransport(json: ["{}"])
        try await call(try makeApplication(transport))
        let request = try #require(transport.requests.first)
        #expect(request.method == method, "\(name)")
        #expect(request.path == path, "\(name)")
        #expect(request.json == (try json(body)), "\(name)")
    }

    @Test("log-in with an SMS code posts /1.1/login with smsCode; sign-up by code posts /1.1/usersByMobilePhone")
    func logIn() async throws {
        let transport = RecordingTransport(json: [#"{"objectId":"u1","sessionToken":"t"}"#])
        let application = try makeApplication(transport)
        _ = try await LCUser.logIn(application: application, mobilePhoneNumber: "+1", verificationCode: "123456")
        _ = try await LCUser.signUpOrLogIn(application: application, mobilePhoneNumber: "+1", verificationCode: "123456")
        #expect(transport.requests.map(\.path) == ["/1.1/login", "/1.1/usersByMobilePhone"])
        #expect(transport.requests.allSatisfy { $0.json == ["mobilePhoneNumber": "+1", "smsCode": "123456"] })
        #expect(application.currentUser?.sessionToken?.value == "t")
    }
}
