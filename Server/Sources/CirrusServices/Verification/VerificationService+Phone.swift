package import CirrusModel
package import CirrusStorage

/// The SMS flows of LeanCloud (`/1.1`) and Bmob (`/1`): generic codes, sign-up or log-in by code, phone
/// verification, changing the number, and password reset by code.
extension VerificationService {
    /// `requestSmsCode`: sends a generic code to any number.
    /// - Returns: an id for the message (Bmob's `smsId`).
    package func requestSMSCode(_ request: SMSCodeRequest) async throws -> Int64 {
        let smsId = Int64.random(in: 10_000_000...99_999_999)
        try await sendCode(request, purpose: .sms, userId: nil, data: ["smsId": .int(smsId)])
        return smsId
    }

    /// `verifySmsCode/<code>`: checks and uses a generic code.
    /// - Throws: ``APIError`` ``APIError/Reason/invalidCode`` or ``APIError/Reason/mobilePhoneNumberMissing``.
    package func verifySMSCode(_ code: String, phoneNumber: JSON?) async throws {
        let number = try SMSCodeRequest.phoneNumber(phoneNumber)
        try await redeem(CodeCheck(code: code, number: number, purposes: [.sms])) {}
    }

    /// `requestLoginSmsCode`: sends a log-in code to a user's number.
    /// - Throws: ``APIError`` ``APIError/Reason/mobilePhoneNumberNotFound`` (213) when no user has the number.
    package func requestLogInCode(_ request: SMSCodeRequest) async throws {
        let user = try await user(withNumber: request.phoneNumber)
        try await sendCode(request, purpose: .login, userId: user.objectId)
    }

    /// `POST login {mobilePhoneNumber, smsCode}`: logs in the user with the number by a log-in or generic code, and
    /// marks the number verified.
    /// - Throws: ``APIError`` ``APIError/Reason/userNotFound`` (211), ``APIError/Reason/invalidCode`` or
    ///   ``APIError/Reason/accountLocked``.
    package func logIn(phoneNumber: String, code: String, session: SessionRequest) async throws -> LoggedInUser {
        guard let user = try await users.findUser(.mobilePhoneNumber(phoneNumber)) else {
            throw APIError(.userNotFound, "Could not find user.")
        }
        let check = CodeCheck(code: code, number: phoneNumber, purposes: [.login, .sms], account: user.objectId, owner: user.objectId)
        return try await redeem(check) { try await logInByCode(user, session: session) }
    }

    /// LeanCloud's `usersByMobilePhone` and Bmob's `POST /users {mobilePhoneNumber, smsCode}`: logs in the user with
    /// the number (200), or signs one up (201) whose username is the number unless the body names one, whose
    /// number is verified and who has no password unless the body gives one.
    /// - Throws: ``APIError`` for a missing or invalid number or code, a taken username or e-mail, a locked account.
    package func signUpOrLogIn(body: JSON, options: WriteOptions, session: SessionRequest, caller: Caller) async throws -> LoggedInUser {
        guard case .object(var members) = body else { throw APIError(.invalidJSON, "A JSON object is expected as the body.") }
        let number = try SMSCodeRequest.phoneNumber(members["mobilePhoneNumber"])
        let code = try Self.code(members.removeValue(forKey: "smsCode"))
        let existing = try await users.findUser(.mobilePhoneNumber(number))
        let check = CodeCheck(code: code, number: number, purposes: [.sms, .login], account: existing?.objectId, owner: existing?.objectId)
        return try await redeem(check) {
            if let existing { return try await logInByCode(existing, session: session) }
            if members["username"] == nil { members["username"] = .string(number) }
            if members["password"]?.stringValue == "" || members["password"]?.isNull == true { members.removeValue(forKey: "password") }
            let update = try ObjectUpdate(body: .object(members), isCreate: true, defaultOffsetMinutes: options.defaultOffsetMinutes)
            let created = try await users.insertUser(update, options: options, session: session, action: "signup", caller: caller, verified: ["mobilePhoneVerified"])
            users.announceVerified(.sms, user: created.user)
            return created
        }
    }

    /// `requestMobilePhoneVerify`: sends a verification code to a user's number; nothing when it is verified already.
    /// - Throws: ``APIError`` ``APIError/Reason/mobilePhoneNumberNotFound`` (213).
    package func requestPhoneVerification(_ request: SMSCodeRequest) async throws {
        let user = try await user(withNumber: request.phoneNumber)
        guard user.fields["mobilePhoneVerified"] != .bool(true) else { return }
        try await sendCode(request, purpose: .verifyPhone, userId: user.objectId)
    }

    /// `verifyMobilePhone/<code>`: marks the number verified. Without a number, the number the code went to.
    /// - Returns: the user after the change.
    /// - Throws: ``APIError`` ``APIError/Reason/invalidCode``, ``APIError/Reason/accountLocked``.
    package func verifyPhone(code: String, phoneNumber: JSON?) async throws -> StoredObject {
        let purposes: [CodePurpose] = [.verifyPhone, .sms]
        let number = try await numberOrCodeTarget(phoneNumber, code: code, purposes: purposes)
        guard let user = try await users.findUser(.mobilePhoneNumber(number)) else { throw Self.invalidCode }
        let check = CodeCheck(code: code, number: number, purposes: purposes, account: user.objectId, owner: user.objectId)
        return try await redeem(check) {
            let verified = try await users.touch(user.objectId, changes: ObjectUpdate(operations: [(FieldPath(field: "mobilePhoneVerified"), .set(.bool(true)))]), writes: [])
            users.announceVerified(.sms, user: verified)
            return verified
        }
    }

