import CirrusModel
import CirrusServices
import CirrusStorage
import HTTPTypes

/// The SMS-code endpoints of LeanCloud (`/1.1`) and Bmob (`/1` with `X-Bmob-*` headers). Parse has none.
///
/// LeanCloud answers `{}` (`{updatedAt, objectId}` for the changes of a user); Bmob answers `requestSmsCode` with
/// `{"smsId": …}` and the others with `{"msg":"ok"}`.
struct VerificationController: Sendable {
    let verification: VerificationService
    let users: UsersController

    func register(on router: inout APIRouter) {
        let both: Set<Dialect> = [.leancloud, .bmob]
        router.on(.post, "requestSmsCode", dialects: both, session: false) { try await requestSMSCode($0) }
        router.on(.post, "verifySmsCode/:code", dialects: both, session: false) { try await verifySMSCode($0) }
        router.on(.put, "resetPasswordBySmsCode/:code", dialects: both, session: false) { try await resetPassword($0) }
        router.on(.post, "usersByMobilePhone", dialects: [.leancloud], session: false) { try await users.signUpOrLogInByCode($0) }
        router.on(.post, "requestLoginSmsCode", dialects: [.leancloud], session: false) { request in
            try await verification.requestLogInCode(SMSCodeRequest(body: request.objectBody()))
            return APIResponse(body: [:])
        }
        router.on(.post, "requestMobilePhoneVerify", dialects: [.leancloud], session: false) { request in
            try await verification.requestPhoneVerification(SMSCodeRequest(body: request.objectBody()))
            return APIResponse(body: [:])
        }
        router.on(.post, "verifyMobilePhone/:code", dialects: [.leancloud], session: false) { try await verifyPhone($0) }
        router.on(.post, "requestChangePhoneNumber", dialects: [.leancloud]) { request in
            try await verification.requestPhoneChange(SMSCodeRequest(body: request.objectBody()), caller: request.caller)
            return APIResponse(body: [:])
        }
        router.on(.post, "changePhoneNumber", dialects: [.leancloud]) { try await changePhone($0) }
        router.on(.post, "requestPasswordResetBySmsCode", dialects: [.leancloud], session: false) { request in
            try await verification.requestPasswordResetCode(SMSCodeRequest(body: request.objectBody()))
            return APIResponse(body: [:])
        }
    }

    /// `{}`, or Bmob's `{"smsId": <int>}`.
    func requestSMSCode(_ request: APIRequest) async throws -> APIResponse {
        let smsId = try await verification.requestSMSCode(SMSCodeRequest(body: request.objectBody()))
        return APIResponse(body: request.dialect == .bmob ? ["smsId": .int(smsId)] : [:])
    }

    func verifySMSCode(_ request: APIRequest) async throws -> APIResponse {
        let body = try Self.optionalBody(request)
        try await verification.verifySMSCode(request.parameter("code"), phoneNumber: body["mobilePhoneNumber"])
        return APIResponse(body: Self.done(request))
    }

    /// `PUT resetPasswordBySmsCode/<code> {password[, mobilePhoneNumber]}`.
    func resetPassword(_ request: APIRequest) async throws -> APIResponse {
        let body = try request.objectBody()
        try await verification.resetPassword(code: request.parameter("code"), phoneNumber: body["mobilePhoneNumber"], password: body["password"])
        return APIResponse(body: Self.done(request))
    }

    func verifyPhone(_ request: APIRequest) async throws -> APIResponse {
        let body = try Self.optionalBody(request)
        let user = try await verification.verifyPhone(code: request.parameter("code"), phoneNumber: body["mobilePhoneNumber"])
        return APIResponse(body: Self.changed(request, user))
    }

    func changePhone(_ request: APIRequest) async throws -> APIResponse {
        let body = try request.objectBody()
        let user = try await verification.changePhone(number: body["mobilePhoneNumber"], code: body["code"] ?? body["smsCode"], caller: request.caller)
        return APIResponse(body: Self.changed(request, user))
    }

    /// The body as an object; no body is `{}` (LeanCloud's JS SDK sends none to `verifyMobilePhone`).
    static func optionalBody(_ request: APIRequest) throws(APIError) -> JSON {
        let isEmpty = request.bodyText?.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 } ?? true
        if request.parsedBody == nil, isEmpty { return [:] }
        return try request.objectBody()
    }

    /// `{}`, or Bmob's `{"msg":"ok"}`.
    static func done(_ request: APIRequest) -> JSON {
        request.dialect.acknowledgement
    }

    /// `{updatedAt, objectId}` of a user the request changed.
    static func changed(_ request: APIRequest, _ user: StoredObject) -> JSON {
        ["updatedAt": .string(request.dialect.format(user.updatedAt)), "objectId": .string(user.objectId)]
    }
}
