import CirrusModel
import Testing

/// One row: a `where` as a client sends it, the stored fields of an object, and whether it matches.
struct EvaluationCase: Sendable, CustomTestStringConvertible {
    let condition: String
    let fields: String
    let matches: Bool

    init(_ condition: String, _ fields: String, _ matches: Bool) {
        self.condition = condition
        self.fields = fields
        self.matches = matches
    }

    var testDescription: String { "\(condition) on \(fields) -> \(matches)" }
}

@Suite("In-memory evaluation of conditions")
struct ConditionEvaluateTests {
    static let created = Timestamp(millisecondsSince1970: 1_700_000_000_000)
    static let updated = Timestamp(millisecondsSince1970: 1_700_000_100_000)
    static let dateA = #"{"__type":"Date","iso":"2023-01-01T00:00:00.000Z"}"#
    static let dateB = #"{"__type":"Date","iso":"2023-06-01T12:30:00.500Z"}"#
    static let pointerA = #"{"__type":"Pointer","className":"Owner","objectId":"o1"}"#
    static let pointerB = #"{"__type":"Pointer","className":"Other","objectId":"o1"}"#

    func evaluate(_ row: EvaluationCase, resolver: any ConditionResolver = StaticConditionResolver()) throws -> Bool {
        let condition = try Condition(where: json(row.condition))
        guard case .object(let fields) = json(row.fields) else { preconditionFailure("fields must be an object: \(row.fields)") }
        let subject = ConditionSubject(className: "Thing", objectId: "abc123", createdAt: Self.created, updatedAt: Self.updated, fields: fields)
        return condition.matches(subject, resolver: resolver)
    }

