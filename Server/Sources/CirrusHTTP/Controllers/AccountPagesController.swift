import CirrusModel
import CirrusServices
import HTTPTypes
import Hummingbird
import Logging

/// The pages that e-mailed links open, served outside the API prefixes:
///
/// - `GET /auth/verify-email?token=…` marks the address verified and says so, or shows an "invalid or expired
///   link" page;
/// - `GET /auth/reset-password?token=…` shows a new-password form for a valid link;
/// - `POST /auth/reset-password` (form-encoded `token`, `password`, optional `confirm`) sets the password once and
///   shows the result.
///
/// Pages are never cached or framed and send no referrer, so the token in their URL does not leak.
struct AccountPagesController: Sendable {
    let verification: VerificationService
    let logger: Logger

    /// The path prefix of the pages.
    static let prefix = "/auth/"

    /// The page for `request`, or `nil` when its path is not below ``prefix``.
    func respond(to request: Request, maximumBodySize: Int) async -> Response? {
        let path = request.uri.path
        guard path.hasPrefix(Self.prefix) else { return nil }
        let query = QueryString.parse(request.uri.query ?? "", plus: .space)
        do {
            switch (request.method, path) {
            case (.get, "/auth/verify-email"), (.head, "/auth/verify-email"):
                return try await verifyEmail(token: query["token"] ?? "")
            case (.get, "/auth/reset-password"), (.head, "/auth/reset-password"):
                return try await resetForm(token: query["token"] ?? "")
            case (.post, "/auth/reset-password"):
                var request = request
                let body = try await request.collectBody(upTo: maximumBodySize)
                let form = QueryString.parse(String(buffer: body), plus: .space)
                return try await resetPassword(form)
            case (_, "/auth/verify-email"), (_, "/auth/reset-password"):
                var response = page(.methodNotAllowed, "Not allowed", "This page cannot be used that way.")
                response.headers[.allow] = path == "/auth/verify-email" ? "GET, HEAD" : "GET, HEAD, POST"
                return response
            default:
                return page(.notFound, "Not found", "There is no such page.")
            }
        } catch {
            logger.error("account page failed", metadata: ["path": "\(path)", "error": "\(error)"])
            return page(.internalServerError, "Something went wrong", "The request could not be completed. Please try again later.")
        }
    }

    private func verifyEmail(token: String) async throws -> Response {
        guard let address = try await verification.verifyEmail(token: token) else { return invalidLink() }
        return page(.ok, "E-mail address verified", "Thank you: \(address) is now verified.")
    }

    private func resetForm(token: String) async throws -> Response {
        guard try await verification.isValidResetLink(token: token) else { return invalidLink() }
        return html(.ok, AccountPageHTML.resetForm(appName: appName, token: token, error: nil))
    }

    private func resetPassword(_ form: [String: String]) async throws -> Response {
        let token = form["token"] ?? ""
        let password = form["password"] ?? ""
        guard try await verification.isValidResetLink(token: token) else { return invalidLink() }
        if password.isEmpty || (form["confirm"].map { $0 != password } ?? false) {
            let error = password.isEmpty ? "Please enter a new password." : "The two passwords differ."
            return html(.badRequest, AccountPageHTML.resetForm(appName: appName, token: token, error: error))
        }
        guard try await verification.resetPassword(token: token, password: password) else { return invalidLink() }
        return page(.ok, "Password changed", "Your new password is set. You can log in with it now.")
    }

    private var appName: String { verification.users.objects.configuration.accounts.messaging.appName }

    private func invalidLink() -> Response {
        page(.badRequest, "Invalid or expired link", "This link is invalid, has expired or was used already. Please ask for a new one.")
    }

    private func page(_ status: HTTPResponse.Status, _ title: String, _ text: String) -> Response {
        html(status, AccountPageHTML.message(appName: appName, title: title, text: text))
    }

    private func html(_ status: HTTPResponse.Status, _ text: String) -> Response {
        let headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8", .cacheControl: "no-store", HTTPField.Name("Referrer-Policy")!: "no-referrer",
            HTTPField.Name("X-Content-Type-Options")!: "nosniff", HTTPField.Name("X-Frame-Options")!: "DENY",
            .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
        ]
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
