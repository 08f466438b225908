import CirrusModel
import CirrusTesting
import Foundation
import HTTPTypes
import Testing

extension TestClient {
    /// A `_User` pointer.
    static func userPointer(_ id: String) -> JSON {
        ["__type": "Pointer", "className": "_User", "objectId": .string(id)]
    }

    /// A LeanCloud request as a user (`/1.1` + path).
    func lc(_ method: HTTPRequest.Method, _ path: String, json: JSON? = nil, as user: SignedUpUser?) async throws -> TestReply {
        try await send(.leancloud, method, "/1.1" + path, json: json, auth: user.map { .session($0.token) } ?? .appKey)
    }

    /// A find's results, as the master key reads them.
    func results(_ path: String, where condition: JSON, extra: String = "") async throws -> [JSON] {
        let encoded = JSONWriter.string(condition).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let reply = try await send(.leancloud, .get, "/1.1\(path)?where=\(encoded)\(extra)", auth: .master)
        #expect(reply.status == 200, "\(reply.bodyText)")
        return reply.json["results"]?.arrayValue ?? []
    }

    /// Several users signed up at once, named with a tag of their own.
    func users(_ names: [String]) async throws -> [SignedUpUser] {
        let tag = UUID().uuidString.prefix(6)
        var users: [SignedUpUser] = []
        for name in names { users.append(try await signUp(.leancloud, "\(name)-\(tag)")) }
        return users
    }
}