    @Test("equality compares values of the same type only, and numbers by value", arguments: [
        EvaluationCase(#"{"f":1}"#, #"{"f":1}"#, true),
        EvaluationCase(#"{"f":1}"#, #"{"f":1.0}"#, true),
        EvaluationCase(#"{"f":1.5}"#, #"{"f":1}"#, false),
        EvaluationCase(#"{"f":1}"#, #"{"f":"1"}"#, false),
        EvaluationCase(#"{"f":9007199254740993}"#, #"{"f":9007199254740992.0}"#, false),
        EvaluationCase(#"{"f":9007199254740992}"#, #"{"f":9007199254740992.0}"#, true),
        EvaluationCase(#"{"f":{"$gt":9007199254740992.0}}"#, #"{"f":9007199254740993}"#, true),
        EvaluationCase(#"{"f":{"$lt":9223372036854775807}}"#, #"{"f":9223372036854775808.0}"#, false),
        EvaluationCase(#"{"f":0}"#, #"{"f":-0.0}"#, true),
        EvaluationCase(#"{"f":1}"#, #"{"f":true}"#, false),
        EvaluationCase(#"{"f":true}"#, #"{"f":true}"#, true),
        EvaluationCase(#"{"f":true}"#, #"{"f":1}"#, false),
        EvaluationCase(#"{"f":false}"#, #"{"f":false}"#, true),
        EvaluationCase(#"{"f":"a"}"#, #"{"f":"a"}"#, true),
        EvaluationCase(#"{"f":"a"}"#, #"{"f":"A"}"#, false),
        EvaluationCase(#"{"f":"é"}"#, "{\"f\":\"e\u{301}\"}", false),
        EvaluationCase(#"{"f":1}"#, #"{}"#, false),
        EvaluationCase(#"{"f":{"__type":"Date","iso":"2023-01-01T00:00:00Z"}}"#, #"{"f":\#(dateA)}"#, true),
        EvaluationCase(#"{"f":{"__type":"Date","iso":"2023-01-01T08:00:00+08:00"}}"#, #"{"f":\#(dateA)}"#, true),
        EvaluationCase(#"{"f":\#(dateB)}"#, #"{"f":\#(dateA)}"#, false),
        EvaluationCase(#"{"f":\#(dateA)}"#, #"{"f":"2023-01-01T00:00:00.000Z"}"#, false),
        EvaluationCase(#"{"f":\#(pointerA)}"#, #"{"f":\#(pointerA)}"#, true),
        EvaluationCase(#"{"f":\#(pointerA)}"#, #"{"f":\#(pointerB)}"#, false),
        EvaluationCase(#"{"f":\#(pointerA)}"#, #"{"f":{"__type":"Pointer","className":"Owner","objectId":"o2"}}"#, false),
        EvaluationCase(#"{"f":{"k":1,"j":[1,2]}}"#, #"{"f":{"j":[1.0,2],"k":1}}"#, true),
        EvaluationCase(#"{"f":{"k":1}}"#, #"{"f":{"k":1,"j":2}}"#, false),
        EvaluationCase(#"{"f":{"__type":"GeoPoint","latitude":1,"longitude":2}}"#, #"{"f":{"__type":"GeoPoint","latitude":1.0,"longitude":2.0}}"#, true),
    ])
    func equality(_ row: EvaluationCase) throws {
        #expect(try evaluate(row) == row.matches)
    }

    @Test("equality on an array field means contains, or the same array as a whole", arguments: [
        EvaluationCase(#"{"f":2}"#, #"{"f":[1,2,3]}"#, true),
        EvaluationCase(#"{"f":4}"#, #"{"f":[1,2,3]}"#, false),
        EvaluationCase(#"{"f":"a"}"#, #"{"f":["a",1]}"#, true),
        EvaluationCase(#"{"f":\#(pointerA)}"#, #"{"f":[\#(pointerB),\#(pointerA)]}"#, true),
        EvaluationCase(#"{"f":[1,2]}"#, #"{"f":[1,2]}"#, true),
        EvaluationCase(#"{"f":[1,2]}"#, #"{"f":[2,1]}"#, false),
        EvaluationCase(#"{"f":[1,2]}"#, #"{"f":[[1,2],3]}"#, true),
        EvaluationCase(#"{"f":[1]}"#, #"{"f":1}"#, false),
        EvaluationCase(#"{"f":2}"#, #"{"f":[]}"#, false),
    ])
    func arrayEquality(_ row: EvaluationCase) throws {
        #expect(try evaluate(row) == row.matches)
    }

    @Test("null matches a missing or null field; $ne and $nin match a missing field", arguments: [
        EvaluationCase(#"{"f":null}"#, #"{}"#, true),
        EvaluationCase(#"{"f":null}"#, #"{"f":null}"#, true),
        EvaluationCase(#"{"f":null}"#, #"{"f":0}"#, false),
        EvaluationCase(#"{"f":null}"#, #"{"f":[null]}"#, false),
        EvaluationCase(#"{"f":{"$ne":null}}"#, #"{}"#, false),
        EvaluationCase(#"{"f":{"$ne":null}}"#, #"{"f":false}"#, true),
        EvaluationCase(#"{"f":{"$ne":1}}"#, #"{}"#, true),
        EvaluationCase(#"{"f":{"$ne":1}}"#, #"{"f":1.0}"#, false),
        EvaluationCase(#"{"f":{"$ne":1}}"#, #"{"f":"1"}"#, true),
        EvaluationCase(#"{"f":{"$ne":1}}"#, #"{"f":[0,1]}"#, false),
        EvaluationCase(#"{"f":{"$ne":1}}"#, #"{"f":[0,2]}"#, true),
        EvaluationCase(#"{"f":{"$nin":[1,2]}}"#, #"{}"#, true),
        EvaluationCase(#"{"f":{"$nin":[1,2]}}"#, #"{"f":2}"#, false),
        EvaluationCase(#"{"f":{"$nin":[]}}"#, #"{"f":2}"#, true),
        EvaluationCase(#"{"f":{"$in":[]}}"#, #"{"f":2}"#, false),
        EvaluationCase(#"{"f":{"$in":[null]}}"#, #"{}"#, true),
        EvaluationCase(#"{"f":{"$in":["a",2.0]}}"#, #"{"f":2}"#, true),
        EvaluationCase(#"{"f":{"$in":["a",2]}}"#, #"{"f":[5,"a"]}"#, true),
        EvaluationCase(#"{"f":{"$in":[[1,2]]}}"#, #"{"f":[1,2]}"#, true),
        EvaluationCase(#"{"f":{"$in":[\#(dateA)]}}"#, #"{"f":\#(dateA)}"#, true),
        EvaluationCase(#"{"f":{"$in":[\#(pointerA)]}}"#, #"{"f":\#(pointerB)}"#, false),
    ])
    func nullsAndNegations(_ row: EvaluationCase) throws {
        #expect(try evaluate(row) == row.matches)
    }

    @Test("ordering compares numbers, strings and dates within their kind", arguments: [
        EvaluationCase(#"{"f":{"$lt":2}}"#, #"{"f":1.5}"#, true),
        EvaluationCase(#"{"f":{"$lt":2}}"#, #"{"f":2.0}"#, false),
        EvaluationCase(#"{"f":{"$lte":2}}"#, #"{"f":2.0}"#, true),
        EvaluationCase(#"{"f":{"$gt":1.5}}"#, #"{"f":2}"#, true),
        EvaluationCase(#"{"f":{"$gte":3}}"#, #"{"f":2}"#, false),
        EvaluationCase(#"{"f":{"$gt":1}}"#, #"{"f":"2"}"#, false),
        EvaluationCase(#"{"f":{"$lt":"b"}}"#, #"{"f":"a"}"#, true),
        EvaluationCase(#"{"f":{"$lt":"b"}}"#, #"{"f":"B"}"#, true),
        EvaluationCase(#"{"f":{"$gt":"b"}}"#, #"{"f":"é"}"#, true),
        EvaluationCase(#"{"f":{"$lt":"b"}}"#, #"{"f":1}"#, false),
        EvaluationCase(#"{"f":{"$gt":\#(dateA)}}"#, #"{"f":\#(dateB)}"#, true),
        EvaluationCase(#"{"f":{"$lt":\#(dateA)}}"#, #"{"f":\#(dateB)}"#, false),
        EvaluationCase(#"{"f":{"$gte":\#(dateA)}}"#, #"{"f":\#(dateA)}"#, true),
        EvaluationCase(#"{"f":{"$gt":\#(dateA)}}"#, #"{"f":"2024-01-01T00:00:00.000Z"}"#, false),
        EvaluationCase(#"{"f":{"$gt":5}}"#, #"{"f":[1,7]}"#, true),
        EvaluationCase(#"{"f":{"$gt":5}}"#, #"{"f":[1,2]}"#, false),
        EvaluationCase(#"{"f":{"$lt":5}}"#, #"{}"#, false),
        EvaluationCase(#"{"f":{"$gt":1,"$lt":3}}"#, #"{"f":2}"#, true),
    ])
    func ordering(_ row: EvaluationCase) throws {
        #expect(try evaluate(row) == row.matches)
    }

    @Test("ordering against other kinds of operand (which the decoder refuses) matches nothing", arguments: [
        Value.bool(true), .null, .pointer(Pointer(className: "Owner", objectId: "o1")), .array([.int(1)]), .object(["k": .int(1)]),
    ])
    func orderingOtherKinds(_ operand: Value) {
        let subject = ConditionSubject(className: "Thing", objectId: "abc123", createdAt: Self.created, updatedAt: Self.updated, fields: ["f": operand.wire])
        for op in [Condition.Comparison.lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual] {
            #expect(!Condition.compare(FieldPath(field: "f"), op, operand).matches(subject))
        }
        #expect(!Condition.compare(FieldPath(field: "f"), .notEqual, operand).matches(subject))
    }

    @Test("$all, $exists, $size and $regex", arguments: [
        EvaluationCase(#"{"f":{"$all":[1,"a"]}}"#, #"{"f":["a",2,1]}"#, true),
        EvaluationCase(#"{"f":{"$all":[1,"b"]}}"#, #"{"f":["a",2,1]}"#, false),
        EvaluationCase(#"{"f":{"$all":[]}}"#, #"{"f":[1]}"#, false),
        EvaluationCase(#"{"f":{"$all":[1]}}"#, #"{"f":1}"#, true),
        EvaluationCase(#"{"f":{"$all":[null]}}"#, #"{}"#, true),
        EvaluationCase(#"{"f":{"$exists":true}}"#, #"{"f":null}"#, true),
        EvaluationCase(#"{"f":{"$exists":true}}"#, #"{}"#, false),
        EvaluationCase(#"{"f":{"$exists":false}}"#, #"{}"#, true),
        EvaluationCase(#"{"f":{"$exists":false}}"#, #"{"f":0}"#, false),
        EvaluationCase(#"{"f":{"$size":2}}"#, #"{"f":[1,[2,3]]}"#, true),
        EvaluationCase(#"{"f":{"$size":0}}"#, #"{"f":[]}"#, true),
        EvaluationCase(#"{"f":{"$size":0}}"#, #"{}"#, false),
        EvaluationCase(#"{"f":{"$size":1}}"#, #"{"f":"a"}"#, false),
        EvaluationCase(#"{"f":{"$regex":"^a"}}"#, #"{"f":"abc"}"#, true),
        EvaluationCase(#"{"f":{"$regex":"^A"}}"#, #"{"f":"abc"}"#, false),
        EvaluationCase(#"{"f":{"$regex":"^A","$options":"i"}}"#, #"{"f":"abc"}"#, true),
        EvaluationCase(#"{"f":{"$regex":"^b","$options":"m"}}"#, #"{"f":"a\nb"}"#, true),
        EvaluationCase(#"{"f":{"$regex":"^b"}}"#, #"{"f":"a\nb"}"#, false),
        EvaluationCase(#"{"f":{"$regex":"^\\Qa.\\E"}}"#, #"{"f":"a.b"}"#, true),
        EvaluationCase(#"{"f":{"$regex":"^\\Qa.\\E"}}"#, #"{"f":"ab"}"#, false),
        EvaluationCase(#"{"f":{"$regex":"b"}}"#, #"{"f":["a","xbx"]}"#, true),
        EvaluationCase(#"{"f":{"$regex":"1"}}"#, #"{"f":1}"#, false),
        EvaluationCase(#"{"f":{"$regex":"."}}"#, #"{}"#, false),
    ])
    func arraysAndText(_ row: EvaluationCase) throws {
        #expect(try evaluate(row) == row.matches)
    }

    @Test("dot paths reach into nested objects and index arrays", arguments: [
        EvaluationCase(#"{"f.k":1}"#, #"{"f":{"k":1}}"#, true),
        EvaluationCase(#"{"f.k.j":"x"}"#, #"{"f":{"k":{"j":"x"}}}"#, true),
        EvaluationCase(#"{"f.k":1}"#, #"{"f":{"j":1}}"#, false),
        EvaluationCase(#"{"f.k":null}"#, #"{"f":{"j":1}}"#, true),
        EvaluationCase(#"{"f.k":{"$ne":1}}"#, #"{"f":3}"#, true),
        EvaluationCase(#"{"f.1":"b"}"#, #"{"f":["a","b"]}"#, true),
        EvaluationCase(#"{"f.1":"b"}"#, #"{"f":{"1":"b"}}"#, true),
        EvaluationCase(#"{"f.2":{"$exists":true}}"#, #"{"f":["a","b"]}"#, false),
        EvaluationCase(#"{"f.0.k":2}"#, #"{"f":[{"k":[1,2]}]}"#, true),
        EvaluationCase(#"{"f.k":{"$gt":1}}"#, #"{"f":{"k":[0,3]}}"#, true),
        EvaluationCase(#"{"f.k":1}"#, #"{"f":[{"k":1}]}"#, false),
    ])
    func dotPaths(_ row: EvaluationCase) throws {
        #expect(try evaluate(row) == row.matches)
    }

    @Test("$and, $or and $nor combine conditions", arguments: [
        EvaluationCase(#"{"$or":[{"f":1},{"g":2}]}"#, #"{"g":2}"#, true),
        EvaluationCase(#"{"$or":[{"f":1},{"g":2}]}"#, #"{"g":3}"#, false),
        EvaluationCase(#"{"$and":[{"f":1},{"g":2}]}"#, #"{"f":1,"g":2}"#, true),
        EvaluationCase(#"{"$and":[{"f":1},{"g":2}]}"#, #"{"f":1}"#, false),
        EvaluationCase(#"{"$nor":[{"f":1},{"g":2}]}"#, #"{"f":3}"#, true),
        EvaluationCase(#"{"$nor":[{"f":1},{"g":2}]}"#, #"{"g":2}"#, false),
        EvaluationCase(#"{"$nor":[{"f":{"$gt":1}}]}"#, #"{}"#, true),
        EvaluationCase(#"{"$or":[{"$and":[{"f":1},{"$nor":[{"g":2}]}]},{"h":true}]}"#, #"{"f":1,"g":3}"#, true),
        EvaluationCase(#"{}"#, #"{}"#, true),
    ])
    func logic(_ row: EvaluationCase) throws {
        #expect(try evaluate(row) == row.matches)
    }

    @Test("objectId, createdAt and updatedAt compare as the built-in fields", arguments: [
        EvaluationCase(#"{"objectId":"abc123"}"#, #"{}"#, true),
        EvaluationCase(#"{"objectId":{"$in":["x","abc123"]}}"#, #"{}"#, true),
        EvaluationCase(#"{"objectId":{"$nin":["abc123"]}}"#, #"{}"#, false),
        EvaluationCase(#"{"objectId":{"$gt":"abc"}}"#, #"{}"#, true),
        EvaluationCase(#"{"objectId":{"$regex":"^abc"}}"#, #"{}"#, true),
        EvaluationCase(#"{"objectId":1}"#, #"{"objectId":1}"#, false),
        EvaluationCase(#"{"objectId":{"$ne":1}}"#, #"{}"#, true),
        EvaluationCase(#"{"objectId":{"$exists":false}}"#, #"{}"#, false),
        EvaluationCase(#"{"createdAt":{"$gte":"2023-11-14T22:13:20.000Z"}}"#, #"{}"#, true),
        EvaluationCase(#"{"createdAt":{"$gt":"2023-11-14T22:13:20.000Z"}}"#, #"{}"#, false),
        EvaluationCase(#"{"updatedAt":{"$gt":"2023-11-14T22:13:20.000Z"}}"#, #"{}"#, true),
        EvaluationCase(#"{"createdAt":{"$lt":5}}"#, #"{}"#, false),
        EvaluationCase(#"{"createdAt":{"$regex":"2023"}}"#, #"{}"#, false),
    ])
    func builtIns(_ row: EvaluationCase) throws {
        #expect(try evaluate(row) == row.matches)
    }

    static let beijing = #"{"loc":{"__type":"GeoPoint","latitude":39.9,"longitude":116.4}}"#
    static let fiji = #"{"loc":{"__type":"GeoPoint","latitude":-17.7,"longitude":178.0}}"#

    @Test("geo conditions measure great-circle distances on GeoPoint fields", arguments: [
        EvaluationCase(#"{"loc":{"$nearSphere":{"__type":"GeoPoint","latitude":40,"longitude":116.5}}}"#, beijing, true),
        EvaluationCase(#"{"loc":{"$nearSphere":{"__type":"GeoPoint","latitude":40,"longitude":116.5}}}"#, #"{"loc":[39.9,116.4]}"#, false),
        EvaluationCase(#"{"loc":{"$nearSphere":{"__type":"GeoPoint","latitude":40,"longitude":116.5},"$maxDistanceInKilometers":20}}"#, beijing, true),
        EvaluationCase(#"{"loc":{"$nearSphere":{"__type":"GeoPoint","latitude":40,"longitude":116.5},"$maxDistanceInKilometers":10}}"#, beijing, false),
        EvaluationCase(#"{"loc":{"$nearSphere":{"__type":"GeoPoint","latitude":40,"longitude":116.5},"$minDistanceInKilometers":10}}"#, beijing, true),
        EvaluationCase(#"{"loc":{"$geoWithin":{"$centerSphere":[[116.5,40],0.003]}}}"#, beijing, true),
        EvaluationCase(#"{"loc":{"$geoWithin":{"$centerSphere":[[116.5,40],0.001]}}}"#, beijing, false),
        EvaluationCase(#"{"loc":{"$within":{"$box":[{"__type":"GeoPoint","latitude":39,"longitude":116},{"__type":"GeoPoint","latitude":40,"longitude":117}]}}}"#, beijing, true),
        EvaluationCase(#"{"loc":{"$within":{"$box":[{"__type":"GeoPoint","latitude":39,"longitude":117},{"__type":"GeoPoint","latitude":40,"longitude":118}]}}}"#, beijing, false),
        EvaluationCase(#"{"loc":{"$within":{"$box":[{"__type":"GeoPoint","latitude":-20,"longitude":170},{"__type":"GeoPoint","latitude":-10,"longitude":-170}]}}}"#, fiji, true),
        EvaluationCase(#"{"loc":{"$geoWithin":{"$polygon":[[116,39],[117,39],[117,41],[116,41]]}}}"#, beijing, true),
        EvaluationCase(#"{"loc":{"$geoWithin":{"$polygon":[[117,39],[118,39],[118,41]]}}}"#, beijing, false),
        EvaluationCase(#"{"loc":{"$geoWithin":{"$centerSphere":[[116.5,40],1]}}}"#, #"{}"#, false),
    ])
    func geo(_ row: EvaluationCase) throws {
        #expect(try evaluate(row) == row.matches)
    }

    @Test("a subject reads nested values by member or index, as conditions do")
    func valueAtPath() {
        let subject = ConditionSubject(
            className: "Thing", objectId: "abc123", createdAt: Self.created, updatedAt: Self.updated,
            fields: ["a": json(#"{"list":[{"k":1}],"0":"zero"}"#), "b": json("[5,6]")]
        )
        #expect(subject.value(at: FieldPath(["a", "list", "0", "k"])) == 1)
        #expect(subject.value(at: FieldPath(["a", "0"])) == "zero")
        #expect(subject.value(at: FieldPath(["b", "1"])) == 6)
        #expect(subject.value(at: FieldPath(["b", "2"])) == nil)
        #expect(subject.value(at: FieldPath(field: "objectId")) == nil)
    }

    @Test("sub-queries and relations take their results from the resolver")
    func references() throws {
        let inner = SubQuery(className: "Owner", condition: .compare(FieldPath(field: "name"), .equal, .string("x")))
        let owner = Pointer(className: "Group", objectId: "g1")
        let resolver = StaticConditionResolver(
            objectIds: [inner: ["o1"]], values: [inner: [
                FieldPath(field: "city"): ["Paris", 3], FieldPath(field: "ref"): ["abc123"], FieldPath(field: "when"): [["__type": "Date", "iso": .string(Self.created.iso8601)]],
                FieldPath(field: "empty"): [nil], FieldPath(field: "shape"): [["a": 1, "b": [1]]],
            ]],
            relations: [owner: ["members": [Pointer(className: "Thing", objectId: "abc123")]]]
        )
        let inQuery = #"{"f":{"$inQuery":{"className":"Owner","where":{"name":"x"}}}}"#
        let notInQuery = #"{"f":{"$notInQuery":{"className":"Owner","where":{"name":"x"}}}}"#
        let select = #"{"f":{"$select":{"query":{"className":"Owner","where":{"name":"x"}},"key":"city"}}}"#
        let dontSelect = #"{"f":{"$dontSelect":{"query":{"className":"Owner","where":{"name":"x"}},"key":"city"}}}"#
        let related = #"{"$relatedTo":{"object":{"__type":"Pointer","className":"Group","objectId":"g1"},"key":"members"}}"#
        let rows = [
            EvaluationCase(inQuery, #"{"f":\#(Self.pointerA)}"#, true),
            EvaluationCase(inQuery, #"{"f":[\#(Self.pointerB),\#(Self.pointerA)]}"#, true),
            EvaluationCase(inQuery, #"{"f":\#(Self.pointerB)}"#, false),
            EvaluationCase(inQuery, #"{"f":{"__type":"Pointer","className":"Owner","objectId":"o2"}}"#, false),
            EvaluationCase(notInQuery, #"{}"#, true),
            EvaluationCase(notInQuery, #"{"f":\#(Self.pointerA)}"#, false),
            EvaluationCase(select, #"{"f":"Paris"}"#, true),
            EvaluationCase(select, #"{"f":3.0}"#, true),
            EvaluationCase(select, #"{"f":["Rome","Paris"]}"#, true),
            EvaluationCase(select, #"{"f":"Rome"}"#, false),
            EvaluationCase(dontSelect, #"{"f":"Rome"}"#, true),
            EvaluationCase(dontSelect, #"{"f":"Paris"}"#, false),
            EvaluationCase(related, #"{}"#, true),
            EvaluationCase(#"{"objectId":{"$select":{"query":{"className":"Owner","where":{"name":"x"}},"key":"ref"}}}"#, #"{}"#, true),
            EvaluationCase(#"{"createdAt":{"$select":{"query":{"className":"Owner","where":{"name":"x"}},"key":"when"}}}"#, #"{}"#, true),
            EvaluationCase(#"{"updatedAt":{"$select":{"query":{"className":"Owner","where":{"name":"x"}},"key":"when"}}}"#, #"{}"#, false),
            EvaluationCase(#"{"f":{"$select":{"query":{"className":"Owner","where":{"name":"x"}},"key":"empty"}}}"#, #"{"f":null}"#, true),
            EvaluationCase(#"{"f":{"$select":{"query":{"className":"Owner","where":{"name":"x"}},"key":"empty"}}}"#, #"{}"#, false),
            EvaluationCase(#"{"f":{"$select":{"query":{"className":"Owner","where":{"name":"x"}},"key":"shape"}}}"#, #"{"f":{"b":[1.0],"a":1}}"#, true),
        ]
        for row in rows {
            #expect(try evaluate(row, resolver: resolver) == row.matches, "\(row.testDescription)")
        }
        #expect(try evaluate(EvaluationCase(inQuery, #"{"f":\#(Self.pointerA)}"#, false)) == false)
        let otherOwner = #"{"$relatedTo":{"object":{"__type":"Pointer","className":"Group","objectId":"g2"},"key":"members"}}"#
        #expect(try evaluate(EvaluationCase(otherOwner, #"{}"#, false), resolver: resolver) == false)
    }
}
