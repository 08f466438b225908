import Foundation

// The blocking forms of LCUser's calls that the other callback files do not hold.
extension LCUser {
    /// Changes the password, blocking the calling thread.
    @discardableResult
    public func updatePassword(oldPassword: String, newPassword: String) -> LCBooleanResult {
        Call.wait { try await self.updatePassword(oldPassword: oldPassword, newPassword: newPassword) }
    }

    /// Replaces the session token, blocking the calling thread.
    @discardableResult
    public func refreshSessionToken() -> LCBooleanResult {
        Call.wait { try await self.refreshSessionToken() }
    }

    /// Sends a password-reset e-mail, blocking the calling thread.
    @discardableResult
    public static func requestPasswordReset(application: LCApplication = .default, email: String) -> LCBooleanResult {
        Call.wait { try await requestPasswordReset(application: application, email: email) }
    }

    /// Sends the e-mail-verification message again, blocking the calling thread.
    @discardableResult
    public static func requestVerificationMail(application: LCApplication = .default, email: String) -> LCBooleanResult {
        Call.wait { try await requestVerificationMail(application: application, email: email) }
    }

    /// Signs up or logs in with an SMS code, blocking the calling thread.
    public static func signUpOrLogIn(application: LCApplication = .default, mobilePhoneNumber: String, verificationCode: String) -> LCValueResult<LCUser> {
        Call.wait { try await signUpOrLogIn(application: application, mobilePhoneNumber: mobilePhoneNumber, verificationCode: verificationCode) }
    }

    /// Sends a log-in code, blocking the calling thread.
    @discardableResult
    public static func requestLoginVerificationCode(application: LCApplication = .default, mobilePhoneNumber: String) -> LCBooleanResult {
        Call.wait { try await requestLoginVerificationCode(application: application, mobilePhoneNumber: mobilePhoneNumber) }
    }

    /// Sends a phone-verification code, blocking the calling thread.
    @discardableResult
    public static func requestVerificationCode(application: LCApplication = .default, mobilePhoneNumber: String) -> LCBooleanResult {
        Call.wait { try await requestVerificationCode(application: application, mobilePhoneNumber: mobilePhoneNumber) }
    }

    /// Verifies a phone number with its code, blocking the calling thread.
    @discardableResult
    public static func verifyMobilePhoneNumber(application: LCApplication = .default, mobilePhoneNumber: String, verificationCode: String) -> LCBooleanResult {
        Call.wait { try await verifyMobilePhoneNumber(application: application, mobilePhoneNumber: mobilePhoneNumber, verificationCode: verificationCode) }
    }

    /// Sends a code to change the current user's phone number, blocking the calling thread.
    @discardableResult
    public static func requestVerificationCode(application: LCApplication = .default, forUpdatingMobilePhoneNumber mobilePhoneNumber: String) -> LCBooleanResult {
        Call.wait { try await requestVerificationCode(application: application, forUpdatingMobilePhoneNumber: mobilePhoneNumber) }
    }

    /// Changes the current user's phone number with its code, blocking the calling thread.
    @discardableResult
    public static func verifyVerificationCode(
        application: LCApplication = .default, _ verificationCode: String, toUpdateMobilePhoneNumber mobilePhoneNumber: String
    ) -> LCBooleanResult {
        Call.wait { try await verifyVerificationCode(application: application, verificationCode, toUpdateMobilePhoneNumber: mobilePhoneNumber) }
    }

    /// Sends a password-reset code, blocking the calling thread.
    @discardableResult
    public static func requestPasswordReset(application: LCApplication = .default, mobilePhoneNumber: String) -> LCBooleanResult {
        Call.wait { try await requestPasswordReset(application: application, mobilePhoneNumber: mobilePhoneNumber) }
    }

    /// Sets a new password with an SMS code, blocking the calling thread.
    @discardableResult
    public static func resetPassword(
        application: LCApplication = .default, mobilePhoneNumber: String, verificationCode: String, newPassword: String
    ) -> LCBooleanResult {
        Call.wait {
            try await resetPassword(
                application: application, mobilePhoneNumber: mobilePhoneNumber, verificationCode: verificationCode, newPassword: newPassword
            )
        }
    }

    /// Logs in with a third-party account, blocking the calling thread.
    @discardableResult
    public func logIn(
        authData: [String: Any], platform: AuthDataPlatform, unionID: String? = nil, unionIDPlatform: AuthDataPlatform? = nil,
        options: AuthDataOptions = []
    ) -> LCBooleanResult {
        let json = Result { try Self.json(authData, unionID: unionID, unionIDPlatform: unionIDPlatform, options: options) }
        return Call.wait { try await self.logIn(json: json.get(), platform: platform, options: options) }
    }

    /// Links a third-party account, blocking the calling thread.
    @discardableResult
    public func associate(
        authData: [String: Any], platform: AuthDataPlatform, unionID: String? = nil, unionIDPlatform: AuthDataPlatform? = nil,
        options: AuthDataOptions = []
    ) -> LCBooleanResult {
        let json = Result { try Self.json(authData, unionID: unionID, unionIDPlatform: unionIDPlatform, options: options) }
        return Call.wait { try await self.link(platform, json.get()) }
    }

    /// Unlinks a third-party account, blocking the calling thread.
    @discardableResult
    public func disassociate(authData platform: AuthDataPlatform) -> LCBooleanResult {
        Call.wait { try await self.link(platform, nil) }
    }

    /// Logs in as a new anonymous user, blocking the calling thread.
    public static func logInAnonymously(application: LCApplication = .default) -> LCValueResult<LCUser> {
        Call.wait { try await logInAnonymously(application: application) }
    }

    /// Finds the user's roles, blocking the calling thread.
    public func getRoles() -> LCQueryResult<LCRole> {
        Call.wait { try await self.getRoles() }
    }
}

// The blocking forms of LCSMSClient's calls.
extension LCSMSClient {
    /// Sends a verification code, blocking the calling thread.
    @discardableResult
    public static func requestVerificationCode(
        application: LCApplication = .default, mobilePhoneNumber: String, applicationName: String? = nil, operation: String? = nil,
        timeToLive: Int? = nil
    ) -> LCBooleanResult {
        Call.wait {
            try await requestVerificationCode(
                application: application, mobilePhoneNumber: mobilePhoneNumber, applicationName: applicationName, operation: operation,
                timeToLive: timeToLive
            )
        }
    }

    /// Checks a code, blocking the calling thread.
    @discardableResult
    public static func verifyMobilePhoneNumber(application: LCApplication = .default, _ mobilePhoneNumber: String, verificationCode: String) -> LCBooleanResult {
        Call.wait { try await verifyMobilePhoneNumber(application: application, mobilePhoneNumber, verificationCode: verificationCode) }
    }
}

// The blocking form of an upload with progress.
extension LCFile {
    /// Uploads the file, blocking the calling thread; `progress` is called on the thread the upload reports from.
    @discardableResult
    public func save(progress: @escaping @Sendable (Double) -> Void) -> LCBooleanResult {
        Call.wait { try await self.save(progress: progress) }
    }
}
