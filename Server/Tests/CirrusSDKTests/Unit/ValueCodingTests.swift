@testable import Cirrus
import CirrusModel
import Foundation
import Testing

/// The REST encoding of every value type, against shapes from real LeanCloud traffic.
@Suite("Value encoding")
struct ValueCodingTests {
    static let application = LCApplication()

    /// A value and its wire form (recorded shapes: 000 recordings #2, #21, #37).
    static let cases: [(String, any LCValue, String)] = [
        ("string", LCString("testString"), #""testString""#),
        ("integer number", LCNumber(42), "42"),
        ("decimal number", LCNumber(1.23), "1.23"),
        ("negative integer", -100 as LCNumber, "-100"),
        ("boolean", LCBool(true), "true"),
        ("null", LCNull(), "null"),
        ("array", LCArray([1, 2, 3]), "[1,2,3]"),
        ("dictionary", LCDictionary(["foo": "bar"]), #"{"foo":"bar"}"#),
        ("date", LCDate(isoString: "2015-05-14T06:24:47.000Z")!, #"{"__type":"Date","iso":"2015-05-14T06:24:47.000Z"}"#),
        ("bytes", LCData(Data("hello".utf8)), #"{"__type":"Bytes","base64":"aGVsbG8="}"#),
        ("geo point", LCGeoPoint(latitude: 40, longitude: -30), #"{"__type":"GeoPoint","latitude":40.0,"longitude":-30.0}"#),
        (
            "pointer", LCObject(application: application, className: "Post", objectId: "55069e5be4b0c93838ed8e6c"),
            #"{"__type":"Pointer","className":"Post","objectId":"55069e5be4b0c93838ed8e6c"}"#
        ),
        ("relation", LCRelation(key: "likes", parent: nil, objectClassName: "TestObject"), #"{"__type":"Relation","className":"TestObject"}"#),
    ]

    @Test("each value type encodes to its REST shape", arguments: cases.map { ($0.0, $0.1, $0.2) })
    func encodes(name: String, value: any LCValue, expected: String) throws {
        #expect(ValueCoder.encode(value) == (try json(expected)), "\(name)")
    }

    @Test("each value type decodes from its REST shape to the same value", arguments: cases.map { ($0.0, $0.1, $0.2) })
    func decodes(name: String, value: any LCValue, text: String) throws {
        let decoded = ObjectDecoder(application: Self.application).value(try json(text))
        #expect(type(of: decoded) == type(of: value), "\(name)")
        #expect(ValueCoder.encode(decoded) == ValueCoder.encode(value), "\(name)")
    }

    @Test("an ACL encodes users, roles and the public entry with only the permissions granted")
    func acl() throws {
        let acl = LCACL()
        acl.setAccess([.read, .write], allowed: true)
        acl.setAccess(.read, allowed: true, forUserID: "read-only")
        acl.setAccess(.write, allowed: true, forRoleName: "write-only-role")
        acl.setAccess(.write, allowed: true, forUserID: "read-only")
        acl.setAccess(.write, allowed: false, forUserID: "read-only")
        let expected = try json(#"{"*":{"read":true,"write":true},"read-only":{"read":true},"role:write-only-role":{"write":true}}"#)
        #expect(ValueCoder.encode(acl) == expected)
        let decoded = try #require(ValueCoder.acl(expected))
        #expect(decoded.getAccess([.read, .write]))
        #expect(decoded.getAccess(.read, forUserID: "read-only"))
        #expect(!decoded.getAccess(.write, forUserID: "read-only"))
        #expect(decoded.getAccess(.write, forRoleName: "write-only-role"))
    }

    @Test("a recorded object with every column type decodes to the LC types")
    func recordedObject() throws {
        // Recording #3 (POST /1.1/call/bareAVObject), the `result` object.
        let text = #"""
        {"xxoo":null,"dateColumn":{"__type":"Date","iso":"2015-05-14T06:24:47.000Z"},"numberColumn":1.23,
        "fileColumn":{"name":"ttt.jpg","url":"http://lc-4h2h4okw.cn-n1.lcfile.com/4qSb.jpg","mime_type":"image/jpeg",
        "bucket":"4h2h4okw","metaData":{"owner":"55069e5be4b0c93838ed8e6c","size":310991},"objectId":"55543fc2e4b0846760bd92f3",
        "createdAt":"2015-05-14T06:25:06.161Z","updatedAt":"2015-05-14T06:25:06.161Z","__type":"File"},
        "stringColumn":"testString","arrayColumn":[1,2,3],"pointerColumn":{"__type":"Pointer","className":"_User",
        "objectId":"55069e5be4b0c93838ed8e6c"},"booleanColumn":true,"objectColumn":{"foo":"bar"},
        "relationColumn":{"__type":"Relation","className":"TestObject"},"geopointColumn":{"__type":"GeoPoint","latitude":0,"longitude":30},
        "objectId":"55543f8ee4b0846760bd8d9c","createdAt":"2015-05-14T06:24:14.849Z","updatedAt":"2015-05-14T06:24:14.849Z"}
        """#
        let object = ObjectDecoder(application: Self.application).object(try json(text), className: "TestObject")
        #expect(object.objectId?.value == "55543f8ee4b0846760bd8d9c")
        #expect(object.createdAt?.isoString == "2015-05-14T06:24:14.849Z")
        #expect(object.get("xxoo") is LCNull)
        #expect(object.get("dateColumn")?.dateValue == LCDate(isoString: "2015-05-14T06:24:47.000Z")?.value)
        #expect(object.get("numberColumn")?.doubleValue == 1.23)
        #expect(object.get("stringColumn")?.stringValue == "testString")
        #expect(object.get("arrayColumn")?.arrayValue?.compactMap(\.intValue) == [1, 2, 3])
        #expect(object.get("booleanColumn")?.boolValue == true)
        #expect(object.get("objectColumn")?.dictionaryValue?["foo"]?.stringValue == "bar")
        let file = try #require(object.get("fileColumn") as? LCFile)
        #expect(file.objectId?.value == "55543fc2e4b0846760bd92f3")
        #expect(file.name?.value == "ttt.jpg")
        #expect(file.mimeType?.value == "image/jpeg")
        #expect(file.metaData["size"]?.intValue == 310_991)
        let user = try #require(object.get("pointerColumn") as? LCUser)
        #expect(user.objectId?.value == "55069e5be4b0c93838ed8e6c")
        let relation = try #require(object.get("relationColumn") as? LCRelation)
        #expect(relation.key == "relationColumn")
        #expect(relation.objectClassName == "TestObject")
        let point = try #require(object.get("geopointColumn") as? LCGeoPoint)
        #expect(point.latitude == 0 && point.longitude == 30)
    }

    @Test("an included object keeps its fields (recording #63: __type Pointer with fields)")
    func includedPointer() throws {
        let text = #"{"parent":{"__type":"Pointer","className":"Post","objectId":"5d84","title":"hi","createdAt":"2019-09-20T03:01:02.000Z"}}"#
        let object = ObjectDecoder(application: Self.application).object(try json(text), className: "Comment")
        let post = try #require(object.get("parent") as? LCObject)
        #expect(post.className == "Post")
        #expect(post.get("title")?.stringValue == "hi")
        #expect(post.createdAt?.isoString == "2019-09-20T03:01:02.000Z")
    }

    @Test("a file in a field is sent as {__type: File, id}")
    func fileReference() throws {
        let file = LCFile(application: Self.application)
        file.merge(["objectId": "f1", "url": "http://x/y"], decoder: ObjectDecoder(application: Self.application))
        #expect(ValueCoder.encode(file) == (try json(#"{"__type":"File","id":"f1"}"#)))
    }

    @Test("literals build values", arguments: [
        (42 as LCNumber) as any LCValue, 4.5 as LCNumber, true as LCBool, "foo" as LCString, [1, "a"] as LCArray, ["k": 1] as LCDictionary,
    ])
    func literals(value: any LCValue) {
        #expect(ValueCoder.encode(value) != .null)
    }

    @Test("Swift values convert to the LC types")
    func conversions() {
        #expect((42.lcValue as? LCNumber)?.value == 42)
        #expect(("x".lcValue as? LCString)?.value == "x")
        #expect((true.lcValue as? LCBool)?.value == true)
        #expect(([1, 2].lcValue as? LCArray)?.count == 2)
        #expect((["a": "b"].lcValue as? LCDictionary)?.value["a"]?.stringValue == "b")
        let missing: Date? = nil
        #expect(missing.lcValue is LCNull)
        #expect(LCDate(Date(timeIntervalSince1970: 1.2345)).isoString == "1970-01-01T00:00:01.235Z")
    }

    @Test("values compare by their wire form; objects by class and id, or by identity before they are saved")
    func equality() {
        #expect((LCNumber(1) as any LCValue) == (LCNumber(1.0) as any LCValue))
        #expect(!((LCNumber(1) as any LCValue) == (LCString("1") as any LCValue)))
        let saved = LCObject(application: Self.application, className: "Post", objectId: "p1")
        #expect((saved as any LCValue) == (LCObject(application: Self.application, className: "Post", objectId: "p1") as any LCValue))
        let new = LCObject(application: Self.application, className: "Post")
        #expect((new as any LCValue) == (new as any LCValue))
        #expect(!((new as any LCValue) == (LCObject(application: Self.application, className: "Post") as any LCValue)))
    }
}
