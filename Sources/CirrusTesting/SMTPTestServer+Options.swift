extension SMTPTestServer {
    /// What the test server offers and refuses.
    public struct Options: Sendable {
        /// The certificate and key to offer TLS with; `nil` offers no STARTTLS.
        public var tls: TLSIdentity?
        /// Speak TLS from the first byte (SMTPS) instead of offering STARTTLS; needs ``tls``.
        public var implicitTLS: Bool
        /// The only accepted credentials; when set, AUTH is offered and MAIL requires it.
        public var credentials: Credentials?
        /// The AUTH mechanisms offered when ``credentials`` are set, in order.
        public var authMechanisms: [String]
        /// Whether EHLO is understood; `false` answers 502 so that clients fall back to HELO.
        public var acceptsEHLO: Bool
        /// Recipients refused with 550 (compared case-insensitively).
        public var rejectedRecipients: Set<String>
        /// Accept connections but never answer, to test client timeouts.
        public var staysSilent: Bool

        /// Creates options; the defaults are a plain server that accepts everything.
        public init(
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
    public struct Credentials: Sendable, Equatable {
        public var username: String
        public var password: String

        public init(username: String, password: String) {
            self.username = username
            self.password = password
        }
    }

    /// A certificate chain and private key, both PEM.
    public struct TLSIdentity: Sendable {
        public var certificatePEM: String
        public var privateKeyPEM: String

        public init(certificatePEM: String, privateKeyPEM: String) {
            self.certificatePEM = certificatePEM
            self.privateKeyPEM = privateKeyPEM
        }

        /// ``TestCertificate``: `localhost` and `127.0.0.1`.
        public static let test = TLSIdentity(certificatePEM: TestCertificate.certificatePEM, privateKeyPEM: TestCertificate.privateKeyPEM)
    }

    /// One message the server accepted.
    public struct ReceivedMail: Sendable, Equatable {
        /// The MAIL FROM address.
        public var from: String
        /// The RCPT TO addresses, in order.
        public var recipients: [String]
        /// The message after DATA, un-dot-stuffed, lines ending in CRLF.
        public var data: String
        /// Whether the message arrived over TLS (STARTTLS or implicit).
        public var isTLS: Bool
        /// The user that authenticated, if any.
        public var authenticatedUser: String?
        /// The name given in EHLO or HELO.
        public var heloName: String?
    }
}
