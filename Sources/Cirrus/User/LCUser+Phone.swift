import CirrusModel

// The SMS-code flows of users: log-in, phone verification, phone change, password reset.
extension LCUser {
    /// Signs up or logs in with a phone number and the code sent by ``LCSMSClient/requestVerificationCode(application:mobilePhoneNumber:applicationName:operation:timeToLive:)``
    /// (`POST /1.1/usersByMobilePhone`); the user becomes the current user.
    public static func signUpOrLogIn(application: LCApplication = .default, mobilePhoneNumber: String, verificationCode: String) async throws -> LCUser {
        let body: JSON = ["mobilePhoneNumber": .string(mobilePhoneNumber), "smsCode": .string(verificationCode)]
        let reply = try await RESTClient(application: application).send("POST", "/usersByMobilePhone", body: body, session: .token(nil))
        return try become(application, reply, sessionToken: nil)
    }

    /// Sends a log-in code to the user with this phone number (`POST /1.1/requestLoginSmsCode`).
    public static func requestLoginVerificationCode(application: LCApplication = .default, mobilePhoneNumber: String) async throws {
        try await post(application, "/requestLoginSmsCode", ["mobilePhoneNumber": .string(mobilePhoneNumber)])
    }

    /// Logs in with a phone number and the code of ``requestLoginVerificationCode(application:mobilePhoneNumber:)``.
    public static func logIn(application: LCApplication = .default, mobilePhoneNumber: String, verificationCode: String) async throws -> LCUser {
        try await logIn(application, ["mobilePhoneNumber": .string(mobilePhoneNumber), "smsCode": .string(verificationCode)])
    }

    /// Sends a code that verifies the phone number of its user (`POST /1.1/requestMobilePhoneVerify`).
    public static func requestVerificationCode(application: LCApplication = .default, mobilePhoneNumber: String) async throws {
        try await post(application, "/requestMobilePhoneVerify", ["mobilePhoneNumber": .string(mobilePhoneNumber)])
    }

    /// Marks the phone number verified with the code sent (`POST /1.1/verifyMobilePhone/<code>`).
    public static func verifyMobilePhoneNumber(application: LCApplication = .default, mobilePhoneNumber: String, verificationCode: String) async throws {
        try await post(application, "/verifyMobilePhone/" + RESTClient.encode(verificationCode), ["mobilePhoneNumber": .string(mobilePhoneNumber)])
    }

    /// Sends the current user a code to change its phone number to this one (`POST /1.1/requestChangePhoneNumber`).
    public static func requestVerificationCode(application: LCApplication = .default, forUpdatingMobilePhoneNumber mobilePhoneNumber: String) async throws {
        try await post(application, "/requestChangePhoneNumber", ["mobilePhoneNumber": .string(mobilePhoneNumber)], session: .current)
    }

    /// Changes the current user's phone number with the code sent (`POST /1.1/changePhoneNumber`); the number is then
    /// verified.
    public static func verifyVerificationCode(
        application: LCApplication = .default, _ verificationCode: String, toUpdateMobilePhoneNumber mobilePhoneNumber: String
    ) async throws {
        let body: JSON = ["mobilePhoneNumber": .string(mobilePhoneNumber), "code": .string(verificationCode)]
        try await post(application, "/changePhoneNumber", body, session: .current)
    }

    /// Sends a password-reset code to the user with this phone number (`POST /1.1/requestPasswordResetBySmsCode`).
    public static func requestPasswordReset(application: LCApplication = .default, mobilePhoneNumber: String) async throws {
        try await post(application, "/requestPasswordResetBySmsCode", ["mobilePhoneNumber": .string(mobilePhoneNumber)])
    }

    /// Sets a new password with the code sent (`PUT /1.1/resetPasswordBySmsCode/<code>`).
    public static func resetPassword(
        application: LCApplication = .default, mobilePhoneNumber: String, verificationCode: String, newPassword: String
    ) async throws {
        let body: JSON = ["mobilePhoneNumber": .string(mobilePhoneNumber), "password": .string(newPassword)]
        let path = "/resetPasswordBySmsCode/" + RESTClient.encode(verificationCode)
        _ = try await RESTClient(application: application).send("PUT", path, body: body, session: .token(nil))
    }

    private static func post(_ application: LCApplication, _ path: String, _ body: JSON, session: RESTClient.Session = .token(nil)) async throws {
        _ = try await RESTClient(application: application).send("POST", path, body: body, session: session)
    }
}
