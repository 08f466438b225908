@testable import CirrusHTTP
import Testing

@Suite("Query string decoding")
struct QueryStringTests {
    @Test("form encoding: + is a space and %2B a plus", arguments: [QueryString.Plus.space, .detect])
    func formEncoded(_ plus: QueryString.Plus) {
        let parameters = QueryString.parse("where=%7B%22name%22%3A%22a+b%2Bc%22%7D&cql=select+*+from+T", plus: plus)
        #expect(parameters["where"] == #"{"name":"a b+c"}"#)
        #expect(parameters["cql"] == "select * from T")
    }

    @Test("LeanCloud: raw JSON pasted into the URL keeps its literal +, form values next to it still decode")
    func rawJSON() {
        let parameters = QueryString.parse(#"where=%7B%22n%22:%7B%22$regex%22:%22a+%22%7D%7D&keys=a+b"#, plus: .detect)
        #expect(parameters["where"] == #"{"n":{"$regex":"a+"}}"#)
        #expect(parameters["keys"] == "a b")
        #expect(QueryString.parse(#"where=%7B%22n%22:%22a+%22%7D"#, plus: .space)["where"] == #"{"n":"a "}"#)
    }
}
