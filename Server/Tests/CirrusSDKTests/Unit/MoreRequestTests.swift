@testable import Cirrus
import CirrusModel
import Foundation
import Testing

/// The requests of CQL, third-party accounts and roles.
@Suite("CQL and authData requests")
struct MoreRequestTests {
    @Test("CQL is GET /1.1/cloudQuery with cql and pvalues in their REST encoding")
    func cql() async throws {
        let transport = RecordingTransport(json: [#"{"results":[{"objectId":"t1","priority":4}],"className":"Todo","count":1}"#])
        let application = try makeApplication(transport)
        let value = try await LCCQLClient.execute(
            application: application, "select * from Todo where priority > ? and due < ?", parameters: [3, Date(timeIntervalSince1970: 0)]
        )
        let request = try #require(transport.requests.first)
        #expect(request.path == "/1.1/cloudQuery")
        #expect(request.query["cql"] == "select * from Todo where priority > ? and due < ?")
        #expect(request.queryJSON("pvalues") == (try json(#"[3,{"__type":"Date","iso":"1970-01-01T00:00:00.000Z"}]"#)))
        #expect(value.count == 1)
        #expect(value.objects.first?.className == "Todo")
        #expect(value.objects.first?.objectId?.value == "t1")
    }

    @Test("third-party log-in posts authData to /1.1/users; associate and disassociate PUT authData.<platform>")
    func authData() async throws {
        let transport = RecordingTransport(json: [#"{"objectId":"u1","sessionToken":"t","createdAt":"2026-01-01T00:00:00.000Z"}"#, #"{"updatedAt":"2026-01-02T00:00:00.000Z"}"#])
        let application = try makeApplication(transport)
        let user = LCUser(application: application)
        try await user.logIn(authData: ["uid": "42", "expires_in": 7200, "scopes": ["a"]], platform: .apple)
        try await user.associate(authData: ["uid": "7"], platform: "github")
        try await user.disassociate(authData: "github")
        let requests = transport.requests
        #expect(requests[0].method == "POST" && requests[0].path == "/1.1/users")
        #expect(requests[0].json == (try json(#"{"authData":{"lc_apple":{"uid":"42","expires_in":7200,"scopes":["a"]}}}"#)))
        #expect(requests[1].method == "PUT" && requests[1].path == "/1.1/users/u1")
        #expect(requests[1].json == (try json(#"{"authData.github":{"uid":"7"}}"#)))
        #expect(requests[1].headers["X-LC-Session"] == "t")
        #expect(requests[2].json == (try json(#"{"authData.github":{"__op":"Delete"}}"#)))
        #expect(application.currentUser === user)
    }

    @Test("authData values without a JSON form are refused before anything is sent")
    func badAuthData() async throws {
        let transport = RecordingTransport()
        let user = LCUser(application: try makeApplication(transport))
        await #expect(throws: LCError.self) { try await user.logIn(authData: ["uid": NSObject()], platform: "x") }
        #expect(transport.requests.isEmpty)
    }

    @Test("getRoles queries _Role by the users relation")
    func roles() async throws {
        let transport = RecordingTransport(json: [#"{"results":[{"objectId":"r1","name":"Administrator"}]}"#])
        let user = LCUser(application: try makeApplication(transport))
        user.merge(["objectId": "u1"], decoder: ObjectDecoder(application: user.application))
        let roles = try await user.getRoles()
        #expect(transport.requests.first?.path == "/1.1/classes/_Role")
        #expect(transport.requests.first?.queryJSON("where") == (try json(#"{"users":{"__type":"Pointer","className":"_User","objectId":"u1"}}"#)))
        #expect(roles.first?.name?.value == "Administrator")
    }
}
