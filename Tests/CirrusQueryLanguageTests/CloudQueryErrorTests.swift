import CirrusQueryLanguage
import Testing

@Suite("CQL and BQL errors")
struct CloudQueryErrorTests {
    @Test("an error names its line and column")
    func describesPosition() {
        #expect(CloudQueryError(line: 1, column: 10, detail: "expected from").description == "Parse error at line 1, column 10: expected from")
    }
}
