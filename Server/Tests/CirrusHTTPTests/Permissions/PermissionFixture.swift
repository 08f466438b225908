import CirrusModel
import CirrusTesting
import Testing

/// Who makes a request in the permission matrix.
enum Principal: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case master, owner, roleMember, otherUser, anonymous
    /// A session token that never existed, and one its user replaced (`refreshSessionToken`): refused everywhere.
    case forgedSession, revokedSession

    var testDescription: String { rawValue }
}

/// Three users, a role `Team` holding one of them, a revoked session, and the way each principal authenticates.
struct PermissionFixture: Sendable {
    let owner: SignedUpUser
    let member: SignedUpUser
    let other: SignedUpUser
    let revokedToken: String

    static func make(_ client: TestClient, _ endpoint: Endpoint = .leancloud) async throws -> PermissionFixture {
        let owner = try await client.signUp(endpoint, "owner-\(endpoint.dialect.rawValue)")
        let member = try await client.signUp(endpoint, "member-\(endpoint.dialect.rawValue)")
        let other = try await client.signUp(endpoint, "other-\(endpoint.dialect.rawValue)")
        let role = try await client.request(endpoint, .post, "/roles", json: [
            "name": "Team", "ACL": ["*": ["read": true]],
            "users": ["__op": "AddRelation", "objects": [["__type": "Pointer", "className": "_User", "objectId": .string(member.id)]]],
        ], auth: .master)
        #expect(role.status == 201, "\(role.bodyText)")
        // A Parse sign-up's revocable session ends with a log-out; the stable token of the others is replaced.
        let stale = try await client.signUp(endpoint, "stale-\(endpoint.dialect.rawValue)")
        let revoked = endpoint.dialect == .parse
            ? try await client.request(endpoint, .post, "/logout", auth: .session(stale.token))
            : try await client.request(.leancloud, .put, "/users/\(stale.id)/refreshSessionToken", auth: .session(stale.token))
        #expect(revoked.status == 200, "\(revoked.bodyText)")
        return PermissionFixture(owner: owner, member: member, other: other, revokedToken: stale.token)
    }

    func auth(_ principal: Principal) -> TestClient.Auth {
        switch principal {
        case .master: .master
        case .owner: .session(owner.token)
        case .roleMember: .session(member.token)
        case .otherUser: .session(other.token)
        case .anonymous: .appKey
        case .forgedSession: .session("forged0token0that0never0existed")
        case .revokedSession: .session(revokedToken)
        }
    }

    /// The ACL of the matrix's objects: the owner reads and writes, the role `Team` reads.
    var acl: JSON {
        [.init(stringLiteral: owner.id): ["read": true, "write": true], "role:Team": ["read": true]]
    }
}
