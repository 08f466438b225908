public import Foundation

// The completion-handler and blocking forms of the SMS-code flows.
extension LCUser {
    /// Signs up or logs in with an SMS code; `completion` gets `.success(object: user)` or `.failure(error:)`.
    @discardableResult
    public static func signUpOrLogIn(
        application: LCApplication = .default, mobilePhoneNumber: String, verificationCode: String, completionQueue: DispatchQueue = .main,
        completion: @escaping (LCValueResult<LCUser>) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) {
            try await signUpOrLogIn(application: application, mobilePhoneNumber: mobilePhoneNumber, verificationCode: verificationCode)
        }
    }

    /// Sends a log-in code; `completion` gets the result on `completionQueue`.
    @discardableResult
    public static func requestLoginVerificationCode(
        application: LCApplication = .default, mobilePhoneNumber: String, completionQueue: DispatchQueue = .main,
        completion: @escaping (LCBooleanResult) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) {
            try await requestLoginVerificationCode(application: application, mobilePhoneNumber: mobilePhoneNumber)
        }
    }

    /// Logs in with an SMS code; `completion` gets `.success(object: user)` or `.failure(error:)`.
    @discardableResult
    public static func logIn(
        application: LCApplication = .default, mobilePhoneNumber: String, verificationCode: String, completionQueue: DispatchQueue = .main,
        completion: @escaping (LCValueResult<LCUser>) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) {
            try await logIn(application: application, mobilePhoneNumber: mobilePhoneNumber, verificationCode: verificationCode)
        }
    }

    /// Logs in with an SMS code, blocking the calling thread.
    public static func logIn(application: LCApplication = .default, mobilePhoneNumber: String, verificationCode: String) -> LCValueResult<LCUser> {
        Call.wait { try await logIn(application: application, mobilePhoneNumber: mobilePhoneNumber, verificationCode: verificationCode) }
    }

    /// Sends a phone-verification code; `completion` gets the result on `completionQueue`.
    @discardableResult
    public static func requestVerificationCode(
        application: LCApplication = .default, mobilePhoneNumber: String, completionQueue: DispatchQueue = .main,
        completion: @escaping (LCBooleanResult) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) {
            try await requestVerificationCode(application: application, mobilePhoneNumber: mobilePhoneNumber)
        }
    }

    /// Verifies a phone number with its code; `completion` gets the result on `completionQueue`.
    @discardableResult
    public static func verifyMobilePhoneNumber(
        application: LCApplication = .default, mobilePhoneNumber: String, verificationCode: String, completionQueue: DispatchQueue = .main,
        completion: @escaping (LCBooleanResult) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) {
            try await verifyMobilePhoneNumber(application: application, mobilePhoneNumber: mobilePhoneNumber, verificationCode: verificationCode)
        }
    }

    /// Sends a code to change the current user's phone number; `completion` gets the result on `completionQueue`.
    @discardableResult
    public static func requestVerificationCode(
        application: LCApplication = .default, forUpdatingMobilePhoneNumber mobilePhoneNumber: String, completionQueue: DispatchQueue = .main,
        completion: @escaping (LCBooleanResult) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) {
            try await requestVerificationCode(application: application, forUpdatingMobilePhoneNumber: mobilePhoneNumber)
        }
    }

    /// Changes the current user's phone number with its code; `completion` gets the result on `completionQueue`.
    @discardableResult
    public static func verifyVerificationCode(
        application: LCApplication = .default, _ verificationCode: String, toUpdateMobilePhoneNumber mobilePhoneNumber: String,
        completionQueue: DispatchQueue = .main, completion: @escaping (LCBooleanResult) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) {
            try await verifyVerificationCode(application: application, verificationCode, toUpdateMobilePhoneNumber: mobilePhoneNumber)
        }
    }

    /// Sends a password-reset code; `completion` gets the result on `completionQueue`.
    @discardableResult
    public static func requestPasswordReset(
        application: LCApplication = .default, mobilePhoneNumber: String, completionQueue: DispatchQueue = .main,
        completion: @escaping (LCBooleanResult) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) {
            try await requestPasswordReset(application: application, mobilePhoneNumber: mobilePhoneNumber)
        }
    }

    /// Sets a new password with an SMS code; `completion` gets the result on `completionQueue`.
    @discardableResult
    public static func resetPassword(
        application: LCApplication = .default, mobilePhoneNumber: String, verificationCode: String, newPassword: String,
        completionQueue: DispatchQueue = .main, completion: @escaping (LCBooleanResult) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) {
            try await resetPassword(
                application: application, mobilePhoneNumber: mobilePhoneNumber, verificationCode: verificationCode, newPassword: newPassword
            )
        }
    }
}
