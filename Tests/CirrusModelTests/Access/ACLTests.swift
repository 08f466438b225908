import CirrusModel
import Testing

@Suite("ACL")
struct ACLTests {
    @Test("entries for everyone, users and roles decode with their rights")
    func decodes() throws {
        let acl = try ACL(wire: json(#"{"*":{"read":true},"u1":{"read":true,"write":true},"role:admin":{"write":true},"x":{}}"#))
        #expect(acl.entries["*"] == ACL.Rights(read: true, write: false))
        #expect(acl.entries["u1"] == ACL.Rights(read: true, write: true))
        #expect(acl.entries["role:admin"] == ACL.Rights(read: false, write: true))
        #expect(acl.entries["x"] == ACL.Rights())
    }

    @Test("false rights are dropped from the wire form and the rest round-trips")
    func wire() throws {
        let acl = try ACL(wire: json(#"{"*":{"read":true,"write":false},"u1":{"write":true}}"#))
        #expect(JSONWriter.string(acl.wire) == #"{"*":{"read":true},"u1":{"write":true}}"#)
        #expect(try ACL(wire: acl.wire) == acl)
        #expect(JSONWriter.string(ACL.publicReadWrite.wire) == #"{"*":{"read":true,"write":true}}"#)
    }

    @Test("malformed ACLs are refused as invalid ACLs", arguments: [
        "[]", "true", "null", #""*""#, #"{"*":true}"#, #"{"*":[]}"#, #"{"*":{"read":"yes"}}"#, #"{"*":{"read":1}}"#,
        #"{"*":{"delete":true}}"#, #"{"":{"read":true}}"#,
    ])
    func refuses(_ text: String) {
        #expect(reason { _ = try ACL(wire: json(text)) } == .invalidACL)
    }
}
