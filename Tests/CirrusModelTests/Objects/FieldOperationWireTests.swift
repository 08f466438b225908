import CirrusModel
import Testing

@Suite("FieldOperation wire decoding")
struct FieldOperationWireTests {
    static let u1 = #"{"__type":"Pointer","className":"_User","objectId":"u1"}"#
    static let u2 = #"{"__type":"Pointer","className":"_User","objectId":"u2"}"#
    static let p1 = #"{"__type":"Pointer","className":"Post","objectId":"p1"}"#
    static let user1 = Pointer(className: "_User", objectId: "u1")
    static let user2 = Pointer(className: "_User", objectId: "u2")

    @Test("every __op decodes to its operation", arguments: [
        (#"{"__op":"Delete"}"#, FieldOperation.delete),
        (#"{"__op":"Increment"}"#, .increment(.int(1))),
        (#"{"__op":"Increment","amount":5}"#, .increment(.int(5))),
        (#"{"__op":"Increment","amount":-2.5}"#, .increment(.double(-2.5))),
        (#"{"__op":"Decrement"}"#, .increment(.int(-1))),
        (#"{"__op":"Decrement","amount":3}"#, .increment(.int(-3))),
        (#"{"__op":"Decrement","amount":0.5}"#, .increment(.double(-0.5))),
        (#"{"__op":"BitAnd","value":6}"#, .bitAnd(6)),
        (#"{"__op":"BitOr","value":-1}"#, .bitOr(-1)),
        (#"{"__op":"BitXor","value":0}"#, .bitXor(0)),
        (#"{"__op":"Add","objects":[1,"a",{"__type":"Date","iso":"1970-01-01T00:00:00Z"}]}"#,
         .add([.int(1), .string("a"), .date(Timestamp(millisecondsSince1970: 0))])),
        (#"{"__op":"Add","objects":[]}"#, .add([])),
        (#"{"__op":"AddUnique","objects":[1,1]}"#, .addUnique([.int(1), .int(1)])),
        (#"{"__op":"Remove","objects":[{"k":1}]}"#, .remove([.object(["k": .int(1)])])),
        (#"{"__op":"AddRelation","objects":[\#(u1),\#(u2)]}"#, .relation(add: [user1, user2], remove: [])),
        (#"{"__op":"RemoveRelation","objects":[\#(u1)]}"#, .relation(add: [], remove: [user1])),
        (#"{"__op":"Batch","ops":[{"__op":"AddRelation","objects":[\#(u1)]},{"__op":"RemoveRelation","objects":[\#(u2)]}]}"#,
         .relation(add: [user1], remove: [user2])),
        (#"{"__op":"AddRelation","objects":[{"__type":"Object","className":"_User","objectId":"u1","name":"x"}]}"#,
         .relation(add: [user1], remove: [])),
    ])
    func decodes(_ text: String, _ expected: FieldOperation) throws {
        #expect(try FieldOperation(wire: json(text)) == expected)
    }

    @Test("anything without __op is a set of the decoded value", arguments: [
        ("1", FieldOperation.set(.int(1))), ("null", .set(.null)), (#"{"op":"Delete"}"#, .set(.object(["op": .string("Delete")]))),
        (#"{"__type":"Date","iso":"1970-01-01T00:00:00Z"}"#, .set(.date(Timestamp(millisecondsSince1970: 0)))),
    ])
    func plainValues(_ text: String, _ expected: FieldOperation) throws {
        #expect(try FieldOperation(wire: json(text)) == expected)
    }

    @Test("malformed operations fail with the right reason", arguments: [
        (#"{"__op":"Explode"}"#, APIError.Reason.invalidParameter),
        (#"{"__op":5}"#, .invalidParameter),
        (#"{"__op":"delete"}"#, .invalidParameter),
        (#"{"__op":"Increment","amount":"1"}"#, .invalidParameter),
        (#"{"__op":"Increment","amount":null}"#, .invalidParameter),
        (#"{"__op":"BitAnd"}"#, .invalidParameter),
        (#"{"__op":"BitOr","value":1.5}"#, .invalidParameter),
        (#"{"__op":"BitXor","value":"1"}"#, .invalidParameter),
        (#"{"__op":"Add"}"#, .invalidParameter),
        (#"{"__op":"AddUnique","objects":1}"#, .invalidParameter),
        (#"{"__op":"Remove","objects":{"a":1}}"#, .invalidParameter),
        (#"{"__op":"Add","objects":[{"__type":"Pointer"}]}"#, .invalidPointer),
        (#"{"__op":"Add","objects":[{"a.b":1}]}"#, .invalidNestedKey),
        (#"{"__op":"AddRelation","objects":[]}"#, .invalidParameter),
        (#"{"__op":"AddRelation"}"#, .invalidParameter),
        (#"{"__op":"AddRelation","objects":[1]}"#, .invalidPointer),
        (#"{"__op":"AddRelation","objects":[{"__type":"File","id":"f"}]}"#, .invalidPointer),
        (#"{"__op":"AddRelation","objects":[{"__type":"Pointer","className":"_User"}]}"#, .invalidPointer),
        (#"{"__op":"RemoveRelation","objects":[\#(u1),\#(p1)]}"#, .invalidParameter),
        (#"{"__op":"Batch"}"#, .invalidParameter),
        (#"{"__op":"Batch","ops":[]}"#, .invalidParameter),
        (#"{"__op":"Batch","ops":[{"__op":"Increment"}]}"#, .invalidParameter),
        (#"{"__op":"Batch","ops":[{"__op":"AddRelation","objects":[\#(u1)]},{"__op":"RemoveRelation","objects":[\#(p1)]}]}"#,
         .invalidParameter),
    ])
    func malformed(_ text: String, _ expected: APIError.Reason) {
        #expect(reason { _ = try FieldOperation(wire: json(text)) } == expected)
    }

    @Test("relation edits take at most 1000 pointers at a time")
    func relationLimit() {
        let thousand = Array(repeating: Self.u1, count: 1000).joined(separator: ",")
        #expect(reason { _ = try FieldOperation(wire: json(#"{"__op":"AddRelation","objects":[\#(thousand)]}"#)) } == nil)
        let tooMany = thousand + "," + Self.u1
        #expect(reason { _ = try FieldOperation(wire: json(#"{"__op":"AddRelation","objects":[\#(tooMany)]}"#)) } == .invalidParameter)
    }
}

@Suite("FieldOperation wire encoding")
struct FieldOperationEncodingTests {
    static let u1 = Pointer(className: "_User", objectId: "u1")
    static let u2 = Pointer(className: "_User", objectId: "u2")

    @Test("an operation encodes to what decodes to it again", arguments: [
        FieldOperation.set(.string("x")), .set(.array([.int(1), .date(Timestamp(millisecondsSince1970: 5))])), .set(.null),
        .delete, .increment(.int(2)), .increment(.double(-0.5)), .bitAnd(6), .bitOr(1), .bitXor(255),
        .add([.int(1), .string("a")]), .addUnique([.pointer(u1)]), .remove([.bool(true)]),
        .relation(add: [u1, u2], remove: []), .relation(add: [], remove: [u2]), .relation(add: [u1], remove: [u2]),
    ])
    func roundTrip(_ operation: FieldOperation) throws {
        #expect(try FieldOperation(wire: operation.wire) == operation, "\(JSONWriter.string(operation.wire))")
    }

    @Test("an operation is written as LeanCloud's SDKs write it", arguments: [
        (FieldOperation.increment(.int(1)), #"{"__op":"Increment","amount":1}"#),
        (.add([.int(1)]), #"{"__op":"Add","objects":[1]}"#),
        (.delete, #"{"__op":"Delete"}"#),
        (.relation(add: [u1], remove: []), #"{"__op":"AddRelation","objects":[{"__type":"Pointer","className":"_User","objectId":"u1"}]}"#),
    ])
    func shapes(_ operation: FieldOperation, _ expected: String) throws {
        #expect(operation.wire == (try JSONParser.parse(expected)))
    }
}
