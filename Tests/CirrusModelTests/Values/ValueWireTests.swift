import CirrusModel
import Testing

@Suite("Value wire codec")
struct ValueWireTests {
    @Test("every __type decodes to its value and encodes back in the canonical stored form", arguments: [
        (#"{"__type":"Date","iso":"2015-06-21T18:02:52.249Z"}"#, #"{"__type":"Date","iso":"2015-06-21T18:02:52.249Z"}"#),
        (#"{"__type":"Date","iso":"2015-06-22T02:02:52+08:00"}"#, #"{"__type":"Date","iso":"2015-06-21T18:02:52.000Z"}"#),
        (#"{"__type":"Bytes","base64":"AAEC/+8="}"#, #"{"__type":"Bytes","base64":"AAEC/+8="}"#),
        (#"{"__type":"Bytes","base64":""}"#, #"{"__type":"Bytes","base64":""}"#),
        (#"{"__type":"Pointer","className":"_User","objectId":"55a39634e4b0ed48f0c1845c"}"#,
         #"{"__type":"Pointer","className":"_User","objectId":"55a39634e4b0ed48f0c1845c"}"#),
        (#"{"__type":"Object","className":"Post","objectId":"p1","title":"x"}"#,
         #"{"__type":"Pointer","className":"Post","objectId":"p1"}"#),
        (#"{"__type":"File","id":"f1","url":"http://x/a.png"}"#, #"{"__type":"File","id":"f1","url":"http://x/a.png"}"#),
        (#"{"__type":"File","objectId":"f1"}"#, #"{"__type":"File","id":"f1"}"#),
        (#"{"__type":"File","name":"a.png","url":"http://x/a.png"}"#, #"{"__type":"File","name":"a.png","url":"http://x/a.png"}"#),
        (#"{"__type":"File","filename":"a.png"}"#, #"{"__type":"File","name":"a.png"}"#),
        (#"{"__type":"File","id":"f1","mime_type":"image/png","metaData":{"size":3}}"#,
         #"{"__type":"File","id":"f1","metaData":{"size":3},"mime_type":"image/png"}"#),
        (#"{"__type":"GeoPoint","latitude":39,"longitude":-116.5}"#, #"{"__type":"GeoPoint","latitude":39.0,"longitude":-116.5}"#),
        (#"{"__type":"GeoPoint","latitude":-90,"longitude":180}"#, #"{"__type":"GeoPoint","latitude":-90.0,"longitude":180.0}"#),
        (#"{"__type":"Relation","className":"_User"}"#, #"{"__type":"Relation","className":"_User"}"#),
        (#"[1,2.5,"a",null,true,{"k":[{"__type":"Date","iso":"2015-06-21T18:02:52Z"}]}]"#,
         #"[1,2.5,"a",null,true,{"k":[{"__type":"Date","iso":"2015-06-21T18:02:52.000Z"}]}]"#),
        (#"{"a-b c":{"ü":1},"_x":2}"#, #"{"_x":2,"a-b c":{"ü":1}}"#),
    ])
    func typedValues(_ input: String, _ canonical: String) throws {
        let value = try Value(wire: json(input))
        #expect(JSONWriter.string(value.wire) == canonical)
        #expect(try Value(wire: value.wire) == value)
    }

    @Test("each __type gives the matching value case")
    func cases() throws {
        #expect(try Value(wire: json(#"{"__type":"Date","iso":"1970-01-01T00:00:01Z"}"#)) == .date(Timestamp(millisecondsSince1970: 1000)))
        #expect(try Value(wire: json(#"{"__type":"Bytes","base64":"AA=="}"#)) == .bytes(base64: "AA=="))
        #expect(try Value(wire: json(#"{"__type":"Pointer","className":"A","objectId":"b"}"#))
            == .pointer(Pointer(className: "A", objectId: "b")))
        #expect(try Value(wire: json(#"{"__type":"File","id":"f"}"#)) == .file(FileReference(id: "f")))
        #expect(try Value(wire: json(#"{"__type":"GeoPoint","latitude":1,"longitude":2}"#))
            == .geoPoint(GeoPoint(latitude: 1, longitude: 2)))
        #expect(try Value(wire: json(#"{"__type":"Relation","className":"A"}"#)) == .relation(className: "A"))
        #expect(try Value(wire: json(#"{"a":[1,2.0]}"#)) == .object(["a": .array([.int(1), .double(2)])]))
    }

    @Test("a date without a zone is read in the caller's default offset")
    func defaultOffset() throws {
        let value = try Value(wire: json(#"{"__type":"Date","iso":"2015-06-21 18:02:52"}"#), defaultOffsetMinutes: 480)
        #expect(value == .date(Timestamp(millisecondsSince1970: 1_434_880_972_000)))
    }

    @Test("malformed typed values and nested keys fail with the right reason", arguments: [
        (#"{"__type":"Pointer","className":"_User"}"#, APIError.Reason.invalidPointer),
        (#"{"__type":"Pointer","objectId":"a"}"#, .invalidPointer),
        (#"{"__type":"Pointer","className":"1abc","objectId":"a"}"#, .invalidPointer),
        (#"{"__type":"Pointer","className":"_Nope","objectId":"a"}"#, .invalidPointer),
        (#"{"__type":"Pointer","className":"A","objectId":"a b"}"#, .invalidPointer),
        (#"{"__type":"Pointer","className":"A","objectId":""}"#, .invalidPointer),
        (#"{"__type":"Pointer","className":"A","objectId":5}"#, .invalidPointer),
        (#"{"__type":"Object","className":"A"}"#, .invalidPointer),
        (#"{"__type":"GeoPoint","latitude":90.5,"longitude":0}"#, .invalidGeoPoint),
        (#"{"__type":"GeoPoint","latitude":-91,"longitude":0}"#, .invalidGeoPoint),
        (#"{"__type":"GeoPoint","latitude":0,"longitude":180.1}"#, .invalidGeoPoint),
        (#"{"__type":"GeoPoint","latitude":0,"longitude":-181}"#, .invalidGeoPoint),
        (#"{"__type":"GeoPoint","latitude":"1","longitude":2}"#, .invalidGeoPoint),
        (#"{"__type":"GeoPoint","latitude":1}"#, .invalidGeoPoint),
        (#"{"__type":"Date"}"#, .incorrectType),
        (#"{"__type":"Date","iso":"2015-02-30T00:00:00Z"}"#, .incorrectType),
        (#"{"__type":"Date","iso":1434909772249}"#, .incorrectType),
        (#"{"__type":"Bytes","base64":"abc"}"#, .incorrectType),
        (#"{"__type":"Bytes","base64":"ab=c"}"#, .incorrectType),
        (#"{"__type":"Bytes","base64":"a==="}"#, .incorrectType),
        (#"{"__type":"Bytes","base64":"ab-_"}"#, .incorrectType),
        (#"{"__type":"Bytes"}"#, .incorrectType),
        (#"{"__type":"File"}"#, .incorrectType),
        (#"{"__type":"Relation"}"#, .incorrectType),
        (#"{"__type":"Relation","className":"a b"}"#, .incorrectType),
        (#"{"__type":"Polygon","coordinates":[]}"#, .incorrectType),
        (#"{"__type":"date","iso":"2015-06-21T18:02:52Z"}"#, .incorrectType),
        (#"{"__type":5}"#, .incorrectType),
        (#"{"__type":null}"#, .incorrectType),
        (#"{"a.b":1}"#, .invalidNestedKey),
        (#"{"$a":1}"#, .invalidNestedKey),
        (#"{"a$":1}"#, .invalidNestedKey),
        (#"{"__a":1}"#, .invalidNestedKey),
        (#"{"":1}"#, .invalidNestedKey),
        (#"{"ok":{"deep":{"x.y":1}}}"#, .invalidNestedKey),
        (#"[1,{"x$":1}]"#, .invalidNestedKey),
        (#"[{"__type":"Pointer","className":"A"}]"#, .invalidPointer),
        (#"{"k":{"__type":"GeoPoint","latitude":100,"longitude":0}}"#, .invalidGeoPoint),
    ])
    func malformed(_ input: String, _ expected: APIError.Reason) {
        #expect(reason { _ = try Value(wire: json(input)) } == expected)
    }

    @Test("each value reports the field type it gives a column")
    func fieldTypes() {
        #expect(Value.null.fieldType == nil)
        #expect(Value.bool(true).fieldType == .boolean)
        #expect(Value.int(1).fieldType == .number)
        #expect(Value.double(1).fieldType == .number)
        #expect(Value.string("").fieldType == .string)
        #expect(Value.date(Timestamp(millisecondsSince1970: 0)).fieldType == .date)
        #expect(Value.bytes(base64: "").fieldType == .bytes)
        #expect(Value.pointer(Pointer(className: "A", objectId: "b")).fieldType == .pointer(targetClass: "A"))
        #expect(Value.file(FileReference(id: "f")).fieldType == .file)
        #expect(Value.relation(className: "A").fieldType == .relation(targetClass: "A"))
        #expect(Value.array([]).fieldType == .array)
        #expect(Value.object([:]).fieldType == .object)
        #expect(Value.string("x").isGeoPoint == false)
    }

    @Test("a GeoPoint refuses values that are not finite")
    func geoPointFinite() {
        #expect(reason { _ = try GeoPoint(latitude: .nan, longitude: 0) } == .invalidGeoPoint)
        #expect(reason { _ = try GeoPoint(latitude: 0, longitude: .infinity) } == .invalidGeoPoint)
        #expect(reason { _ = try GeoPoint(latitude: 90, longitude: -180) } == nil)
    }
}
