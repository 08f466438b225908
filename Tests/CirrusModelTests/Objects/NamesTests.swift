import CirrusModel
import Testing

@Suite("Class and field name rules")
struct NamesTests {
    @Test("class names start with a letter and hold letters, digits and _, or name a system class", arguments: [
        ("GameScore", true), ("a", true), ("A_1_b", true), ("_User", true), ("_Role", true), ("_File", true),
        ("_Installation", true), ("_Conversation", true), (String(repeating: "a", count: 128), true),
        ("", false), ("_Foo", false), ("_user", false), ("1abc", false), ("a-b", false), ("a b", false), ("a.b", false),
        ("é", false), ("a$", false), (String(repeating: "a", count: 129), false),
    ])
    func classNames(_ name: String, _ valid: Bool) {
        #expect(ClassName.isValid(name) == valid)
        #expect((reason { try ClassName.validate(name) } == .invalidClassName) == !valid)
    }

    @Test("field identifiers start with an ASCII letter and hold ASCII letters, digits and _", arguments: [
        ("score", true), ("s", true), ("a1_B", true), (String(repeating: "k", count: 128), true),
        ("", false), ("_score", false), ("__op", false), ("1a", false), ("a-b", false), ("a.b", false), ("ä", false),
        ("a b", false), (String(repeating: "k", count: 129), false),
    ])
    func identifiers(_ name: String, _ valid: Bool) {
        #expect(FieldName.isIdentifier(name) == valid)
    }

    @Test("built-in fields are not writable in any case", arguments: [
        "objectId", "objectid", "OBJECTID", "createdAt", "CreatedAt", "updatedAt", "UPDATEDAT", "ACL", "acl", "Acl",
        "className", "classname",
    ])
    func reserved(_ name: String) {
        #expect(!FieldName.isWritable(name))
    }

    @Test("ordinary identifiers are writable, names starting with _ are not")
    func writable() {
        #expect(FieldName.isWritable("score"))
        #expect(FieldName.isWritable("objectIdentifier"))
        #expect(!FieldName.isWritable("_private"))
        #expect(!FieldName.isWritable("__type"))
    }

    @Test("nested keys may hold anything but $ and . and may not start with __", arguments: [
        ("a", true), ("_a", true), ("a b-c", true), ("ü", true), ("0", true), ("a__b", true),
        ("", false), ("$a", false), ("a$", false), ("a.b", false), ("__a", false), ("__", false),
    ])
    func nestedKeys(_ key: String, _ valid: Bool) {
        #expect(FieldName.isValidNestedKey(key) == valid)
    }
}
