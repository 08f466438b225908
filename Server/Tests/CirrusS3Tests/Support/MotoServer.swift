import AsyncHTTPClient
import CirrusTesting
@testable import CirrusS3
import Foundation
import NIOCore
import NIOHTTP1

/// A `moto_server` (moto's stand-in for AWS, from PyPI) on a free loopback port, started for a suite and stopped
/// after it, with the bucket ``bucket``.
///
/// When it checks signatures, requests must be signed with the key of an IAM user made at start, whose policy
/// allows everything in S3. moto cannot check presigned URLs, though: with checks on it fails them with a 500, so
/// presigned URLs are tried on a server with checks off (which accepts any key).
struct MotoServer: Sendable {
    static let bucket = "cirrus-tests"
    static let region = "us-east-1"
    /// What CI and developers run to get `moto_server` (a venv of its own: moto needs a newer Werkzeug than the
    /// LeanCloud SDK in `.venv-test` accepts).
    static let installHint = "python3 -m venv .venv-moto && .venv-moto/bin/pip install -r Tests/python/requirements-s3.txt"

    /// The server of the running suite, set by the ``MotoServerTrait``.
    @TaskLocal static var current: MotoServer?

    let process: ChildProcess
    let endpoint: URL
    let accessKeyID: String
    let secretAccessKey: String

    /// The server of the running suite.
    /// - Throws: when the test does not run inside a suite with the `.motoServer` trait.
    static func running() throws -> MotoServer {
        guard let current else { throw MotoServerError("no moto server: add the .motoServer trait to the suite") }
        return current
    }

    /// A configuration for the test bucket with the server's valid credentials.
    func configuration(keyPrefix: String = "", secretAccessKey: String? = nil) -> S3Configuration {
        S3Configuration(
            endpoint: endpoint, region: Self.region, bucket: Self.bucket, accessKeyID: accessKeyID,
            secretAccessKey: secretAccessKey ?? self.secretAccessKey, addressing: .pathStyle, keyPrefix: keyPrefix, timeout: .seconds(20))
    }

    /// Starts `moto_server`, waits until it answers and, when `checkingSignatures`, creates an IAM user with an S3
    /// policy and an access key and turns signature checks on; then creates the bucket.
    /// - Throws: ``MotoServerError`` with the install command when `moto_server` is not installed, or with the
    ///   server's output when it does not come up.
    static func start(checkingSignatures: Bool) async throws -> MotoServer {
        let (executable, launcher) = try launch()
        let port = try FreePort.next()
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("cirrus-moto-\(port)-\(UUID().uuidString).log").path
        let process = try ChildProcess(
            executable: executable, arguments: launcher + ["-H", "127.0.0.1", "-p", String(port)], environment: ProcessInfo.processInfo.environment,
            logPath: log
        )
        do {
            let base = URL(string: "http://127.0.0.1:\(port)")!
            try await waitUntilReady(process, base: base)
            var (keyID, secret) = ("AKIAMOTOANYKEY", "any-secret")
            if checkingSignatures {
                (keyID, secret) = try await MotoIAM(base: base, region: region).createUserAllowedS3()
                try await post(base.appendingPathComponent("moto-api/reset-auth"), body: "0")
            }
            let server = MotoServer(process: process, endpoint: base, accessKeyID: keyID, secretAccessKey: secret)
            try await S3FileStorage(configuration: server.configuration()).createBucket()
            return server
        } catch {
            await process.stop()
            throw MotoServerError("\(error)\nmoto_server output:\n\(process.output.suffix(4000))")
        }
    }

    /// Ends the server and removes its log.
    func stop() async {
        await process.stop()
        try? FileManager.default.removeItem(atPath: process.logPath)
    }

    /// How to start moto: the Python beside `moto_server` running `moto_serialized.py` (moto with its requests handled
    /// one at a time: its conditional writes are then atomic, as S3's are), or `moto_server` itself when no Python is
    /// beside it.
    private static func launch() throws -> (executable: String, arguments: [String]) {
        let server = try executablePath()
        let python = URL(fileURLWithPath: server).deletingLastPathComponent().appendingPathComponent("python").path
        guard FileManager.default.isExecutableFile(atPath: python) else { return (server, []) }
        let launcher = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("moto_serialized.py").path
        return (python, [launcher])
    }

    /// `$CIRRUS_MOTO_SERVER`, else `moto_server` in `.venv-moto` or `.venv-test` at the repository's root (above
    /// `Server/Tests/CirrusS3Tests/Support`), where scripts/test makes them.
    private static func executablePath() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let candidates = [ProcessInfo.processInfo.environment["CIRRUS_MOTO_SERVER"]].compactMap { $0 }
            + [root + "/.venv-moto/bin/moto_server", root + "/.venv-test/bin/moto_server"]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw MotoServerError(
                "moto_server is not installed (looked for \(candidates.joined(separator: ", "))); the S3 tests need it. "
                    + "Install it from the package root with: \(installHint)  (or set CIRRUS_MOTO_SERVER to its path)")
        }
        return found
    }

    private static func waitUntilReady(_ process: ChildProcess, base: URL) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            guard process.isRunning else { throw MotoServerError("moto_server exited before it answered") }
            let request = HTTPClientRequest(url: base.appendingPathComponent("moto-api/data.json").absoluteString)
            if let reply = try? await HTTPClient.shared.execute(request, timeout: .seconds(2)), reply.status.code == 200 {
                _ = try? await reply.body.collect(upTo: 1 << 24)
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw MotoServerError("moto_server did not answer at \(base) within a minute")
    }

    private static func post(_ url: URL, body: String) async throws {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/octet-stream")
        request.body = .bytes(Array(body.utf8))
        let reply = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        _ = try await reply.body.collect(upTo: 1 << 20)
        guard reply.status.code == 200 else { throw MotoServerError("POST \(url) answered \(reply.status.code)") }
    }
}
