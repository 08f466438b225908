/// Reading characters: spaces, operators, terms and quoted text.
extension SearchQueryParser {
    /// A term as written: its text with escapes resolved, where its unescaped wildcards are, and whether it had
    /// escapes.
    struct RawTerm {
        var text: [Character] = []
        /// Offsets into ``text`` of unescaped `*` and `?`.
        var wildcards: [Int] = []
        var hasEscapes = false
        /// The column of its first character.
        var column: Int
        /// The term as written, for messages.
        var written: String

        /// Whether the term is `*` alone.
        var isStar: Bool { text == ["*"] && wildcards == [0] }

        /// Whether the term is plain text: no escapes, no wildcards.
        var isPlain: Bool { !hasEscapes && wildcards.isEmpty }
    }

    /// Characters that end a term (besides spaces): Lucene's, less `\` (an escape), `+` and `-` (which only modifiers
    /// start with), `*` and `?` (wildcards, kept in the term to refuse or read as a prefix).
    static let stopCharacters: Set<Character> = ["(", ")", ":", "^", "[", "]", "\"", "{", "}", "~", "/", "!"]

    var current: Character? { index < characters.count ? characters[index] : nil }

    /// The 1-based column of the current character.
    var column: Int { index + 1 }

    mutating func skipSpace() {
        while let character = current, character.isWhitespace { index += 1 }
    }

    /// Whether the characters at the current index spell `text`.
    func isAhead(_ text: String) -> Bool {
        var offset = index
        for character in text {
            guard offset < characters.count, characters[offset] == character else { return false }
            offset += 1
        }
        return true
    }

    /// The conjunction at the current index, and its length: `&&`, `||`, or `AND` or `OR` as a whole word.
    func conjunctionAhead() -> (Conjunction, Int)? {
        if isAhead("&&") { return (.and, 2) }
        if isAhead("||") { return (.or, 2) }
        switch wordAhead() {
        case "AND": return (.and, 3)
        case "OR": return (.or, 2)
        default: return nil
        }
    }

    /// The modifier at the current index, and its length: `+`, `-`, `!`, or `NOT` as a whole word.
    func modifierAhead() -> (Modifier, Int)? {
        switch current {
        case "+": return (.required, 1)
        case "-", "!": return (.prohibited, 1)
        default: return wordAhead() == "NOT" ? (.prohibited, 3) : nil
        }
    }

    /// The word at the current index when it is an operator's spelling (`AND`, `OR`, `NOT`), unescaped and followed by
    /// a space, a stop character or the end.
    private func wordAhead() -> String? {
        guard let first = current, first == "A" || first == "O" || first == "N" else { return nil }
        var end = index
        while end < characters.count, end - index < 4, characters[end].isASCII, characters[end].isUppercase { end += 1 }
        if end < characters.count {
            let next = characters[end]
            guard next.isWhitespace || Self.stopCharacters.contains(next) else { return nil }
        }
        return String(characters[index..<end])
    }

    /// Reads a term up to a space, a stop character or the end.
    mutating func readTerm() throws(APIError) -> RawTerm {
        let start = index
        var term = RawTerm(column: column, written: "")
        while let character = current, !character.isWhitespace, !Self.stopCharacters.contains(character) {
            if character == "\\" {
                term.text.append(try readEscaped())
                term.hasEscapes = true
                continue
            }
            if character == "*" || character == "?" { term.wildcards.append(term.text.count) }
            term.text.append(character)
            index += 1
        }
        term.written = String(characters[start..<index])
        return term
    }

    /// Reads `\x` and answers `x`.
    mutating func readEscaped() throws(APIError) -> Character {
        guard index + 1 < characters.count else { throw Self.invalid("the \\ at column \(column) escapes nothing") }
        index += 2
        return characters[index - 1]
    }

    /// Reads text in double quotes, escapes resolved.
    mutating func readQuoted() throws(APIError) -> String {
        let open = column
        index += 1
        var text = ""
        while let character = current, character != "\"" {
            if character == "\\" {
                text.append(try readEscaped())
            } else {
                text.append(character)
                index += 1
            }
        }
        guard current == "\"" else { throw Self.invalid("unbalanced quotes: the \" at column \(open) is not closed") }
        index += 1
        return text
    }

    /// Refuses what Lucene allows after a term, phrase or group and this parser does not: `~` (fuzzy, proximity),
    /// `^` (boosts), `/` (regular expressions).
    func refuseSuffix() throws(APIError) {
        switch current {
        case "~": throw Self.invalid("fuzzy and proximity searches (~) are not supported (column \(column))")
        case "^": throw Self.invalid("boosts (^) are not supported (column \(column))")
        case "/": throw Self.invalid("regular expressions (/…/) are not supported (column \(column)); escape / as \\/")
        default: break
        }
    }

    /// Refuses a stop character where a clause should start.
    func refuseStop() throws(APIError) {
        guard let character = current, Self.stopCharacters.contains(character) else { return }
        switch character {
        case ":": throw Self.invalid(": at column \(column) follows no field name; escape it as \\: to search for it")
        case "]", "}": throw Self.invalid("\(character) at column \(column) closes no range")
        case "!": throw Self.invalid("! at column \(column) is followed by another operator")
        case ")": throw Self.invalid("unbalanced parentheses: the ) at column \(column) has no matching (")
        default: try refuseSuffix()
        }
    }
}
