import CirrusModel
import CirrusServices
import HTTPTypes

/// The e-mail endpoints: verification and password reset requests in every dialect. The links they mail open
/// ``AccountPages``.
struct AccountMailController: Sendable {
    let verification: VerificationService

    func register(on router: inout APIRouter) {
        router.on(.post, "requestEmailVerify", dialects: [.leancloud, .bmob], session: false) { try await requestVerification($0) }
        router.on(.post, "verificationEmailRequest", dialects: [.parse], session: false) { try await requestVerification($0) }
        router.on(.post, "requestPasswordReset", session: false) { request in
            let body = try request.objectBody()
            try await verification.requestPasswordReset(email: body["email"], matchUsername: request.dialect == .leancloud)
            return APIResponse(body: VerificationController.done(request))
        }
    }

    func requestVerification(_ request: APIRequest) async throws -> APIResponse {
        try await verification.requestEmailVerification(email: request.objectBody()["email"])
        return APIResponse(body: VerificationController.done(request))
    }
}
