import CirrusTesting
import Foundation
import Testing

@Suite("Third-party log-in and file URL options of a live server")
struct AuthDataOptionsTests {
    static func logIn(_ server: LiveServer, _ authData: JSON) async throws -> LiveReply {
        try await server.client.send("POST", "/1.1/users", json: ["authData": authData])
    }

    @Test("by default only anonymous log-in passes; --auth-trust and --no-auth-anonymous change that")
    func defaultsAndTrust() async throws {
        try await Sandbox.with { sandbox in
            let plain = try await sandbox.startServer()
            #expect(try await Self.logIn(plain, ["weixin": ["openid": "o", "access_token": "t"]]).code == 252)
            #expect(try await Self.logIn(plain, ["anonymous": ["id": "a1"]]).status == 201)
            try await plain.stopCleanly()
            let trusting = try await sandbox.startServer(dataDirectory: sandbox.path("trusting"), extra: ["--auth-trust", "github", "--no-auth-anonymous"])
            #expect(try await Self.logIn(trusting, ["github": ["uid": "g"]]).status == 201)
            #expect(try await Self.logIn(trusting, ["anonymous": ["id": "a1"]]).code == 252)
            try await trusting.stopCleanly()
        }
    }

    @Test("CIRRUS_AUTH_VERIFY and CIRRUS_AUTH_WEIXIN_URL check WeChat tokens with the provider; CIRRUS_FILE_PUBLIC_URL moves file URLs")
    func verifyFromEnvironment() async throws {
        try await AuthProviderTestServer.with { providers in
            try await Sandbox.with { sandbox in
                let port = try FreePort.next()
                let environment = [
                    "CIRRUS_HOST": "127.0.0.1", "CIRRUS_PORT": String(port), "CIRRUS_DATA_DIR": sandbox.dataDirectory,
                    "CIRRUS_APP_ID": Sandbox.keys.appId, "CIRRUS_APP_KEY": Sandbox.keys.appKey, "CIRRUS_MASTER_KEY": Sandbox.keys.masterKey,
                    "CIRRUS_AUTH_VERIFY": "weixin", "CIRRUS_AUTH_WEIXIN_URL": providers.baseURL, "CIRRUS_FILE_PUBLIC_URL": "https://files.example.com",
                ]
                let server = try await LiveServer.ready(try sandbox.launch(["serve"], environment: environment), host: "127.0.0.1", port: port, keys: Sandbox.keys)
                #expect(try await Self.logIn(server, ["weixin": ["openid": "wx-1", "access_token": "wx-good"]]).status == 201)
                #expect(try await Self.logIn(server, ["weixin": ["openid": "wx-1", "access_token": "made-up"]]).code == 251)
                let tokens = try await server.client.send("POST", "/1.1/fileTokens", json: ["name": "a.txt"])
                #expect(tokens.json["url"]?.stringValue?.hasPrefix("https://files.example.com/files/") == true)
                try await server.stopCleanly()
            }
        }
    }

    @Test("a check without its settings, an unknown provider or a malformed URL stops the server with a message")
    func badValues() async throws {
        let cases: [(arguments: [String], message: String)] = [
            (["--auth-verify", "lc_apple"], "bundle ids"),
            (["--auth-verify", "weibo"], "Weibo app keys"),
            (["--auth-verify", "github"], "name weixin, qq, weibo or lc_apple"),
            (["--auth-verify", "wxapp=wechat"], "name weixin, qq, weibo or lc_apple"),
            (["--auth-weixin-url", "ftp://example.com"], "is not an http(s) URL"),
            (["--auth-timeout", "0"], "1 to 60 seconds"),
            (["--file-public-url", "files.example.com"], "is not an http(s) URL"),
        ]
        try await Sandbox.with { sandbox in try await sandbox.expectRefused(cases) }
    }
}

extension Sandbox {
    /// Starts `cirrus serve` with each case's arguments and expects it to stop, saying the case's message.
    func expectRefused(_ cases: [(arguments: [String], message: String)], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for (arguments, message) in cases {
            let process = try launch(["serve", "--data-dir", dataDirectory, "--port", String(try FreePort.next())] + arguments)
            let status = try await process.waitForExit(timeout: .seconds(60))
            #expect(status != .exited(0), "\(arguments)", sourceLocation: sourceLocation)
            #expect(process.output.contains(message), "\(process.output)", sourceLocation: sourceLocation)
        }
    }
}
