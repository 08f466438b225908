import CirrusModel
import CirrusTesting
import Testing

/// Data that clients other than the master key (and, for personal data, the user it belongs to) must never read,
/// each value unique so that a reply can be searched for it:
///
/// - `Vault` objects, public to read and write, with a hidden String `secret` and a hidden Number `hiddenNum`;
/// - the owner's personal fields: `email`, `mobilePhoneNumber` and `authData` (a third-party uid and token);
/// - a `Holder` readable by its owner only, whose Relation `docs` lists a public `Doc`;
/// - `_User` find opened to everyone, so that user queries reach the personal fields' protection.
struct SecretsFixture: Sendable {
    let users: PermissionFixture
    let vault: String
    let holder: String
    let doc: String

    static let hiddenSecret = "S3CRET-hidden-value"
    static let hiddenNumber: Int64 = 7_777_777
    static let email = "owner.private@example.com"
    static let phone = "18612340987"
    static let thirdPartyId = "WXUID-private-1234"
    static let thirdPartyToken = "WXTOKEN-private-5678"

    /// The owner's personal data: shown to the owner and the master key only.
    static let personal = [email, phone, thirdPartyId, thirdPartyToken]
    /// What no client ever reads.
    static let hidden = [hiddenSecret, String(hiddenNumber)]

    static func make(_ client: TestClient, _ endpoint: Endpoint) async throws -> SecretsFixture {
        let users = try await PermissionFixture.make(client, endpoint)
        let opened = try await client.request(endpoint, .put, "/schemas/_User", json: ["classLevelPermissions": ["find": ["*": true]]], auth: .master)
        #expect(opened.status == 200, "\(opened.bodyText)")
        let personal = try await client.request(endpoint, .put, "/users/\(users.owner.id)", json: [
            "email": .string(email), "mobilePhoneNumber": .string(phone),
            "authData": ["weixin": ["openid": .string(thirdPartyId), "access_token": .string(thirdPartyToken)]],
        ], auth: .master)
        #expect(personal.status == 200, "\(personal.bodyText)")
        let defined = try await client.request(endpoint, .post, "/schemas/Vault", json: [
            "fields": [
                "secret": ["type": "String", "hidden": true], "hiddenNum": ["type": "Number", "hidden": true], "label": ["type": "String"],
                "owner": ["type": "Pointer", "targetClass": "_User"],
            ],
        ], auth: .master)
        #expect(defined.status == 201, "\(defined.bodyText)")
        let ownerPointer: JSON = ["__type": "Pointer", "className": "_User", "objectId": .string(users.owner.id)]
        let vault = try await client.create(endpoint, "Vault", [
            "secret": .string(hiddenSecret), "hiddenNum": .int(hiddenNumber), "label": "open", "owner": ownerPointer,
        ])
        let doc = try await client.create(endpoint, "Doc", ["n": 5])
        let docPointer: JSON = ["__type": "Pointer", "className": "Doc", "objectId": .string(doc)]
        let holder = try await client.create(endpoint, "Holder", [
            "docs": ["__op": "AddRelation", "objects": [docPointer]], "ACL": [.init(stringLiteral: users.owner.id): ["read": true, "write": true]],
        ])
        return SecretsFixture(users: users, vault: vault, holder: holder, doc: doc)
    }

    typealias Caller = Principal

    func auth(_ caller: Caller) -> TestClient.Auth {
        users.auth(caller)
    }

    /// The secrets a caller must never find in a reply: everything but for the master key, all but the owner's
    /// own personal data for the owner.
    static func forbidden(to caller: Caller) -> [String] {
        switch caller {
        case .master: []
        case .owner: hidden
        default: hidden + personal
        }
    }
}
