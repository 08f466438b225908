import CirrusModel
import CirrusTesting
import Testing

/// Who makes a request in the permission matrix.
enum Principal: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case master, owner, roleMember, otherUser, anonymous

    var testDescription: String { rawValue }
}

/// Three users, a role `Team` holding one of them, and the way each principal authenticates.
struct PermissionFixture: Sendable {
    let owner: SignedUpUser
    let member: SignedUpUser
    let other: SignedUpUser

    static func make(_ client: TestClient, _ endpoint: Endpoint = .leancloud) async throws -> PermissionFixture {
        let owner = try await client.signUp(endpoint, "owner-\(endpoint.dialect.rawValue)")
        let member = try await client.signUp(endpoint, "member-\(endpoint.dialect.rawValue)")
        let other = try await client.signUp(endpoint, "other-\(endpoint.dialect.rawValue)")
        let role = try await client.request(endpoint, .post, "/roles", json: [
            "name": "Team", "ACL": ["*": ["read": true]],
            "users": ["__op": "AddRelation", "objects": [["__type": "Pointer", "className": "_User", "objectId": .string(member.id)]]],
        ], auth: .master)
        #expect(role.status == 201, "\(role.bodyText)")
        return PermissionFixture(owner: owner, member: member, other: other)
    }

    func auth(_ principal: Principal) -> TestClient.Auth {
        switch principal {
        case .master: .master
        case .owner: .session(owner.token)
        case .roleMember: .session(member.token)
        case .otherUser: .session(other.token)
        case .anonymous: .appKey
        }
    }

    /// The ACL of the matrix's objects: the owner reads and writes, the role `Team` reads.
    var acl: JSON {
        [.init(stringLiteral: owner.id): ["read": true, "write": true], "role:Team": ["read": true]]
    }
}