    /// `requestChangePhoneNumber`: sends a code to a new number for the logged-in user (LeanCloud's default
    /// lifetime for it: 6 minutes).
    /// - Throws: ``APIError`` ``APIError/Reason/invalidSessionToken`` without a session,
    ///   ``APIError/Reason/mobilePhoneNumberTaken`` (214) when another user has the number.
    package func requestPhoneChange(_ request: SMSCodeRequest, caller: Caller) async throws {
        let userId = try Self.loggedIn(caller)
        if let holder = try await users.findUser(.mobilePhoneNumber(request.phoneNumber)), holder.objectId != userId {
            throw APIError(.mobilePhoneNumberTaken, "Mobile phone number has already been taken.")
        }
        try await sendCode(request, purpose: .changePhone, userId: userId, defaultMinutes: 6)
    }

    /// `changePhoneNumber {mobilePhoneNumber, code}`: gives the logged-in user the number the code was sent to,
    /// verified.
    /// - Returns: the user after the change.
    /// - Throws: ``APIError`` ``APIError/Reason/invalidCode`` when the code was not sent to that number for this user.
    package func changePhone(number: JSON?, code: JSON?, caller: Caller) async throws -> StoredObject {
        let userId = try Self.loggedIn(caller)
        let number = try SMSCodeRequest.phoneNumber(number)
        let check = CodeCheck(code: try Self.code(code), number: number, purposes: [.changePhone], account: userId, owner: userId)
        return try await redeem(check) {
            let changes = ObjectUpdate(operations: [
                (FieldPath(field: "mobilePhoneNumber"), .set(.string(number))), (FieldPath(field: "mobilePhoneVerified"), .set(.bool(true))),
            ])
            let changed = try await users.touch(userId, changes: changes, writes: [])
            users.announceVerified(.sms, user: changed)
            return changed
        }
    }

    /// `requestPasswordResetBySmsCode`: sends a reset code to a user's number.
    /// - Throws: ``APIError`` ``APIError/Reason/mobilePhoneNumberNotFound`` (213), or
    ///   ``APIError/Reason/mobilePhoneNumberNotVerified`` (215) when only verified numbers may reset.
    package func requestPasswordResetCode(_ request: SMSCodeRequest) async throws {
        let user = try await user(withNumber: request.phoneNumber)
        try checkResetAllowed(user)
        try await sendCode(request, purpose: .resetPasswordBySMS, userId: user.objectId)
    }

    /// `PUT resetPasswordBySmsCode/<code> {password[, mobilePhoneNumber]}`: sets a new password with a reset or
    /// generic code. Without a number (Bmob), the number the code went to. The user's stable token is revoked (every
    /// session with ``AccountSettings/revokeSessionsOnPasswordChange``) and the lock-out cleared.
    /// - Throws: ``APIError`` ``APIError/Reason/passwordMissing``, ``APIError/Reason/invalidCode``,
    ///   ``APIError/Reason/accountLocked``.
    package func resetPassword(code: String, phoneNumber: JSON?, password: JSON?) async throws {
        guard let password = password?.stringValue, !password.isEmpty else {
            throw APIError(.passwordMissing, "The new password must be a non-empty string.")
        }
        let purposes: [CodePurpose] = [.resetPasswordBySMS, .sms]
        let number = try await numberOrCodeTarget(phoneNumber, code: code, purposes: purposes)
        guard let user = try await users.findUser(.mobilePhoneNumber(number)) else { throw Self.invalidCode }
        try checkResetAllowed(user)
        let check = CodeCheck(code: code, number: number, purposes: purposes, account: user.objectId, owner: user.objectId)
        try await redeem(check) { try await users.setPassword(of: user.objectId, to: password) }
    }

    // MARK: Helpers

    private func logInByCode(_ user: StoredObject, session: SessionRequest) async throws -> LoggedInUser {
        var current = user
        if user.fields["mobilePhoneVerified"] != .bool(true) {
            current = try await users.touch(user.objectId, changes: ObjectUpdate(operations: [(FieldPath(field: "mobilePhoneVerified"), .set(.bool(true)))]), writes: [])
            users.announceVerified(.sms, user: current)
        }
        let token = try await users.logInSession(current, session)
        return LoggedInUser(user: current, sessionToken: token, isNew: false)
    }

    private func user(withNumber number: String) async throws -> StoredObject {
        guard let user = try await users.findUser(.mobilePhoneNumber(number)) else {
            throw APIError(.mobilePhoneNumberNotFound, "Mobile phone number isn't registered.")
        }
        return user
    }

    private func checkResetAllowed(_ user: StoredObject) throws(APIError) {
        if settings.requireVerifiedPhoneForSMSReset, user.fields["mobilePhoneVerified"] != .bool(true) {
            throw APIError(.mobilePhoneNumberNotVerified, "Mobile phone number isn't verified.")
        }
    }

    /// The number of the body, or else the number a live code with this value went to.
    private func numberOrCodeTarget(_ value: JSON?, code: String, purposes: [CodePurpose]) async throws -> String {
        if let value, !value.isNull { return try SMSCodeRequest.phoneNumber(value) }
        guard let number = try await number(ofCode: code, purposes: purposes) else { throw Self.invalidCode }
        return number
    }

    static func loggedIn(_ caller: Caller) throws(APIError) -> String {
        guard let userId = caller.userId else { throw APIError(.invalidSessionToken, "A session token is required.") }
        return userId
    }

    /// A code from a body member.
    /// - Throws: ``APIError`` ``APIError/Reason/invalidCode`` when it is missing or not a string or number.
    static func code(_ value: JSON?) throws(APIError) -> String {
        guard let code = value?.stringValue ?? value?.intValue.map(String.init), !code.isEmpty else {
            throw APIError(.invalidCode, "The SMS code is missing.")
        }
        return code
    }
}
