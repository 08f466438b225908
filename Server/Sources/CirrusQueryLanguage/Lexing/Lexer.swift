/// Splits a statement into tokens, tracking the line and column of each.
///
/// Strings are quoted with `'` or `"`. Inside them `\\`, `\'`, `\"`, `\n`, `\t` and `\r` are escapes, a doubled
/// quote stands for itself, and any other backslash is kept as written so that regular expressions such as
/// `'\d+'` survive.
struct Lexer {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private var column = 1

    private init(_ source: String) {
        scalars = Array(source.unicodeScalars)
    }

    /// Every token of `source`, ending with one ``Token/Kind/end`` token.
    /// - Throws: ``CloudQueryError`` for an unterminated string or a character that starts no token.
    static func tokens(_ source: String) throws(CloudQueryError) -> [Token] {
        var lexer = Lexer(source)
        var tokens: [Token] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private var position: SourcePosition { SourcePosition(line: line, column: column) }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private mutating func advance() {
        if scalars[index] == "\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
        index += 1
    }

    private mutating func next() throws(CloudQueryError) -> Token {
        while let scalar = peek(), scalar.properties.isWhitespace { advance() }
        let start = position
        guard let scalar = peek() else { return Token(kind: .end, text: "", position: start) }
        if scalar.isWordStart { return word(start) }
        if scalar.isDigit { return number(start) }
        if scalar == "'" || scalar == "\"" { return try string(start, quote: scalar) }
        if scalar == "?" {
            advance()
            return Token(kind: .placeholder, text: "?", position: start)
        }
        return try symbol(start)
    }

    private mutating func word(_ start: SourcePosition) -> Token {
        var text = ""
        while let scalar = peek(), scalar.isWordStart || scalar.isDigit {
            text.unicodeScalars.append(scalar)
            advance()
        }
        return Token(kind: .word, text: text, position: start)
    }

    private mutating func number(_ start: SourcePosition) -> Token {
        var text = ""
        consumeDigits(into: &text)
        if peek() == ".", peek(1)?.isDigit == true {
            text += "."
            advance()
            consumeDigits(into: &text)
        }
        if let marker = peek(), marker == "e" || marker == "E" {
            let signed = peek(1) == "+" || peek(1) == "-"
            if peek(signed ? 2 : 1)?.isDigit == true {
                for _ in 0..<(signed ? 2 : 1) {
                    text.unicodeScalars.append(peek()!)
                    advance()
                }
                consumeDigits(into: &text)
            }
        }
        return Token(kind: .number, text: text, position: start)
    }

    private mutating func consumeDigits(into text: inout String) {
        while let scalar = peek(), scalar.isDigit {
            text.unicodeScalars.append(scalar)
            advance()
        }
    }

    private mutating func string(_ start: SourcePosition, quote: Unicode.Scalar) throws(CloudQueryError) -> Token {
        advance()
        var text = ""
        while let scalar = peek() {
            advance()
            if scalar == quote {
                guard peek() == quote else { return Token(kind: .string, text: text, position: start) }
                advance()
                text.unicodeScalars.append(quote)
            } else if scalar == "\\", let escaped = peek() {
                advance()
                text += Self.unescape(escaped)
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        throw CloudQueryError(at: start, "unterminated string: a quote \(quote) is missing")
    }

    private static func unescape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\\", "'", "\"": String(scalar)
        case "n": "\n"
        case "t": "\t"
        case "r": "\r"
        default: "\\" + String(scalar)
        }
    }

    private static let pairs: Set<String> = ["!=", "<>", "<=", ">="]
    private static let singles: Set<Unicode.Scalar> = ["(", ")", "[", "]", "{", "}", ",", ".", "*", ":", "+", "-", "=", "<", ">"]

    private mutating func symbol(_ start: SourcePosition) throws(CloudQueryError) -> Token {
        let first = peek()!
        if let second = peek(1), Self.pairs.contains(String(first) + String(second)) {
            advance()
            advance()
            return Token(kind: .symbol, text: String(first) + String(second), position: start)
        }
        guard Self.singles.contains(first) else {
            throw CloudQueryError(at: start, "unexpected character '\(first)'")
        }
        advance()
        return Token(kind: .symbol, text: String(first), position: start)
    }
}

extension Unicode.Scalar {
    fileprivate var isDigit: Bool { ("0"..."9").contains(self) }
    fileprivate var isWordStart: Bool { self == "_" || properties.isAlphabetic }
}
