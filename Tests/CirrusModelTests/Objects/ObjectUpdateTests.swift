import CirrusModel
import Testing

@Suite("ObjectUpdate")
struct ObjectUpdateTests {
    @Test("built-in keys in another case, names starting with _ and invalid identifiers are refused", arguments: [
        #"{"objectid":"a"}"#, #"{"ObjectId":"a"}"#, #"{"CREATEDAT":1}"#, #"{"updatedat":1}"#, #"{"acl":{}}"#,
        #"{"Acl":{}}"#, #"{"classname":"A"}"#, #"{"__type":"Date"}"#, #"{"__op":"Delete"}"#, #"{"_private":1}"#,
        #"{"1st":1}"#, #"{"a-b":1}"#, #"{"":1}"#, #"{"na me":1}"#, #"{"é":1}"#,
    ])
    func refusedKeys(_ body: String) {
        #expect(reason { _ = try ObjectUpdate(body: json(body), isCreate: true) } == .invalidKeyName)
        #expect(reason { _ = try ObjectUpdate(body: json(body), isCreate: false) } == .invalidKeyName)
    }

    @Test("keys the server maintains are ignored")
    func ignoredKeys() throws {
        let body = json(#"{"objectId":"x","createdAt":"2015","updatedAt":1,"className":"A","__ignore_hooks":["a"]}"#)
        let update = try ObjectUpdate(body: body, isCreate: true)
        #expect(update.operations.isEmpty)
        #expect(update.acl == nil)
        #expect(update.isEmpty)
    }

    @Test("dotted keys are refused when creating and accepted when updating")
    func dottedKeys() throws {
        let body = json(#"{"a.b":1,"list.0.name":"x"}"#)
        #expect(reason { _ = try ObjectUpdate(body: body, isCreate: true) } == .invalidKeyName)
        let update = try ObjectUpdate(body: body, isCreate: false)
        #expect(update.operations.map(\.path.segments) == [["a", "b"], ["list", "0", "name"]])
    }

    @Test("dotted keys below a built-in field or with bad segments are refused", arguments: [
        #"{"ACL.x":1}"#, #"{"acl.x":1}"#, #"{"objectId.x":1}"#, #"{"CreatedAt.x":1}"#, #"{"a..b":1}"#, #"{"a.b$":1}"#,
        #"{"_a.b":1}"#, #"{"a.":1}"#,
    ])
    func refusedDottedKeys(_ body: String) {
        #expect(reason { _ = try ObjectUpdate(body: json(body), isCreate: false) } == .invalidKeyName)
    }

    @Test("a key sent with one of its sub-paths is refused", arguments: [
        #"{"a":1,"a.b":2}"#, #"{"a.b":1,"a.b.c":2}"#, #"{"a":{"__op":"Delete"},"a.0":1}"#,
    ])
    func conflicts(_ body: String) {
        #expect(reason { _ = try ObjectUpdate(body: json(body), isCreate: false) } == .invalidParameter)
    }

    @Test("sibling paths and keys sharing only a prefix do not conflict")
    func noConflict() throws {
        let update = try ObjectUpdate(body: json(#"{"a.b":1,"a.c":2,"ab":3,"a.bc":4}"#), isCreate: false)
        #expect(update.operations.map(\.path.description) == ["a.b", "a.bc", "a.c", "ab"])
    }

    @Test("relation operations apply to top-level fields only")
    func nestedRelation() {
        let body = json(#"{"a.b":{"__op":"AddRelation","objects":[{"__type":"Pointer","className":"A","objectId":"x"}]}}"#)
        #expect(reason { _ = try ObjectUpdate(body: body, isCreate: false) } == .invalidKeyName)
    }

    @Test("a body that is not an object is invalid JSON", arguments: ["[]", "1", #""a""#, "null"])
    func notAnObject(_ body: String) {
        #expect(reason { _ = try ObjectUpdate(body: json(body), isCreate: true) } == .invalidJSON)
    }

    @Test("the ACL key sets, or with null removes, the ACL")
    func acl() throws {
        let set = try ObjectUpdate(body: json(#"{"ACL":{"*":{"read":true}}}"#), isCreate: true)
        #expect(set.acl == .some(ACL(entries: ["*": ACL.Rights(read: true)])))
        #expect(set.operations.isEmpty)
        #expect(!set.isEmpty)
        let removed = try ObjectUpdate(body: json(#"{"ACL":null}"#), isCreate: false)
        #expect(removed.acl == .some(nil))
        let untouched = try ObjectUpdate(body: json(#"{"a":1}"#), isCreate: false)
        #expect(untouched.acl == nil)
    }

    @Test("an invalid ACL is refused as such", arguments: [#"{"ACL":[]}"#, #"{"ACL":{"*":{"read":"no"}}}"#, #"{"ACL":true}"#])
    func invalidACL(_ body: String) {
        #expect(reason { _ = try ObjectUpdate(body: json(body), isCreate: true) } == .invalidACL)
    }

    @Test("operations are ordered by path, so one body always gives the same order")
    func ordering() throws {
        let update = try ObjectUpdate(body: json(#"{"z":1,"b":{"__op":"Increment"},"a":{"__op":"Delete"},"m":[1]}"#), isCreate: false)
        #expect(update.operations.map(\.path.description) == ["a", "b", "m", "z"])
        #expect(update.operations.map(\.operation) == [.delete, .increment(.int(1)), .set(.array([.int(1)])), .set(.int(1))])
    }

    @Test("relation edits are kept apart from the operations that change the document")
    func relationOperations() throws {
        let pointer = #"{"__type":"Pointer","className":"_User","objectId":"u1"}"#
        let update = try ObjectUpdate(
            body: json(#"{"likes":{"__op":"AddRelation","objects":[\#(pointer)]},"n":{"__op":"Increment"}}"#), isCreate: false)
        #expect(update.documentOperations.map(\.path.description) == ["n"])
        #expect(update.relationOperations.count == 1)
        #expect(update.relationOperations.first?.field == "likes")
        #expect(update.relationOperations.first?.add == [Pointer(className: "_User", objectId: "u1")])
        #expect(update.relationOperations.first?.remove == [])
    }

    @Test("values are decoded with the caller's default offset")
    func defaultOffset() throws {
        let update = try ObjectUpdate(
            body: json(#"{"when":{"__type":"Date","iso":"2015-06-21 18:02:52"}}"#), isCreate: true, defaultOffsetMinutes: 480)
        #expect(update.operations.first?.operation == .set(.date(Timestamp(millisecondsSince1970: 1_434_880_972_000))))
    }

    @Test("malformed values in the body fail with their own reason")
    func malformedValues() {
        #expect(reason { _ = try ObjectUpdate(body: json(#"{"p":{"__type":"Pointer"}}"#), isCreate: true) } == .invalidPointer)
        #expect(reason { _ = try ObjectUpdate(body: json(#"{"o":{"a.b":1}}"#), isCreate: true) } == .invalidNestedKey)
    }

    @Test("updates with the same operations are equal and hash alike")
    func equality() throws {
        let first = try ObjectUpdate(body: json(#"{"a":1,"b":{"__op":"Delete"}}"#), isCreate: false)
        let second = try ObjectUpdate(body: json(#"{"b":{"__op":"Delete"},"a":1}"#), isCreate: false)
        let other = try ObjectUpdate(body: json(#"{"a":2,"b":{"__op":"Delete"}}"#), isCreate: false)
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(first != other)
    }
}
