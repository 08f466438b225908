import CirrusModel
import Testing

@Suite("Query parameters")
struct QueryTests {
    @Test("order lists parse ascending, descending and dotted keys, ignoring spaces and empty items")
    func sortKeys() throws {
        let keys = try SortKey.parseList(" score , -createdAt,+name,,a.b ")
        #expect(keys == [
            SortKey(path: FieldPath(field: "score")),
            SortKey(path: FieldPath(field: "createdAt"), descending: true),
            SortKey(path: FieldPath(field: "name")),
            SortKey(path: FieldPath(["a", "b"])),
        ])
        #expect(try SortKey.parseList("") == [])
        #expect(try SortKey.parseList(",, ,") == [])
    }

    @Test("invalid order keys are invalid queries", arguments: ["-", "+", "1a", "a..b", "-_x", "a b", "--a", "a.$b"])
    func invalidSortKeys(_ text: String) {
        #expect(reason { _ = try SortKey.parseList(text) } == .invalidQuery)
    }

    @Test("keys select fields to keep and, with -, fields to drop")
    func keySelection() throws {
        let selection = try KeySelection(parsing: "a, b.c,-d,,-e.f")
        #expect(selection.included == [FieldPath(field: "a"), FieldPath(["b", "c"])])
        #expect(selection.excluded == [FieldPath(field: "d"), FieldPath(["e", "f"])])
        let empty = try KeySelection(parsing: "")
        #expect(empty.included.isEmpty && empty.excluded.isEmpty)
    }

    @Test("invalid keys are invalid queries", arguments: ["-", "1a", "a..b", "a,$b", "+a"])
    func invalidKeys(_ text: String) {
        #expect(reason { _ = try KeySelection(parsing: text) } == .invalidQuery)
    }

    @Test("a query defaults to every object, no order, 100 results from the first")
    func defaults() {
        let query = Query(className: "GameScore")
        #expect(query.condition == .always)
        #expect(query.order.isEmpty)
        #expect(query.limit == 100)
        #expect(query.skip == 0)
        #expect(query.keys == nil)
        #expect(query.include.isEmpty)
    }
}
