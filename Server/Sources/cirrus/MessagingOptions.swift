import ArgumentParser
import CirrusMessaging
import Foundation

/// The transports of account messages: SMTP for e-mail and an HTTP webhook for SMS. Without them, messages go to
/// the development outboxes in `<data dir>/outbox/`.
struct MessagingOptions: ParsableArguments {
    @Option(help: "SMTP server for account e-mails (CIRRUS_SMTP_HOST); without it mail goes to <data dir>/outbox/mail.jsonl.")
    var smtpHost: String?

    @Option(help: "SMTP port (CIRRUS_SMTP_PORT, default 587 for starttls, 465 for tls, 25 for none).")
    var smtpPort: Int?

    @Option(help: "SMTP security: none, starttls or tls (CIRRUS_SMTP_SECURITY, default starttls).")
    var smtpSecurity: String?

    @Option(help: "SMTP user name (CIRRUS_SMTP_USERNAME).")
    var smtpUsername: String?

    @Option(help: "SMTP password (CIRRUS_SMTP_PASSWORD).")
    var smtpPassword: String?

    @Option(help: "PEM file of the certificates to trust for SMTP instead of the system's (CIRRUS_SMTP_CA_FILE).")
    var smtpCaFile: String?

    @Option(help: "URL that SMS messages are POSTed to as JSON (CIRRUS_SMS_WEBHOOK_URL); without it they go to <data dir>/outbox/sms.jsonl.")
    var smsWebhookUrl: String?

    @Option(help: "Bearer token sent to the SMS webhook (CIRRUS_SMS_WEBHOOK_TOKEN).")
    var smsWebhookToken: String?

    /// The SMTP configuration, or `nil` when no host is given.
    /// - Throws: `ValidationError` for an unknown security mode, half a credential, SMTP settings without a host, or
    ///   an unreadable certificate file.
    func smtp(_ values: EnvironmentValues) throws -> SMTPConfiguration? {
        let username = values.string(smtpUsername, "CIRRUS_SMTP_USERNAME")
        let password = values.string(smtpPassword, "CIRRUS_SMTP_PASSWORD")
        let caFile = values.string(smtpCaFile, "CIRRUS_SMTP_CA_FILE")
        let port = try values.integer(smtpPort, "CIRRUS_SMTP_PORT")
        let securityName = values.string(smtpSecurity, "CIRRUS_SMTP_SECURITY")
        guard let host = values.string(smtpHost, "CIRRUS_SMTP_HOST") else {
            if [username, password, caFile, securityName].contains(where: { $0 != nil }) || port != nil {
                throw ValidationError("SMTP settings need --smtp-host (CIRRUS_SMTP_HOST).")
            }
            return nil
        }
        if (username == nil) != (password == nil) { throw ValidationError("Give --smtp-username and --smtp-password together.") }
        var tls = SMTPTLSOptions()
        if let caFile {
            guard let pem = try? String(contentsOfFile: caFile, encoding: .utf8) else { throw ValidationError("Cannot read \(caFile).") }
            tls.trustedCertificatesPEM = [pem]
        }
        return SMTPConfiguration(
            host: host, port: port, security: try Self.security(securityName ?? "starttls"),
            credentials: username.flatMap { name in password.map { SMTPConfiguration.Credentials(username: name, password: $0) } }, tls: tls
        )
    }

    /// The SMS webhook, or `nil` when no URL is given.
    /// - Throws: `ValidationError` for a URL that does not parse or a token without a URL.
    func smsWebhook(_ values: EnvironmentValues) throws -> WebhookSMSConfiguration? {
        let token = values.string(smsWebhookToken, "CIRRUS_SMS_WEBHOOK_TOKEN")
        guard let text = values.string(smsWebhookUrl, "CIRRUS_SMS_WEBHOOK_URL") else {
            if token != nil { throw ValidationError("--sms-webhook-token needs --sms-webhook-url (CIRRUS_SMS_WEBHOOK_URL).") }
            return nil
        }
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            throw ValidationError("The SMS webhook URL must be an http or https URL, got '\(text)'.")
        }
        return WebhookSMSConfiguration(url: url, bearerToken: token)
    }

    static func security(_ name: String) throws -> SMTPConfiguration.Security {
        switch name.lowercased() {
        case "none": .none
        case "starttls": .startTLS
        case "tls": .tls
        default: throw ValidationError("SMTP security must be none, starttls or tls, got '\(name)'.")
        }
    }
}
