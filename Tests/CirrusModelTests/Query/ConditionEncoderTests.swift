import CirrusModel
import Testing

@Suite("Condition wire encoding")
struct ConditionEncoderTests {
    static let pointer = #"{"__type":"Pointer","className":"Post","objectId":"p1"}"#
    static let point = #"{"__type":"GeoPoint","latitude":39.9,"longitude":116.4}"#

    /// Every operator the decoder reads: decoding the encoding gives the same condition back.
    @Test("a decoded where encodes to a where that decodes to the same condition", arguments: [
        #"{}"#,
        #"{"title":"a"}"#,
        #"{"score":{"$gt":1}}"#,
        #"{"score":{"$gte":1,"$lt":10},"title":{"$ne":"x"}}"#,
        #"{"when":{"$lte":{"__type":"Date","iso":"2015-06-21T18:02:52.249Z"}}}"#,
        #"{"owner":\#(pointer)}"#,
        #"{"tags":{"$in":["a","b"]},"other":{"$nin":[1,2.5]}}"#,
        #"{"tags":{"$all":["a","b"]},"list":{"$size":3}}"#,
        #"{"title":{"$exists":true},"body":{"$exists":false}}"#,
        #"{"title":{"$regex":"^a.*","$options":"im"}}"#,
        #"{"title":{"$regex":"\\Qa.b\\E"}}"#,
        #"{"a.b.0":{"$gt":2}}"#,
        #"{"$or":[{"a":1},{"b":{"$lt":2}}]}"#,
        #"{"$nor":[{"a":1},{"b":2}]}"#,
        #"{"$and":[{"a":{"$gt":1}},{"a":{"$gt":5}}]}"#,
        #"{"$and":[{"a":1},{"a":{"$ne":2}}]}"#,
        #"{"post":{"$inQuery":{"className":"Post","where":{"score":{"$gt":1}}}}}"#,
        #"{"post":{"$notInQuery":{"className":"Post","where":{},"limit":5}}}"#,
        #"{"city":{"$select":{"query":{"className":"Team","where":{"wins":{"$gt":3}}},"key":"hometown"}}}"#,
        #"{"city":{"$dontSelect":{"query":{"className":"Team","where":{}},"key":"a.b"}}}"#,
        #"{"$relatedTo":{"object":\#(pointer),"key":"likes"},"score":1}"#,
        #"{"location":{"$nearSphere":\#(point),"$maxDistanceInKilometers":10,"$minDistanceInMiles":1}}"#,
        #"{"location":{"$nearSphere":\#(point)}}"#,
        #"{"location":{"$within":{"$box":[\#(point),{"__type":"GeoPoint","latitude":40,"longitude":117}]}}}"#,
        #"{"location":{"$geoWithin":{"$polygon":[[116,39],[117,39],[117,40]]}}}"#,
        #"{"location":{"$geoWithin":{"$centerSphere":[[116.4,39.9],0.1]}}}"#,
    ])
    func roundTrip(_ text: String) throws {
        let condition = try Condition(where: try JSONParser.parse(text))
        #expect(try Condition(where: condition.wire) == condition, "\(JSONWriter.string(condition.wire))")
    }

    @Test("conditions on one field share one object, as the SDKs write them")
    func mergesOneField() throws {
        let condition = Condition.all([
            .compare(FieldPath(field: "age"), .greaterThanOrEqual, .int(18)),
            .compare(FieldPath(field: "age"), .lessThan, .int(65)),
            .compare(FieldPath(field: "city"), .equal, .string("Paris")),
        ])
        #expect(condition.wire == (try JSONParser.parse(#"{"age":{"$gte":18,"$lt":65},"city":"Paris"}"#)))
    }

    @Test("conditions that name one key twice are an $and of one object each")
    func collisionsAreAnd() throws {
        let condition = Condition.all([
            .compare(FieldPath(field: "a"), .equal, .int(1)),
            .compare(FieldPath(field: "a"), .notEqual, .int(2)),
        ])
        #expect(condition.wire == (try JSONParser.parse(#"{"$and":[{"a":1},{"a":{"$ne":2}}]}"#)))
    }

    @Test("distances are written in radians")
    func distancesInRadians() throws {
        let center = try GeoPoint(latitude: 1, longitude: 2)
        let condition = Condition.near(FieldPath(field: "at"), center, maximumDistance: 0.5, minimumDistance: nil)
        #expect(condition.wire["at"]?["$maxDistanceInRadians"] == .double(0.5))
        #expect(condition.wire["at"]?["$maxDistanceInKilometers"] == nil)
    }
}
