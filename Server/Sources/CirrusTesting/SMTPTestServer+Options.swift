extension SMTPTestServer {
    /// What the test server offers and refuses.
    package struct Options: Sendable {
        /// The certificate and key to offer TLS with; `nil` offers no STARTTLS.
        package var tls: TLSIdentity?
        /// Speak TLS from the first byte (SMTPS) instead of offering STARTTLS; needs ``tls``.
        package var implicitTLS: Bool
        /// The only accepted credentials; when set, AUTH is offered and MAIL requires it.
        package var credentials: Credentials?
        /// The AUTH mechanisms offered when ``credentials`` are set, in order.
        package var authMechanisms: [String]
        /// Whether EHLO is understood; `false` answers 502 so that clients fall back to HELO.
        package var acceptsEHLO: Bool
        /// Recipients refused with 550 (compared case-insensitively).
        package var rejectedRecipients: Set<String>
        /// Accept connections but never answer, to test client timeouts.
        package var staysSilent: Bool

        /// Creates options; the defaults are a plain server that accepts everything.
        package init(
            tls: TLSIdentity? = nil, implicitTLS: Bool = false, credentials: Credentials? = nil,
            authMechanisms: [String] = ["PLAIN", "LOGIN"], acceptsEHLO: Bool = true, rejectedRecipients: Set<String> = [],
            staysSilent: Bool = false
        ) {
            self.tls = tls
            self.implicitTLS = implicitTLS
            self.credentials = credentials
            self.authMechanisms = authMechanisms
            self.acceptsEHLO = acceptsEHLO
            self.rejectedRecipients = rejectedRecipients
            self.staysSilent = staysSilent
        }
    }

    /// A user name and password.
    package struct Credentials: Sendable, Equatable {
        package var username: String
        package var password: String

        package init(username: String, password: String) {
            self.username = username
            self.password = password
        }
    }

    /// A certificate chain and private key, both PEM.
    package struct TLSIdentity: Sendable {
        package var certificatePEM: String
        package var privateKeyPEM: String

        package init(certificatePEM: String, privateKeyPEM: String) {
            self.certificatePEM = certificatePEM
            self.privateKeyPEM = privateKeyPEM
        }

        /// ``TestCertificate``: `localhost` and `127.0.0.1`.
        package static let test = TLSIdentity(certificatePEM: TestCertificate.certificatePEM, privateKeyPEM: TestCertificate.privateKeyPEM)
    }

    /// One message the server accepted.
    package struct ReceivedMail: Sendable, Equatable {
        /// The MAIL FROM address.
        package var from: String
        /// The RCPT TO addresses, in order.
        package var recipients: [String]
        /// The message after DATA, un-dot-stuffed, lines ending in CRLF.
        package var data: String
        /// Whether the message arrived over TLS (STARTTLS or implicit).
        package var isTLS: Bool
        /// The user that authenticated, if any.
        package var authenticatedUser: String?
        /// The name given in EHLO or HELO.
        package var heloName: String?
    }
}
