/// A recursive-descent parser over the tokens of one statement.
///
/// Every optional token the parser looks for at a position and does not find is remembered, so that a syntax
/// error can list what would have been accepted there ("Expected one of: from, ,"), as LeanCloud does.
struct Parser {
    let tokens: [Token]
    let language: CloudQueryLanguage
    private(set) var index = 0
    /// The number of `?` read so far; the next placeholder gets this index.
    var placeholderCount = 0
    /// Where each `?` was read, in order.
    var placeholderPositions: [SourcePosition] = []
    /// The clause in which `?` is refused (BQL's `having`), if the parser is inside one.
    var placeholderBan: String?
    /// Whether the arguments of a function call lift ``placeholderBan`` (BQL allows `?` in built-in functions
    /// even where it refuses bare placeholders).
    var callsLiftPlaceholderBan = false
    private var expectations: [String] = []
    private var expectationIndex = 0

    init(tokens: [Token], language: CloudQueryLanguage) {
        self.tokens = tokens
        self.language = language
    }

    /// Parses a whole statement.
    /// - Throws: ``CloudQueryError`` at the first token that does not fit the grammar.
    static func parse(_ source: String, language: CloudQueryLanguage) throws(CloudQueryError) -> ParsedStatement {
        var parser = Parser(tokens: try Lexer.tokens(source), language: language)
        let statement = try parser.statement()
        guard parser.current.kind == .end else { throw parser.unexpected() }
        return ParsedStatement(statement: statement, placeholders: parser.placeholderPositions, end: parser.current.position)
    }

    var current: Token { tokens[index] }

    func peek(_ offset: Int) -> Token {
        tokens[min(index + offset, tokens.count - 1)]
    }

    @discardableResult
    mutating func advance() -> Token {
        let token = tokens[index]
        if index < tokens.count - 1 { index += 1 }
        return token
    }

    /// Remembers that `what` would have been accepted at the current position.
    mutating func note(_ what: String) {
        if expectationIndex != index {
            expectationIndex = index
            expectations = []
        }
        if !expectations.contains(what) { expectations.append(what) }
    }

    /// Consumes the keyword if it is next.
    mutating func accept(keyword: String) -> Bool {
        if current.isKeyword(keyword) {
            advance()
            return true
        }
        note(keyword)
        return false
    }

    /// Consumes the symbol if it is next.
    mutating func accept(symbol: String) -> Bool {
        if current.isSymbol(symbol) {
            advance()
            return true
        }
        note(symbol)
        return false
    }

    /// Consumes the keyword or fails.
    @discardableResult
    mutating func expect(keyword: String) throws(CloudQueryError) -> Token {
        let token = current
        guard accept(keyword: keyword) else { throw unexpected() }
        return token
    }

    /// Consumes the symbol or fails.
    @discardableResult
    mutating func expect(symbol: String) throws(CloudQueryError) -> Token {
        let token = current
        guard accept(symbol: symbol) else { throw unexpected() }
        return token
    }

    /// The error for the current token, listing what was looked for at its position.
    func unexpected() -> CloudQueryError {
        let expected = expectationIndex == index ? expectations : []
        var detail = "unexpected \(current.quoted)"
        if !expected.isEmpty { detail += "; expected one of: " + expected.joined(separator: " ") }
        return CloudQueryError(at: current.position, detail, expected: expected)
    }

    /// The statement keyword and its body.
    private mutating func statement() throws(CloudQueryError) -> Statement {
        if accept(keyword: "select") { return .select(try selectBody()) }
        if accept(keyword: "insert") { return .insert(try insertBody()) }
        if accept(keyword: "update") { return .update(try updateBody()) }
        if accept(keyword: "delete") { return .delete(try deleteBody()) }
        throw unexpected()
    }

    /// A class name after `from`, `into` or `update`.
    mutating func classReference() throws(CloudQueryError) -> ClassReference {
        let token = current
        guard token.kind == .word else {
            note("a class name")
            throw unexpected()
        }
        advance()
        return ClassReference(token.text, at: token.position)
    }
}
