import CirrusModel
import Testing

@Suite("Condition wire decoding")
struct ConditionWireTests {
    static let a = FieldPath(field: "a")
    static let b = FieldPath(field: "b")

    @Test("each operator decodes to its condition", arguments: [
        (#"{"a":1}"#, Condition.compare(a, .equal, .int(1))),
        (#"{"a":{"$eq":"x"}}"#, .compare(a, .equal, .string("x"))),
        (#"{"a":{"$ne":null}}"#, .compare(a, .notEqual, .null)),
        (#"{"a":{"$lt":1.5}}"#, .compare(a, .lessThan, .double(1.5))),
        (#"{"a":{"$lte":"m"}}"#, .compare(a, .lessThanOrEqual, .string("m"))),
        (#"{"a":{"$gt":{"__type":"Date","iso":"1970-01-01T00:00:00Z"}}}"#,
         .compare(a, .greaterThan, .date(Timestamp(millisecondsSince1970: 0)))),
        (#"{"a":{"$gte":0}}"#, .compare(a, .greaterThanOrEqual, .int(0))),
        (#"{"a":{"$in":[1,"x",null]}}"#, .inList(a, [.int(1), .string("x"), .null], negated: false)),
        (#"{"a":{"$nin":[]}}"#, .inList(a, [], negated: true)),
        (#"{"a":{"$all":[1,2]}}"#, .containsAll(a, [.int(1), .int(2)])),
        (#"{"a":{"$exists":true}}"#, .exists(a, true)),
        (#"{"a":{"$exists":false}}"#, .exists(a, false)),
        (#"{"a":{"$size":2}}"#, .size(a, 2)),
        (#"{"a":{"$size":2.0}}"#, .size(a, 2)),
        (#"{"a":{"$regex":"^x"}}"#, .regex(a, pattern: "^x", options: "")),
        (#"{"a":{"$regex":"^x","$options":"im"}}"#, .regex(a, pattern: "^x", options: "im")),
        (#"{"a":{"k":1}}"#, .compare(a, .equal, .object(["k": .int(1)]))),
        (#"{"a":[1,2]}"#, .compare(a, .equal, .array([.int(1), .int(2)]))),
        (#"{"a":{"__type":"Pointer","className":"A","objectId":"x"}}"#,
         .compare(a, .equal, .pointer(Pointer(className: "A", objectId: "x")))),
        (#"{"a.b.0":true}"#, .compare(FieldPath(["a", "b", "0"]), .equal, .bool(true))),
        (#"{"a":{"$gt":1,"$lt":5}}"#, .and([.compare(a, .greaterThan, .int(1)), .compare(a, .lessThan, .int(5))])),
        (#"{"b":2,"a":1}"#, .and([.compare(a, .equal, .int(1)), .compare(b, .equal, .int(2))])),
        (#"{"$or":[{"a":1},{"b":2}]}"#, .or([.compare(a, .equal, .int(1)), .compare(b, .equal, .int(2))])),
        (#"{"$and":[{"a":1},{"b":2}]}"#, .and([.compare(a, .equal, .int(1)), .compare(b, .equal, .int(2))])),
        (#"{"$nor":[{"a":1}]}"#, .nor([.compare(a, .equal, .int(1))])),
        (#"[{"a":1},{"b":2}]"#, .and([.compare(a, .equal, .int(1)), .compare(b, .equal, .int(2))])),
        (#"[{"a":1}]"#, .compare(a, .equal, .int(1))),
        (#"{"$and":[{"a":1},{"$and":[{"b":2}]}],"c":3}"#,
         .and([.compare(a, .equal, .int(1)), .compare(b, .equal, .int(2)), .compare(FieldPath(field: "c"), .equal, .int(3))])),
        (#"{}"#, .always),
        ("[]", .always),
        ("null", .always),
        (#"{"$or":[{}]}"#, .or([.always])),
    ])
    func decodes(_ text: String, _ expected: Condition) throws {
        #expect(try Condition(where: json(text)) == expected)
    }

    @Test("createdAt and updatedAt accept bare ISO strings as dates; other fields keep strings")
    func bareDates() throws {
        let stamp = Value.date(Timestamp(millisecondsSince1970: 1_434_909_772_249))
        #expect(try Condition(where: json(#"{"createdAt":{"$gt":"2015-06-21T18:02:52.249Z"}}"#))
            == .compare(FieldPath(field: "createdAt"), .greaterThan, stamp))
        #expect(try Condition(where: json(#"{"updatedAt":"2015-06-21T18:02:52.249Z"}"#))
            == .compare(FieldPath(field: "updatedAt"), .equal, stamp))
        #expect(try Condition(where: json(#"{"createdAt":"soon"}"#)) == .compare(FieldPath(field: "createdAt"), .equal, .string("soon")))
        #expect(try Condition(where: json(#"{"other":"2015-06-21T18:02:52.249Z"}"#))
            == .compare(FieldPath(field: "other"), .equal, .string("2015-06-21T18:02:52.249Z")))
        #expect(try Condition(where: json(#"{"createdAt":{"$in":["2015-06-21 18:02:52"]}}"#), defaultOffsetMinutes: 480)
            == .inList(FieldPath(field: "createdAt"), [.date(Timestamp(millisecondsSince1970: 1_434_880_972_000))], negated: false))
    }

    @Test("unknown operators, bad operands and bad keys are invalid queries", arguments: [
        #"{"$foo":1}"#, #"{"a":{"$foo":1}}"#, #"{"a":{"$near":{"__type":"GeoPoint","latitude":0,"longitude":0}}}"#,
        #"{"a":{"$gt":1,"b":2}}"#, #"{"a":{"b":2,"$gt":1}}"#, #"{"a":{"$options":"i"}}"#,
        #""a""#, "1", "true", "[1]", #"{"$or":[]}"#, #"{"$or":{"a":1}}"#, #"{"$and":[1]}"#, #"{"$nor":null}"#,
        #"{"a":{"$lt":true}}"#, #"{"a":{"$gt":null}}"#, #"{"a":{"$lte":[1]}}"#, #"{"a":{"$gte":{"k":1}}}"#,
        #"{"a":{"$lt":{"__type":"Pointer","className":"A","objectId":"x"}}}"#,
        #"{"a":{"$in":1}}"#, #"{"a":{"$nin":"x"}}"#, #"{"a":{"$all":{}}}"#,
        #"{"a":{"$exists":1}}"#, #"{"a":{"$exists":"true"}}"#,
        #"{"a":{"$size":-1}}"#, #"{"a":{"$size":1.5}}"#, #"{"a":{"$size":"2"}}"#,
        #"{"a":{"$regex":1}}"#, #"{"a":{"$regex":"("}}"#, #"{"a":{"$regex":"x","$options":"g"}}"#,
        #"{"1a":1}"#, #"{"a..b":1}"#, #"{"_a":1}"#, #"{"a":{"__type":"Pointer","className":"A"}}"#,
        #"{"a":{"$in":[{"__type":"GeoPoint","latitude":100,"longitude":0}]}}"#, #"{"a":{"x.y":1}}"#,
    ])
    func invalid(_ text: String) {
        #expect(reason { _ = try Condition(where: json(text)) } == .invalidQuery)
    }

    @Test("AND of parts drops always, flattens nested ANDs and unwraps a single part")
    func all() {
        let one = Condition.compare(Self.a, .equal, .int(1))
        let two = Condition.exists(Self.b, true)
        #expect(Condition.all([]) == .always)
        #expect(Condition.all([.always, one, .always]) == one)
        #expect(Condition.all([.and([one, two]), .always, one]) == .and([one, two, one]))
        #expect(Condition.all([.or([one, two])]) == .or([one, two]))
    }
}
