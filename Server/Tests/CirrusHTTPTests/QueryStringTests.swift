@testable import CirrusHTTP
import CirrusModel
import CirrusTesting
import Foundation
import Testing

@Suite("Query string decoding")
struct QueryStringTests {
    @Test("form encoding: + is a space and %2B a plus, in every parameter")
    func formEncoded() {
        let parameters = QueryString.parse("where=%7B%22name%22%3A%22a+b%2Bc%22%7D&cql=select+*+from+T")
        #expect(parameters["where"] == #"{"name":"a b+c"}"#)
        #expect(parameters["cql"] == "select * from T")
        // Raw JSON characters do not change what + means.
        #expect(QueryString.parse(#"where=%7B%22n%22:%22a+b%22%7D"#)["where"] == #"{"n":"a b"}"#)
    }

    @Test("the LeanCloud Python SDK's raw where keeps its literal +; its other parameters still decode")
    func pythonSDKWhere() {
        let parameters = QueryString.parse(#"fetchWhenSave=false&where=%7B%22n%22:%7B%22$regex%22:%22a+%22%7D%7D&keys=a+b"#, plus: .literalInWhere)
        #expect(parameters["where"] == #"{"n":{"$regex":"a+"}}"#)
        #expect(parameters["keys"] == "a b")
    }

    @Test("only an update from the LeanCloud Python SDK reads where's + as a plus")
    func whoIsPythonSDK() {
        let agent = "AVOS Cloud python-2.1.9 SDK (3.11.4)"
        #expect(QueryString.plus(method: "PUT", userAgent: agent, dialect: .leancloud) == .literalInWhere)
        #expect(QueryString.plus(method: "GET", userAgent: agent, dialect: .leancloud) == .space)
        #expect(QueryString.plus(method: "PUT", userAgent: agent, dialect: .parse) == .space)
        #expect(QueryString.plus(method: "PUT", userAgent: "Python/3.11 aiohttp/3.9.5", dialect: .leancloud) == .space)
        #expect(QueryString.plus(method: "PUT", userAgent: nil, dialect: .leancloud) == .space)
    }
}

/// What real clients put in a query string for `where={"name":"a b"}` and for a literal `a+b`, sent to a server in
/// every dialect: each finds exactly the object it means.
@Suite("Query strings as clients encode them")
struct QueryStringClientTests {
    /// A client's encoding of a query value.
    struct Encoding: Sendable, CustomTestStringConvertible {
        let name: String
        let encode: @Sendable (String) -> String
        var testDescription: String { name }

        /// Python's aiohttp (yarl): a space is `+`; `:`, `/`, `?`, `@` stay as they are, everything else not
        /// unreserved is escaped (a plus as `%2B`).
        static let aiohttp = Encoding(name: "aiohttp") { text in
            percentEncoded(text, keeping: "-._~:/?@").replacingOccurrences(of: "%20", with: "+")
        }
        /// Browsers' `URLSearchParams` (application/x-www-form-urlencoded): a space is `+`, only `*-._` stay.
        static let urlSearchParams = Encoding(name: "URLSearchParams") { text in
            percentEncoded(text, keeping: "*-._").replacingOccurrences(of: "%20", with: "+")
        }
        /// `encodeURIComponent` (the LeanCloud JavaScript SDK): a space is `%20`.
        static let uriComponent = Encoding(name: "encodeURIComponent") { text in percentEncoded(text, keeping: "-_.!~*'()") }

        static let all: [Encoding] = [.aiohttp, .urlSearchParams, .uriComponent]

        static func percentEncoded(_ text: String, keeping kept: String) -> String {
            var result = ""
            for byte in text.utf8 {
                let scalar = Unicode.Scalar(byte)
                if byte.isASCIILetter || (0x30...0x39).contains(byte) || (byte < 0x80 && kept.unicodeScalars.contains(scalar)) {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += "%" + String(byte, radix: 16, uppercase: true).leftPadded
                }
            }
            return result
        }
    }

    @Test("a space and a literal plus in where, as each client encodes them, in every dialect", arguments: Encoding.all)
    func spacesAndPluses(_ encoding: Encoding) async throws {
        try await TestServer.with { client in
            for endpoint in Endpoint.dialects {
                let className = "Plus\(endpoint.dialect.rawValue.capitalized)"
                for name in ["a b", "a+b"] {
                    let created = try await client.request(endpoint, .post, "/classes/\(className)", json: ["name": .string(name)])
                    #expect(created.status == 201 || created.status == 200, "\(created.bodyText)")
                }
                for name in ["a b", "a+b"] {
                    let query = "where=" + encoding.encode(JSONWriter.string(["name": .string(name)]))
                    let found = try await client.request(endpoint, .get, "/classes/\(className)?\(query)")
                    let names = found.json["results"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
                    #expect(names == [name], "\(endpoint) \(encoding.name) \(query): \(found.bodyText)")
                }
            }
        }
    }

    @Test("the LeanCloud Python SDK's conditional save, with its where pasted raw into the URL, matches a literal plus")
    func pythonSDKConditionalSave() async throws {
        try await TestServer.with { client in
            let created = try await client.request(.leancloud, .post, "/classes/Plus", json: ["name": "a+b", "n": 1])
            let id = try #require(created.json["objectId"]?.stringValue)
            // What `requests` makes of the SDK's `url += "&where=" + json.dumps(…)`: `"`, `{`, `}` escaped, `+` and `:` kept.
            let path = #"/classes/Plus/\#(id)?fetchWhenSave=false&where=%7B%22name%22:%22a+b%22%7D"#
            let agent = ["User-Agent": "AVOS Cloud python-2.1.9 SDK (3.11.4)"]
            let saved = try await client.request(.leancloud, .put, path, json: ["n": 2], headers: agent)
            #expect(saved.status == 200, "\(saved.bodyText)")
            // Any other client means a space there: the condition does not match.
            let other = try await client.request(.leancloud, .put, path, json: ["n": 3])
            #expect(other.code == 305)
        }
    }
}

private extension UInt8 {
    var isASCIILetter: Bool { (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) }
}

private extension String {
    /// Two hexadecimal digits.
    var leftPadded: String { count == 1 ? "0" + self : self }
}
