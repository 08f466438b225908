#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CirrusModel
import Testing

@Suite("ObjectID")
struct ObjectIDTests {
    @Test("LeanCloud ids are 24 lowercase hex digits starting with the creation second")
    func hex24() throws {
        let before = UInt32(truncatingIfNeeded: Int(time(nil)))
        let id = ObjectID.make(.hex24)
        let after = UInt32(truncatingIfNeeded: Int(time(nil)))
        #expect(id.utf8.count == 24)
        #expect(id.allSatisfy { "0123456789abcdef".contains($0) })
        let seconds = try #require(UInt32(id.prefix(8), radix: 16))
        #expect(seconds >= before && seconds <= after)
    }

    @Test("Parse and Bmob ids are 10 letters and digits")
    func alphanumeric() {
        for _ in 0..<100 {
            let id = ObjectID.make(.alphanumeric10)
            #expect(id.utf8.count == 10)
            #expect(id.utf8.allSatisfy { (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) })
        }
    }

    @Test("generated ids do not repeat")
    func unique() {
        let hex = (0..<2000).map { _ in ObjectID.make(.hex24) }
        let short = (0..<2000).map { _ in ObjectID.make(.alphanumeric10) }
        #expect(Set(hex).count == hex.count)
        #expect(Set(short).count == short.count)
    }

    @Test("lookups accept 1 to 64 letters, digits, _ and -", arguments: [
        ("55a39634e4b0ed48f0c1845c", true), ("a", true), ("a_b-C9", true), (String(repeating: "x", count: 64), true),
        ("", false), (String(repeating: "x", count: 65), false), ("a b", false), ("a/b", false), ("a.b", false),
        ("é", false), ("a'b", false),
    ])
    func acceptable(_ id: String, _ accepted: Bool) {
        #expect(ObjectID.isAcceptable(id) == accepted)
    }
}
