public import Foundation

// The completion-handler and blocking forms of LCUser's calls.
extension LCUser {
    /// Signs up; `completion` gets the result on `completionQueue`.
    @discardableResult
    public func signUp(completionQueue: DispatchQueue = .main, completion: @escaping (LCBooleanResult) -> Void) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await self.signUp() }
    }

    /// Signs up, blocking the calling thread.
    public func signUp() -> LCBooleanResult {
        Call.wait { try await self.signUp() }
    }

    /// Logs in with a username; `completion` gets `.success(object: user)` or `.failure(error:)`.
    @discardableResult
    public static func logIn(
        application: LCApplication = .default, username: String, password: String, completionQueue: DispatchQueue = .main,
        completion: @escaping (LCValueResult<LCUser>) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await logIn(application: application, username: username, password: password) }
    }

    /// Logs in with a username, blocking the calling thread.
    public static func logIn(application: LCApplication = .default, username: String, password: String) -> LCValueResult<LCUser> {
        Call.wait { try await logIn(application: application, username: username, password: password) }
    }

    /// Logs in with an e-mail address; `completion` gets `.success(object: user)` or `.failure(error:)`.
    @discardableResult
    public static func logIn(
        application: LCApplication = .default, email: String, password: String, completionQueue: DispatchQueue = .main,
        completion: @escaping (LCValueResult<LCUser>) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await logIn(application: application, email: email, password: password) }
    }

    /// Logs in with an e-mail address, blocking the calling thread.
    public static func logIn(application: LCApplication = .default, email: String, password: String) -> LCValueResult<LCUser> {
        Call.wait { try await logIn(application: application, email: email, password: password) }
    }

    /// Logs in with a phone number and password; `completion` gets `.success(object: user)` or `.failure(error:)`.
    @discardableResult
    public static func logIn(
        application: LCApplication = .default, mobilePhoneNumber: String, password: String, completionQueue: DispatchQueue = .main,
        completion: @escaping (LCValueResult<LCUser>) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) {
            try await logIn(application: application, mobilePhoneNumber: mobilePhoneNumber, password: password)
        }
    }

    /// Logs in with a phone number and password, blocking the calling thread.
    public static func logIn(application: LCApplication = .default, mobilePhoneNumber: String, password: String) -> LCValueResult<LCUser> {
        Call.wait { try await logIn(application: application, mobilePhoneNumber: mobilePhoneNumber, password: password) }
    }

    /// Logs in with a session token; `completion` gets `.success(object: user)` or `.failure(error:)`.
    @discardableResult
    public static func logIn(
        application: LCApplication = .default, sessionToken: String, completionQueue: DispatchQueue = .main,
        completion: @escaping (LCValueResult<LCUser>) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await logIn(application: application, sessionToken: sessionToken) }
    }

    /// Logs in with a session token, blocking the calling thread.
    public static func logIn(application: LCApplication = .default, sessionToken: String) -> LCValueResult<LCUser> {
        Call.wait { try await logIn(application: application, sessionToken: sessionToken) }
    }

    /// Changes the password; `completion` gets the result on `completionQueue`.
    @discardableResult
    public func updatePassword(
        oldPassword: String, newPassword: String, completionQueue: DispatchQueue = .main, completion: @escaping (LCBooleanResult) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await self.updatePassword(oldPassword: oldPassword, newPassword: newPassword) }
    }

    /// Replaces the session token; `completion` gets the result on `completionQueue`.
    @discardableResult
    public func refreshSessionToken(completionQueue: DispatchQueue = .main, completion: @escaping (LCBooleanResult) -> Void) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await self.refreshSessionToken() }
    }

    /// Sends a password-reset e-mail; `completion` gets the result on `completionQueue`.
    @discardableResult
    public static func requestPasswordReset(
        application: LCApplication = .default, email: String, completionQueue: DispatchQueue = .main,
        completion: @escaping (LCBooleanResult) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await requestPasswordReset(application: application, email: email) }
    }

    /// Sends the e-mail-verification message again; `completion` gets the result on `completionQueue`.
    @discardableResult
    public static func requestVerificationMail(
        application: LCApplication = .default, email: String, completionQueue: DispatchQueue = .main,
        completion: @escaping (LCBooleanResult) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await requestVerificationMail(application: application, email: email) }
    }
}
