import CirrusServices

/// EHLO (or HELO) and the STARTTLS upgrade.
extension SMTPSession {
    /// Greets with EHLO and reads the capabilities; falls back to HELO when the server refuses EHLO.
    mutating func hello() async throws {
        let name = configuration.heloName
        let reply = try await connection.command("EHLO \(name)")
        if reply.isCompletion {
            capabilities = SMTPCapabilities(ehloReply: reply)
            return
        }
        try expect(await connection.command("HELO \(name)"), 250, after: "HELO (after EHLO was refused: \(reply.text))")
        capabilities = SMTPCapabilities()
    }

    /// Upgrades with STARTTLS as the security mode asks, then greets again over TLS.
    /// - Throws: ``MessagingError`` when STARTTLS is required but not offered, refused, or the handshake fails.
    mutating func secure() async throws {
        guard !isEncrypted, let tls else { return }
        switch configuration.security {
        case .none, .tls:
            return
        case .startTLSIfAvailable where !capabilities.startTLS:
            return
        case .startTLS where !capabilities.startTLS:
            throw MessagingError(
                "SMTP \(configuration.server) does not offer STARTTLS, which the security mode "
                    + "startTLS requires (use startTLSIfAvailable or tls, or check the port)"
            )
        case .startTLS, .startTLSIfAvailable:
            try expect(await connection.command("STARTTLS"), 220, after: "STARTTLS")
            try await connection.startTLS(tls, serverName: SMTPTLSOptions.serverName(for: configuration.host))
            isEncrypted = true
            do {
                try await hello()
            } catch {
                // A failed handshake surfaces here, as an error or as a closed connection.
                throw MessagingError("SMTP \(configuration.server): TLS after STARTTLS failed: \(error)")
            }
        }
    }
}
