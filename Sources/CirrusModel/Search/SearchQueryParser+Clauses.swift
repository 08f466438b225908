/// One clause: a group, phrase, term, field clause or range.
extension SearchQueryParser {
    /// Parses the clause at the current index; `field` is the field of an enclosing `field:( … )`.
    mutating func parseClause(field: FieldPath?, depth: Int) throws(APIError) -> SearchQuery {
        switch current {
        case "(": return try parseGroup(field: field, depth: depth)
        case "\"": return try parsePhrase(field: field)
        case "[", "{":
            guard let field else { throw Self.invalid("a range needs a field, as in price:[10 TO 20] (column \(column))") }
            return try parseRange(field: field)
        case ">", "<":
            guard let field else { throw Self.invalid("a comparison needs a field, as in age:>18 (column \(column))") }
            return try parseComparison(field: field)
        default: break
        }
        try refuseStop()
        let term = try readTerm()
        if current == ":" { return try parseFieldClause(term, depth: depth) }
        try refuseSuffix()
        return try leaf(term, field: field)
    }

    /// A quoted phrase.
    private mutating func parsePhrase(field: FieldPath?) throws(APIError) -> SearchQuery {
        let open = column
        let text = try readQuoted()
        if current == "~" { throw Self.invalid("proximity searches (\"…\"~N) are not supported (column \(column))") }
        if current == "*" { throw Self.invalid("wildcards other than a trailing * on a word are not supported (column \(column))") }
        try refuseSuffix()
        let tokens = SearchTokenizer.queryTokens(in: text)
        guard !tokens.isEmpty else { throw Self.invalid("the phrase at column \(open) has nothing to search for") }
        try countClause()
        return .leaf(.term(SearchTerm(field: field, text: text, tokens: tokens, isQuoted: true)))
    }

    /// A word, prefix, `*`, or `*` in a field (`title:*`, the field exists).
    private mutating func leaf(_ term: RawTerm, field: FieldPath?) throws(APIError) -> SearchQuery {
        if term.isStar {
            try countClause()
            return field.map { .leaf(.exists($0)) } ?? .all
        }
        var text = term.text
        let prefix = term.wildcards == [text.count - 1] && text.last == "*"
        guard term.wildcards.isEmpty || prefix else {
            throw Self.invalid("wildcards other than a trailing * are not supported: \(term.written) at column \(term.column)")
        }
        if prefix { text.removeLast() }
        let tokens = SearchTokenizer.queryTokens(in: String(text), prefix: prefix)
        guard !tokens.isEmpty else { throw Self.invalid("\(term.written) at column \(term.column) has nothing to search for") }
        try countClause()
        return .leaf(.term(SearchTerm(field: field, text: String(text), tokens: tokens)))
    }

    /// `name:value`, `*:*`, `_exists_:name` or `_missing_:name`; the current character is the colon.
    private mutating func parseFieldClause(_ name: RawTerm, depth: Int) throws(APIError) -> SearchQuery {
        if name.isStar { return try parseMatchAll(name) }
        guard name.isPlain, let path = Self.fieldPath(name.text) else {
            throw Self.invalid("\(name.written) before the : at column \(column) is not a field name; escape : as \\: to search for it")
        }
        index += 1
        skipSpace()
        guard let first = current, first != ")" else {
            throw Self.invalid("the field \(name.written) at column \(name.column) has no value")
        }
        if path.segments == ["_exists_"] || path.segments == ["_missing_"] {
            let exists = try parseExistence(of: name)
            return path.segments == ["_exists_"] ? exists : .not(exists)
        }
        if conjunctionAhead() != nil || modifierAhead() != nil {
            throw Self.invalid(
                "the value of \(name.written) at column \(column) is an operator; write +, - or NOT before the field, as in -title:word")
        }
        if first == "(" || first == "\"" || first == "[" || first == "{" || first == ">" || first == "<" {
            return try parseClause(field: path, depth: depth)
        }
        try refuseStop()
        let term = try readTerm()
        if current == ":" { throw Self.invalid("the : at column \(column) follows a field's value; escape : as \\: to search for it") }
        try refuseSuffix()
        return try leaf(term, field: path)
    }

    /// `*:*`; the current character is the colon.
    private mutating func parseMatchAll(_ star: RawTerm) throws(APIError) -> SearchQuery {
        index += 1
        let value = try readTerm()
        guard value.isStar else { throw Self.invalid("* at column \(star.column) is not a field name; only *:* may name every field") }
        try refuseSuffix()
        try countClause()
        return .all
    }

    /// The field name after `_exists_:` or `_missing_:`, as an existence test.
    private mutating func parseExistence(of name: RawTerm) throws(APIError) -> SearchQuery {
        let start = column
        try refuseStop()
        let term = try readTerm()
        guard term.isPlain, current != ":", let path = Self.fieldPath(term.text) else {
            throw Self.invalid("\(name.written) takes a field name, as in \(name.written):title (column \(start))")
        }
        try refuseSuffix()
        try countClause()
        return .leaf(.exists(path))
    }

    /// `name` as a field path when each dotted segment is `[A-Za-z_][A-Za-z0-9_]*`.
    static func fieldPath(_ name: [Character]) -> FieldPath? {
        let segments = name.split(separator: ".", omittingEmptySubsequences: false)
        for segment in segments {
            guard let first = segment.first, first.isASCII, first.isLetter || first == "_" else { return nil }
            guard segment.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else { return nil }
        }
        return FieldPath(segments.map { String($0) })
    }
}
