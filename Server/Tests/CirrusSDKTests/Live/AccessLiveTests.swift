import Cirrus
import CirrusTesting
import Foundation
import Testing

/// ACLs and installations against an in-process server over HTTP.
@Suite("ACLs and installations on a live server")
struct AccessLiveTests {
    @Test("an object readable only by its owner is found by the owner alone")
    func ownerOnly() async throws {
        try await withLiveApp { application, _ in
            let owner = LCUser(application: application)
            owner.username = "owner"
            owner.password = "pw"
            try await owner.signUp()
            let note = LCObject(application: application, className: "Note")
            try note.set("text", value: "secret")
            let acl = LCACL()
            acl.setAccess([.read, .write], allowed: true, forUserID: try #require(owner.objectId?.value))
            note.ACL = acl
            try await note.save()
            let id = try #require(note.objectId?.value)
            #expect(try await LCQuery(application: application, className: "Note").count() == 1)

            LCUser.logOut(application: application)
            #expect(try await LCQuery(application: application, className: "Note").count() == 0)
            let hidden = try await #require(throws: LCError.self) { try await LCQuery(application: application, className: "Note").get(id) }
            #expect(hidden.code == 101)
            let edit = LCObject(application: application, className: "Note", objectId: id)
            try edit.set("text", value: "changed")
            let refused = try await #require(throws: LCError.self) { try await edit.save() }
            #expect(refused.code != 0)

            _ = try await LCUser.logIn(application: application, username: "owner", password: "pw")
            let withACL = LCQuery(application: application, className: "Note")
            withACL.includeACL = true
            let read = try await withACL.get(id)
            #expect(read.get("text")?.stringValue == "secret")
            #expect(read.ACL?.getAccess(.write, forUserID: try #require(owner.objectId?.value)) == true)
        }
    }

    @Test("an installation is saved in _Installation and read back as an LCInstallation")
    func installation() async throws {
        try await withLiveApp { application, _ in
            let installation = LCInstallation(application: application)
            installation.deviceType = "ios"
            installation.deviceToken = "0123456789abcdef"
            try installation.append("channels", element: "news", unique: true)
            try await installation.save()
            let found = try await LCQuery(application: application, className: "_Installation").get(installation.objectId)
            let read = try #require(found as? LCInstallation)
            #expect(read.deviceType?.value == "ios")
            #expect(read.channels?.value.compactMap(\.stringValue) == ["news"])
        }
    }
}
