/// Where and how ``SMTPClient`` delivers mail; an app embedding the server sets it on its configuration.
///
/// ```swift
/// var configuration = ServerConfiguration(dataDirectory: "cirrus-data")
/// configuration.smtp = SMTPConfiguration(
///     host: "smtp.example.com", port: 587, security: .startTLS,
///     credentials: .init(username: "noreply@example.com", password: "secret")
/// )
/// ```
public struct SMTPConfiguration: Sendable {
    /// How the connection is protected.
    public enum Security: String, Sendable, CaseIterable {
        /// Plain text all the way (local relays only).
        case none
        /// Upgrade with STARTTLS and fail when the server does not offer it (submission, port 587).
        case startTLS
        /// Upgrade with STARTTLS when the server offers it, else continue in plain text.
        case startTLSIfAvailable
        /// TLS from the first byte (SMTPS, port 465).
        case tls
    }

    /// A user name and password for AUTH PLAIN (or AUTH LOGIN when PLAIN is not offered).
    public struct Credentials: Sendable {
        public var username: String
        public var password: String

        public init(username: String, password: String) {
            self.username = username
            self.password = password
        }
    }

    /// The server's host name or address.
    public var host: String
    /// The server's port: 25, 587 (STARTTLS) or 465 (implicit TLS).
    public var port: Int
    /// How the connection is protected.
    public var security: Security
    /// Credentials to authenticate with; `nil` sends without AUTH.
    public var credentials: Credentials?
    /// The name this host gives in EHLO/HELO.
    public var heloName: String
    /// The longest wait for the connection and for each reply, in seconds.
    public var timeout: Double
    /// How the server's certificate is checked.
    public var tls: SMTPTLSOptions

    /// Creates a configuration.
    /// - Parameters:
    ///   - host: the server's host name or address.
    ///   - port: the server's port; `nil` picks 465 for ``Security/tls``, 587 for STARTTLS and 25 otherwise.
    ///   - security: how the connection is protected.
    ///   - credentials: credentials to authenticate with, if any.
    ///   - heloName: the name given in EHLO/HELO.
    ///   - timeout: the longest wait for the connection and for each reply, in seconds.
    ///   - tls: how the server's certificate is checked.
    public init(
        host: String, port: Int? = nil, security: Security = .startTLS, credentials: Credentials? = nil,
        heloName: String = "localhost", timeout: Double = 30, tls: SMTPTLSOptions = SMTPTLSOptions()
    ) {
        self.host = host
        self.port = port ?? Self.defaultPort(for: security)
        self.security = security
        self.credentials = credentials
        self.heloName = heloName
        self.timeout = timeout
        self.tls = tls
    }

    /// `host:port`, for messages.
    var server: String { "\(host):\(port)" }

    /// The usual port of a security mode.
    package static func defaultPort(for security: Security) -> Int {
        switch security {
        case .tls: 465
        case .startTLS, .startTLSIfAvailable: 587
        case .none: 25
        }
    }
}
