@testable import CirrusHTTP
import CirrusModel
import CirrusStorage
import Testing

/// A reply sends a stored document as the store read it whenever nothing about the reply changes it; what a client
/// reads must be what the document, written again, would have said.
@Suite("Stored documents sent as they are")
struct ObjectEncoderFragmentTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        /// The document's text, in one store's layout.
        let text: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "empty", text: "{}"),
        Case(name: "empty, PostgreSQL's layout", text: "{ }"),
        Case(name: "sorted, compact", text: #"{"n":1,"tags":["a","b"],"title":"x"}"#),
        Case(name: "keys appended by an update", text: #"{"title":"x","n":2,"b":true}"#),
        Case(name: "PostgreSQL's layout", text: #"{"n": 1, "meta": {"a": [1, 2.5]}, "title": "x \"quoted\""}"#),
        Case(name: "typed values", text: #"{"at":{"__type":"Date","iso":"2024-01-02T03:04:05.678Z"},"p":{"__type":"Pointer","className":"C","objectId":"o1"}}"#),
        Case(name: "a File", text: #"{"f":{"__type":"File","name":"a.txt","url":"http://x/a.txt"}}"#),
        Case(name: "unicode and escapes", text: #"{"s":"中文 \u00e9 \n tab\t","e":"\\"}"#),
        Case(name: "big numbers", text: #"{"big":9007199254740993,"neg":-0.0,"exp":1e+16}"#),
    ]

    static func object(_ text: String, acl: JSON?) throws -> StoredObject {
        let bytes = Array(text.utf8)
        guard case .object(let fields) = try JSONParser.parse(bytes) else { throw ParseFailure() }
        return StoredObject(
            className: "Item", objectId: "o123", createdAt: Timestamp(millisecondsSince1970: 1_700_000_000_123),
            updatedAt: Timestamp(millisecondsSince1970: 1_700_000_100_456), acl: acl, fields: fields,
            // As the store keeps it (StoredRow): compacted, whatever the engine's layout.
            document: JSONWriter.compacted(bytes)
        )
    }

    struct ParseFailure: Error {}

    @Test("the document sent as it is reads as the object written again, in every dialect, with and without an ACL", arguments: cases)
    func sameAsWritten(_ entry: Case) throws {
        for dialect in Dialect.allCases {
            for acl: JSON? in [nil, ["*": ["read": true], "u1": ["write": true]]] {
                for returnACL in [false, true] {
                    let object = try Self.object(entry.text, acl: acl)
                    let encoder = ObjectEncoder(dialect: dialect)
                    let sent = try JSONParser.parse(JSONWriter.bytes(encoder.fragment(object, schema: nil, returnACL: returnACL)))
                    #expect(sent == encoder.encode(object, schema: nil, returnACL: returnACL), "\(dialect) acl \(acl != nil) returnACL \(returnACL)")
                }
            }
        }
    }

    @Test("a changed object, a key selection or a Relation column write the object again")
    func writtenAgain() throws {
        var object = try Self.object(#"{"n":1}"#, acl: nil)
        let encoder = ObjectEncoder(dialect: .leancloud)
        guard case .written = encoder.fragment(object, schema: nil) else { Issue.record("the document was not sent as it is"); return }
        var schema = ClassSchema(className: "Item")
        schema.fields["friends"] = .relation(targetClass: "_User")
        guard case .value(let withRelation) = encoder.fragment(object, schema: schema) else { Issue.record("a Relation column was left out"); return }
        #expect(withRelation["friends"] == ["__type": "Relation", "className": "_User"])
        guard case .value = encoder.fragment(object, schema: nil, keys: try KeySelection(parsing: "n")) else { Issue.record("keys were ignored"); return }
        object.fields["n"] = 2
        #expect(object.document == nil)
        guard case .value(let changed) = encoder.fragment(object, schema: nil) else { Issue.record("a changed object was sent as read"); return }
        #expect(changed["n"] == 2)
    }
}
