import CirrusModel
import CirrusTesting
import Foundation
import Testing

/// A 405 names the methods the path does answer (RFC 9110 requires `Allow`), as schemathesis's unsupported-method
/// check found missing.
@Suite struct AllowHeaderTests {
    @Test("a known path with an unsupported method answers 405 with the path's methods in Allow", arguments: Endpoint.all)
    func allowHeader(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let id = try await client.create(endpoint, "GameScore", ["n": 1])
            let cases: [(HTTPRequest.Method, String, Set<String>)] = [
                (.patch, "/classes/GameScore/\(id)", ["GET", "PUT", "DELETE", "OPTIONS"]),
                (.delete, "/classes/GameScore", ["GET", "POST", "OPTIONS"]),
                (.put, "/batch", ["POST", "OPTIONS"]),
            ]
            for (method, path, allowed) in cases {
                let reply = try await client.request(endpoint, method, path, json: [:])
                #expect(reply.status == 405, "\(method) \(path): \(reply.bodyText)")
                let header = reply.header("Allow") ?? ""
                let listed = Set(header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                #expect(listed == allowed, "\(method) \(path): Allow: \(header)")
            }
        }
    }

    @Test("the account pages answer other methods with 405 and their methods in Allow", arguments: [
        ("/auth/verify-email", "GET, HEAD"), ("/auth/reset-password", "GET, HEAD, POST"),
    ])
    func accountPages(_ path: String, _ allowed: String) async throws {
        try await TestServer.with { client in
            for method in [HTTPRequest.Method.put, .delete, .patch] {
                let reply = try await client.browse(method, path)
                #expect(reply.status == 405)
                #expect(reply.header("Allow") == allowed)
            }
        }
    }
}
