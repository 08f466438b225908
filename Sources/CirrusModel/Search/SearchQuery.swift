/// A parsed in-app search query, the `q` of `GET /1.1/search/select`: a boolean combination of leaves.
///
/// ``SearchQueryParser`` builds it from the Lucene query-string syntax Elasticsearch reads; the server turns it into
/// SQL (an FTS5 `MATCH` or a `tsquery` per term, comparisons for ranges and `_exists_`), and ``SearchMatcher`` and
/// ``SearchHighlighter`` evaluate its terms in memory.
public indirect enum SearchQuery: Sendable, Hashable {
    /// Every document: `*`, `*:*`.
    case all
    case leaf(SearchLeaf)
    /// Every document the query does not match.
    case not(SearchQuery)
    /// Documents every query matches.
    case and([SearchQuery])
    /// Documents any query matches.
    case or([SearchQuery])

    /// Parses `q`; see ``SearchQueryParser``.
    /// - Throws: ``APIError`` with reason ``APIError/Reason/invalidQuery`` for syntax it refuses,
    ///   ``APIError/Reason/queryTooComplex`` beyond its limits.
    public init(parsing q: String) throws(APIError) {
        self = try SearchQueryParser.parse(q)
    }

    /// Whether the query matches a document, given the verdict of `leaf` on each leaf.
    public func evaluate<Failure: Error>(_ leaf: (SearchLeaf) throws(Failure) -> Bool) throws(Failure) -> Bool {
        switch self {
        case .all: return true
        case .leaf(let value): return try leaf(value)
        case .not(let query): return try !query.evaluate(leaf)
        case .and(let queries):
            for query in queries where try !query.evaluate(leaf) { return false }
            return true
        case .or(let queries):
            for query in queries where try query.evaluate(leaf) { return true }
            return false
        }
    }

    /// Every leaf, in the order written.
    public var leaves: [SearchLeaf] {
        var leaves: [SearchLeaf] = []
        visit { leaf, _ in leaves.append(leaf) }
        return leaves
    }

    /// The terms a matching document contains: those not under an odd number of negations. These are what the
    /// highlighter marks.
    public var positiveTerms: [SearchTerm] {
        var terms: [SearchTerm] = []
        visit { leaf, positive in
            if positive, case .term(let term) = leaf { terms.append(term) }
        }
        return terms
    }

    /// The positive terms that apply to `field`: those naming it, and those naming no field.
    public func highlightTerms(for field: FieldPath) -> [SearchTerm] {
        positiveTerms.filter { $0.field == nil || $0.field == field }
    }

    /// Calls `body` with each leaf and whether it is under an even number of negations.
    private func visit(positive: Bool = true, _ body: (SearchLeaf, Bool) -> Void) {
        switch self {
        case .all: break
        case .leaf(let leaf): body(leaf, positive)
        case .not(let query): query.visit(positive: !positive, body)
        case .and(let queries), .or(let queries):
            for query in queries { query.visit(positive: positive, body) }
        }
    }
}

/// What a search query tests on one document.
public enum SearchLeaf: Sendable, Hashable {
    /// Text: a word, phrase or prefix in a field, or in any searchable field.
    case term(SearchTerm)
    /// A number or date range on a field.
    case range(SearchRange)
    /// That a field has a value: `_exists_:field`, `field:*` (and, negated, `_missing_:field`).
    case exists(FieldPath)
}
