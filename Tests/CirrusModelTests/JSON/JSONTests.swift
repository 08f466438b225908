import CirrusModel
import Testing

@Suite("JSON accessors")
struct JSONTests {
    @Test("members, elements and scalars are read only from the matching case")
    func accessors() {
        let object: JSON = ["a": 1, "__type": "Date"]
        #expect(object["a"] == 1)
        #expect(object["missing"] == nil)
        #expect(JSON.array([1])["a"] == nil)
        #expect(object.objectValue?.count == 2)
        #expect(object.arrayValue == nil)
        #expect(JSON.array([1, 2]).arrayValue == [1, 2])
        #expect(JSON.string("x").stringValue == "x")
        #expect(JSON.int(1).stringValue == nil)
        #expect(JSON.bool(false).boolValue == false)
        #expect(JSON.int(0).boolValue == nil)
        #expect(object.objectValue?.wireType == .date && object.isTyped(.date))
        #expect(JSON.object(["__type": 1]).objectValue?.wireType == nil)
        #expect(JSON.null.isNull)
        #expect(!JSON.int(0).isNull)
    }

    @Test("numbers convert between integers and doubles only when exact", arguments: [
        (JSON.int(3), Double?.some(3), Int64?.some(3)),
        (.double(2.0), .some(2), .some(2)),
        (.double(2.5), .some(2.5), nil),
        (.double(1e30), .some(1e30), nil),
        (.double(-0.0), .some(-0.0), .some(0)),
        (.double(.nan), nil as Double?, nil),
        (.string("3"), nil, nil),
    ])
    func numbers(_ value: JSON, _ double: Double?, _ integer: Int64?) {
        if let double {
            #expect(value.doubleValue == double)
        } else if case .double = value {
            #expect(value.doubleValue?.isNaN == true)
        } else {
            #expect(value.doubleValue == nil)
        }
        #expect(value.intValue == integer)
        #expect(value.isNumber == (value.doubleValue != nil))
    }
}
