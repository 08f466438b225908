import CirrusModel
import CirrusTesting
import Testing

/// A signed-up user: its objectId and session token.
struct SignedUpUser: Sendable {
    let id: String
    let token: String
}

extension TestClient {
    /// Signs a user up and returns its id and token, failing the test unless the server answers 201.
    func signUp(
        _ endpoint: Endpoint, _ username: String, password: String = "secret-1", extra: [String: JSON] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> SignedUpUser {
        var body: [String: JSON] = ["username": .string(username), "password": .string(password)]
        for (key, value) in extra { body[key] = value }
        let reply = try await request(endpoint, .post, "/users", json: .object(body))
        #expect(reply.status == 201, "sign-up failed: \(reply.bodyText)", sourceLocation: sourceLocation)
        return SignedUpUser(
            id: try #require(reply.json["objectId"]?.stringValue, sourceLocation: sourceLocation),
            token: try #require(reply.json["sessionToken"]?.stringValue, sourceLocation: sourceLocation)
        )
    }

    /// Logs in by username with a JSON `POST /login`.
    func logIn(_ endpoint: Endpoint, _ username: String, _ password: String) async throws -> TestReply {
        try await request(endpoint, .post, "/login", json: ["username": .string(username), "password": .string(password)])
    }
}
