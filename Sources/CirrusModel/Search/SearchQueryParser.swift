/// Parses the `q` of in-app search: the subset of the Lucene query-string syntax (Elasticsearch's `query_string`)
/// below. Everything else is refused with ``APIError/Reason/invalidQuery`` and a message naming what and where (a
/// 1-based column counting characters), never answered differently from Elasticsearch without a word.
///
/// - Terms: `设计`, `hello`, `hello-world` (each tokenized by ``SearchTokenizer``; a term of several tokens is a phrase,
///   see ``SearchTerm``); quoted phrases `"hello world"`; prefixes `hel*` (a trailing `*` only); `*` and `*:*` match
///   every document. A term with no token (`@@`) is refused.
/// - Fields: `title:word`, `title:"a phrase"`, `title:hel*`, `title:(a OR b)` (the field applies to every term inside),
///   dotted paths (`avatar.url:x`); names are `[A-Za-z_][A-Za-z0-9_]*` per segment. `title:*` and `_exists_:title`:
///   the field has a value; `_missing_:title`: it has none.
/// - Ranges on a field, of numbers or dates: `price:[10 TO 20]`, `{10 TO 20}`, mixed `[10 TO 20}`, `*` for an open
///   end, `age:>18`, `>=`, `<`, `<=` (see ``SearchRangeValue/parse(_:roundsUp:)`` for dates).
/// - Boolean operators `AND`, `OR`, `NOT` (upper case), `&&`, `||`, `!`, modifiers `+term` (required) and `-term`
///   (prohibited), parentheses. Adjacent clauses are joined by `OR` (Elasticsearch's `default_operator`). Operators
///   follow Lucene's rules, not algebra's precedence: each clause of a group is required, optional or prohibited
///   (`AND` makes both neighbours required, `NOT`/`-`/`!` prohibits the next), and a group matches when all required
///   clauses match (or, without any, at least one optional clause) and no prohibited one does. So
///   `a AND b OR c` is `+a +b c`, matching what `a AND b` matches; a group of prohibited clauses only matches every
///   other document, as Elasticsearch makes it.
/// - Escapes: `\` before any character makes it literal (`\:`, `\(`, `\*`).
///
/// Refused: an empty query, unbalanced quotes or parentheses, a dangling operator (`a AND`), wildcards other than a
/// trailing `*` (`h?llo`, `*ello`), regular expressions (`/…/`), fuzzy `~`, proximity `"a b"~2`, boosts `^`, text
/// ranges, and (with ``APIError/Reason/queryTooComplex``) a query longer than ``maximumLength`` characters, nested
/// deeper than ``maximumDepth`` parentheses or with more than ``maximumClauses`` clauses.
public struct SearchQueryParser: Sendable {
    /// Characters of a query.
    public static let maximumLength = 4096
    /// Parentheses (groups) within one another.
    public static let maximumDepth = 32
    /// Terms, phrases, ranges, `_exists_` and `*` in one query.
    public static let maximumClauses = 256

    let characters: [Character]
    var index = 0
    var clauseCount = 0

    /// Parses `q`.
    /// - Throws: ``APIError`` with reason ``APIError/Reason/invalidQuery`` or ``APIError/Reason/queryTooComplex``.
    public static func parse(_ q: String) throws(APIError) -> SearchQuery {
        if let limit = q.index(q.startIndex, offsetBy: maximumLength, limitedBy: q.endIndex), limit != q.endIndex {
            throw APIError(.queryTooComplex, "Query too complex: the search query is longer than \(maximumLength) characters.")
        }
        var parser = SearchQueryParser(characters: Array(q))
        return try parser.parseQuery()
    }

    private init(characters: [Character]) {
        self.characters = characters
    }

    private mutating func parseQuery() throws(APIError) -> SearchQuery {
        skipSpace()
        guard current != nil else { throw Self.invalid("the query is empty") }
        let query = try parseClauses(field: nil, depth: 0)
        if current == ")" { throw Self.invalid("unbalanced parentheses: the ) at column \(column) has no matching (") }
        guard let query else { throw Self.invalid("the query is empty") }
        return query
    }

