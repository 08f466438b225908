import CirrusServices
import Foundation

/// AUTH PLAIN, or AUTH LOGIN when the server does not offer PLAIN.
extension SMTPSession {
    /// Authenticates with the configured credentials, if any.
    /// - Throws: ``MessagingError`` when the server offers neither mechanism or refuses the credentials.
    mutating func authenticate() async throws {
        guard let credentials = configuration.credentials else { return }
        let offered = capabilities.authMechanisms
        if offered.contains("PLAIN") {
            try await authenticatePlain(credentials)
        } else if offered.contains("LOGIN") {
            try await authenticateLogin(credentials)
        } else {
            let list = offered.isEmpty ? "none" : offered.sorted().joined(separator: " ")
            let hint = isEncrypted ? "" : " (many servers offer AUTH only over TLS)"
            throw MessagingError(
                "SMTP \(configuration.server) offers no AUTH PLAIN or LOGIN (offered: \(list))\(hint)"
            )
        }
    }

    private mutating func authenticatePlain(_ credentials: SMTPConfiguration.Credentials) async throws {
        let token = Self.base64("\0\(credentials.username)\0\(credentials.password)")
        let reply = try await connection.command("AUTH PLAIN \(token)", logged: "AUTH PLAIN <credentials>")
        try expect(reply, 235, after: "authentication (AUTH PLAIN)")
    }

    private mutating func authenticateLogin(_ credentials: SMTPConfiguration.Credentials) async throws {
        try expect(await connection.command("AUTH LOGIN"), 334, after: "AUTH LOGIN")
        let afterName = try await connection.command(Self.base64(credentials.username), logged: "<username>")
        try expect(afterName, 334, after: "the user name (AUTH LOGIN)")
        let afterPassword = try await connection.command(Self.base64(credentials.password), logged: "<password>")
        try expect(afterPassword, 235, after: "authentication (AUTH LOGIN)")
    }

    static func base64(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
    }
}
