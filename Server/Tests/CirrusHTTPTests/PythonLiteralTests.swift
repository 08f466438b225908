@testable import CirrusHTTP
import Testing

@Suite("Python dict literals as JSON")
struct PythonLiteralTests {
    @Test("quotes, escapes and the Python constants become JSON", arguments: [
        ("{'_count': {'$gt': 1}}", #"{"_count": {"$gt": 1}}"#),
        ("{'a': True, 'b': False, 'c': None}", #"{"a": true, "b": false, "c": null}"#),
        ("{'say': 'it\\'s \"True\"'}", #"{"say": "it's \"True\""}"#),
        ("{'path': 'a\\\\b'}", #"{"path": "a\\b"}"#),
        (#"{"already": "json", "n": [1, 2.5]}"#, #"{"already": "json", "n": [1, 2.5]}"#),
    ])
    func converts(_ literal: String, _ json: String) {
        #expect(PythonLiteral.json(from: literal) == json)
    }
}