    /// Parses clauses up to a `)` or the end, joined as Lucene joins them; `nil` when there is none.
    mutating func parseClauses(field: FieldPath?, depth: Int) throws(APIError) -> SearchQuery? {
        var clauses: [Clause] = []
        var pending: (conjunction: Conjunction, spelled: String, column: Int)?
        while true {
            skipSpace()
            guard let character = current, character != ")" else { break }
            if let (conjunction, length) = conjunctionAhead() {
                let spelled = String(characters[index..<index + length])
                guard !clauses.isEmpty else { throw Self.invalid("\(spelled) at column \(column) has nothing before it") }
                guard pending == nil else { throw Self.invalid("\(spelled) at column \(column) follows another operator") }
                pending = (conjunction, spelled, column)
                index += length
                continue
            }
            let modifier = try readModifier()
            let query = try parseClause(field: field, depth: depth)
            Self.add(query, conjunction: pending?.conjunction, modifier: modifier, to: &clauses)
            pending = nil
        }
        if let pending { throw Self.invalid("\(pending.spelled) at column \(pending.column) has nothing after it") }
        return clauses.isEmpty ? nil : Self.combine(clauses)
    }

    /// Reads `+`, `-`, `!` or `NOT` before a clause, which must follow.
    private mutating func readModifier() throws(APIError) -> Modifier? {
        guard let (modifier, length) = modifierAhead() else { return nil }
        let spelled = String(characters[index..<index + length])
        let start = column
        index += length
        skipSpace()
        if current == nil || current == ")" || conjunctionAhead() != nil {
            throw Self.invalid("\(spelled) at column \(start) has nothing after it")
        }
        if modifierAhead() != nil { throw Self.invalid("\(spelled) at column \(start) is followed by another operator") }
        return modifier
    }

    /// A parenthesized group, whose terms search `field` unless they name their own.
    mutating func parseGroup(field: FieldPath?, depth: Int) throws(APIError) -> SearchQuery {
        let open = column
        guard depth < Self.maximumDepth else {
            throw APIError(
                .queryTooComplex, "Query too complex: parentheses nest deeper than \(Self.maximumDepth) levels at column \(open).")
        }
        index += 1
        let query = try parseClauses(field: field, depth: depth + 1)
        guard current == ")" else { throw Self.invalid("unbalanced parentheses: the ( at column \(open) is not closed") }
        guard let query else { throw Self.invalid("the parentheses at column \(open) are empty") }
        index += 1
        try refuseSuffix()
        return query
    }

    /// Counts one more clause against ``maximumClauses``.
    mutating func countClause() throws(APIError) {
        clauseCount += 1
        if clauseCount > Self.maximumClauses {
            throw APIError(.queryTooComplex, "Query too complex: the search query has more than \(Self.maximumClauses) clauses.")
        }
    }

    /// The error of a query the parser refuses.
    static func invalid(_ message: String) -> APIError {
        APIError(.invalidQuery, "Invalid search query: \(message).")
    }
}

extension SearchQueryParser {
    /// How a clause takes part in its group (Lucene's `BooleanClause.Occur`).
    enum Occur {
        case must, should, mustNot
    }

    enum Conjunction {
        case and, or
    }

    enum Modifier {
        case required, prohibited
    }

    struct Clause {
        var occur: Occur
        var query: SearchQuery
    }

    /// Adds a clause as Lucene's `QueryParserBase.addClause` does with the default operator `OR`: `AND` makes the
    /// clause before it required (unless prohibited) and this one too; `+` requires it, `-`, `!` and `NOT` prohibit it.
    static func add(_ query: SearchQuery, conjunction: Conjunction?, modifier: Modifier?, to clauses: inout [Clause]) {
        if conjunction == .and, let last = clauses.indices.last, clauses[last].occur != .mustNot {
            clauses[last].occur = .must
        }
        let prohibited = modifier == .prohibited
        let required = modifier == .required || (conjunction == .and && !prohibited)
        clauses.append(Clause(occur: required ? .must : prohibited ? .mustNot : .should, query: query))
    }

    /// A group as a boolean query: its required clauses (or, without any, one of its optional ones), and none of its
    /// prohibited ones. Prohibited clauses alone match every other document, as Elasticsearch's
    /// `fixNegativeQueryIfNeeded` makes them.
    static func combine(_ clauses: [Clause]) -> SearchQuery {
        let musts = clauses.filter { $0.occur == .must }.map(\.query)
        let shoulds = clauses.filter { $0.occur == .should }.map(\.query)
        var parts = musts
        if musts.isEmpty, !shoulds.isEmpty { parts = [shoulds.count == 1 ? shoulds[0] : .or(shoulds)] }
        parts += clauses.filter { $0.occur == .mustNot }.map { .not($0.query) }
        return parts.count == 1 ? parts[0] : .and(parts)
    }
}
