/// A self-signed certificate and its P-256 private key for `localhost` and `127.0.0.1`, valid from 2025 until
/// the end of 2045, for TLS between test clients and test servers (``SMTPTestServer``). Never use it elsewhere:
/// its private key is public.
package enum TestCertificate {
    /// The certificate (PEM). Clients trust it as their only root.
    package static let certificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIBeTCCAR6gAwIBAgIUMrSq5B8udEAzTHvmxbQUyinghLEwCgYIKoZIzj0EAwIw
        FDESMBAGA1UEAwwJbG9jYWxob3N0MB4XDTI1MDEwMTAwMDAwMFoXDTQ1MTIzMTAw
        MDAwMFowFDESMBAGA1UEAwwJbG9jYWxob3N0MFkwEwYHKoZIzj0CAQYIKoZIzj0D
        AQcDQgAExpMJ048XFeZlI+/xgSpmkoz6O03EG+OR/2IO468zAoB5sXoOoV77w38L
        MTWS8+WD0AjOCVsdGIBoyiEu4Jvau6NOMEwwGgYDVR0RBBMwEYIJbG9jYWxob3N0
        hwR/AAABMA8GA1UdEwEB/wQFMAMBAf8wHQYDVR0OBBYEFEJ96D+FXJDiTjF/sPU+
        hgSF0E36MAoGCCqGSM49BAMCA0kAMEYCIQD6X9vvwoGRRnRPGabyeUpbBYhHpo4W
        P1+rvfg+RreXhQIhAOtrukI5NwEQz5miRG9+C4K3CGV3b+FrRHWmTUA4pfhd
        -----END CERTIFICATE-----
        """

    /// The private key (PKCS #8 PEM).
    package static let privateKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgqIPNwnOy/Y+a6Ay9
        1xW97Z3u1bZ5LvMBQmItOHNU2ROhRANCAATGkwnTjxcV5mUj7/GBKmaSjPo7TcQb
        45H/Yg7jrzMCgHmxeg6hXvvDfwsxNZLz5YPQCM4JWx0YgGjKIS7gm9q7
        -----END PRIVATE KEY-----
        """
}
