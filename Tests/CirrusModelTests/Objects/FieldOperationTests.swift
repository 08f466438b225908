import CirrusModel
import Testing

@Suite("FieldOperation")
struct FieldOperationTests {
    static let user1 = Value.pointer(Pointer(className: "_User", objectId: "u1"))
    static let user2 = Value.pointer(Pointer(className: "_User", objectId: "u2"))

    @Test("applying an operation to the current value gives the new value", arguments: [
        (FieldOperation.set(.string("x")), Value?.some(.int(1)), Value?.some(.string("x"))),
        (.set(.null), nil, .some(.null)),
        (.delete, .some(.int(1)), nil),
        (.delete, nil, nil),
        (.increment(.int(1)), nil, .some(.int(1))),
        (.increment(.int(2)), .some(.int(40)), .some(.int(42))),
        (.increment(.int(-3)), .some(.int(1)), .some(.int(-2))),
        (.increment(.double(0.5)), .some(.int(1)), .some(.double(1.5))),
        (.increment(.int(1)), .some(.double(1.5)), .some(.double(2.5))),
        (.increment(.double(1.0)), .some(.int(1)), .some(.double(2.0))),
        (.increment(.int(1)), .some(.int(.max)), .some(.double(9_223_372_036_854_775_808))),
        (.increment(.int(1)), .some(.string("5")), .some(.int(1))),
        (.increment(.double(0.5)), .some(.null), .some(.double(0.5))),
        (.bitAnd(6), .some(.int(3)), .some(.int(2))),
        (.bitOr(6), .some(.int(3)), .some(.int(7))),
        (.bitXor(6), .some(.int(3)), .some(.int(5))),
        (.bitOr(4), nil, .some(.int(4))),
        (.bitAnd(3), .some(.double(1.9)), .some(.int(1))),
        (.bitAnd(255), .some(.double(-1.5)), .some(.int(255))),
        (.bitOr(1), .some(.string("x")), .some(.int(1))),
        (.add([.int(3), .int(3)]), .some(.array([.int(1), .int(3)])), .some(.array([.int(1), .int(3), .int(3), .int(3)]))),
        (.add([.int(1)]), nil, .some(.array([.int(1)]))),
        (.add([.int(1)]), .some(.string("x")), .some(.array([.int(1)]))),
        (.addUnique([.int(3), .int(4), .double(1.0)]), .some(.array([.int(1), .int(3)])),
         .some(.array([.int(1), .int(3), .int(4)]))),
        (.addUnique([.int(1), .int(1)]), nil, .some(.array([.int(1)]))),
        (.addUnique([user1, user2]), .some(.array([user1])), .some(.array([user1, user2]))),
        (.addUnique([.array([.int(1), .double(2)])]), .some(.array([.array([.int(1), .int(2)])])),
         .some(.array([.array([.int(1), .int(2)])]))),
        (.remove([.int(3)]), .some(.array([.int(3), .int(1), .double(3.0), .int(3)])), .some(.array([.int(1)]))),
        (.remove([.object(["k": .int(1)])]), .some(.array([.object(["k": .double(1)]), .object(["k": .int(2)])])),
         .some(.array([.object(["k": .int(2)])]))),
        (.remove([.int(1)]), nil, .some(.array([]))),
        (.remove([user1]), .some(.array([user1, user2])), .some(.array([user2]))),
        (.relation(add: [Pointer(className: "A", objectId: "a")], remove: []), .some(.int(7)), .some(.int(7))),
    ])
    func apply(_ operation: FieldOperation, _ current: Value?, _ expected: Value?) {
        #expect(operation.apply(to: current) == expected)
    }

    @Test("each operation says which field type it gives its field")
    func fieldTypes() {
        #expect(FieldOperation.set(.string("a")).fieldType == .string)
        #expect(FieldOperation.set(.null).fieldType == nil)
        #expect(FieldOperation.delete.fieldType == nil)
        #expect(FieldOperation.increment(.int(1)).fieldType == .number)
        #expect(FieldOperation.bitXor(1).fieldType == .number)
        #expect(FieldOperation.add([]).fieldType == .array)
        #expect(FieldOperation.remove([]).fieldType == .array)
        #expect(FieldOperation.relation(add: [], remove: [Pointer(className: "A", objectId: "a")]).fieldType
            == .relation(targetClass: "A"))
        #expect(FieldOperation.relation(add: [], remove: []).fieldType == nil)
    }

    @Test("only relation edits leave the document untouched")
    func touchesDocument() {
        #expect(FieldOperation.delete.touchesDocument)
        #expect(FieldOperation.addUnique([]).touchesDocument)
        #expect(!FieldOperation.relation(add: [], remove: []).touchesDocument)
    }

    @Test("equivalence compares numbers by value and containers element by element", arguments: [
        (Value.int(1), Value.double(1.0), true),
        (.double(0.5), .double(0.5), true),
        (.int(1), .string("1"), false),
        (.array([.int(1), .array([.double(2)])]), .array([.double(1), .array([.int(2)])]), true),
        (.array([.int(1)]), .array([.int(1), .int(1)]), false),
        (.object(["a": .int(1), "b": .null]), .object(["b": .null, "a": .double(1)]), true),
        (.object(["a": .int(1)]), .object(["b": .int(1)]), false),
        (.object(["a": .int(1)]), .object(["a": .int(1), "b": .int(2)]), false),
        (user1, user1, true),
        (user1, user2, false),
        (.bool(true), .int(1), false),
    ])
    func equivalence(_ left: Value, _ right: Value, _ equivalent: Bool) {
        #expect(left.isEquivalent(to: right) == equivalent)
        #expect(right.isEquivalent(to: left) == equivalent)
    }
}
