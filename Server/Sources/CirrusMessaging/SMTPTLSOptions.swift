import CirrusServices
import NIOSSL

/// How ``SMTPClient`` checks the server's certificate.
public struct SMTPTLSOptions: Sendable {
    /// PEM certificates to trust instead of the system's roots (a private CA, or a test server's own certificate).
    public var trustedCertificatesPEM: [String]
    /// Whether the certificate chain and host name are verified; turn off only for a trusted local relay.
    public var verifiesCertificate: Bool

    /// Creates TLS options: the system's roots and full verification unless told otherwise.
    /// - Parameters:
    ///   - trustedCertificatesPEM: certificates to trust instead of the system's roots; empty uses the system's.
    ///   - verifiesCertificate: whether the chain and host name are verified.
    public init(trustedCertificatesPEM: [String] = [], verifiesCertificate: Bool = true) {
        self.trustedCertificatesPEM = trustedCertificatesPEM
        self.verifiesCertificate = verifiesCertificate
    }

    /// A client TLS context for these options (TLS 1.2 or later).
    /// - Throws: ``MessagingError`` when a trusted certificate is not valid PEM.
    func makeContext() throws(MessagingError) -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv12
        configuration.certificateVerification = verifiesCertificate ? .fullVerification : .none
        if !trustedCertificatesPEM.isEmpty {
            configuration.trustRoots = .certificates(try trustedCertificates())
        }
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw MessagingError("SMTP: cannot set up TLS: \(error)")
        }
    }

    private func trustedCertificates() throws(MessagingError) -> [NIOSSLCertificate] {
        do {
            return try trustedCertificatesPEM.flatMap { try NIOSSLCertificate.fromPEMBytes(Array($0.utf8)) }
        } catch {
            throw MessagingError("SMTP: a trusted certificate is not valid PEM: \(error)")
        }
    }

    /// The name to send in SNI and to check the certificate against; `nil` for an IP address, which the
    /// certificate is then checked against instead.
    static func serverName(for host: String) -> String? {
        let isIPAddress = host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." }
        return isIPAddress ? nil : host
    }
}
