import CirrusModel

/// Values: literals, placeholders, arrays, REST JSON objects and built-in function calls.
extension Parser {
    mutating func value() throws(CloudQueryError) -> Expression {
        let token = current
        switch token.kind {
        case .number:
            advance()
            return .literal(try Self.number(token, negative: false), token.position)
        case .string:
            advance()
            return .literal(.string(token.text), token.position)
        case .placeholder:
            if let placeholderBan { throw CloudQueryError(at: token.position, "placeholders are not allowed in \(placeholderBan)") }
            return placeholder()
        case .symbol:
            if let literal = try signedNumber() { return literal }
            if token.text == "[" { return try array() }
            if token.text == "{" { return try object() }
        case .word:
            if let literal = Self.constants[token.text.lowercased()] {
                advance()
                return .literal(literal, token.position)
            }
            if peek(1).isSymbol("(") { return try call() }
        case .end:
            break
        }
        note("a value")
        throw unexpected()
    }

    static let constants: [String: JSON] = ["true": true, "false": false, "null": .null]

    /// `?`, numbered in the order placeholders appear.
    mutating func placeholder() -> Expression {
        let token = advance()
        defer { placeholderCount += 1 }
        placeholderPositions.append(token.position)
        return .placeholder(index: placeholderCount, token.position)
    }

    /// `-3`, `+1.5`: a sign directly followed by a number.
    private mutating func signedNumber() throws(CloudQueryError) -> Expression? {
        let sign = current
        guard sign.isSymbol("-") || sign.isSymbol("+"), peek(1).kind == .number else { return nil }
        advance()
        let number = advance()
        return .literal(try Self.number(number, negative: sign.text == "-"), sign.position)
    }

    /// An integer when written without a fraction or exponent and in range, otherwise a double.
    static func number(_ token: Token, negative: Bool) throws(CloudQueryError) -> JSON {
        let text = (negative ? "-" : "") + token.text
        if !token.text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let integer = Int64(text) {
            return .int(integer)
        }
        guard let double = Double(text), double.isFinite else {
            throw CloudQueryError(at: token.position, "the number \(text) is out of range")
        }
        return .double(double)
    }

    private mutating func array() throws(CloudQueryError) -> Expression {
        let start = advance().position
        if accept(symbol: "]") { return .array([], start) }
        var elements = [try value()]
        while accept(symbol: ",") { elements.append(try value()) }
        try expect(symbol: "]")
        return .array(elements, start)
    }

    private mutating func object() throws(CloudQueryError) -> Expression {
        let start = advance().position
        if accept(symbol: "}") { return .object([], start) }
        var members = [try member()]
        while accept(symbol: ",") { members.append(try member()) }
        try expect(symbol: "}")
        return .object(members, start)
    }

    /// `key: value`, the key bare or quoted.
    private mutating func member() throws(CloudQueryError) -> Expression.Member {
        let key = current
        guard key.kind == .word || key.kind == .string else {
            note("a key")
            throw unexpected()
        }
        advance()
        try expect(symbol: ":")
        return Expression.Member(key: key.text, value: try value())
    }

    static let arities: [Expression.Function: ClosedRange<Int>] = [
        .date: 1...1, .pointer: 2...2, .geopoint: 2...2, .file: 1...2, .base64: 1...1, .currentTimestamp: 0...0, .op: 1...2,
    ]

    /// `name(arguments)`.
    private mutating func call() throws(CloudQueryError) -> Expression {
        let name = current
        guard let function = Expression.Function(rawValue: name.text.lowercased()) else {
            let known = Expression.Function.allCases.map { $0.rawValue + "()" }.joined(separator: ", ")
            throw CloudQueryError(at: name.position, "unknown function \(name.text)(); the functions are \(known)")
        }
        advance()
        advance()
        let ban = placeholderBan
        if callsLiftPlaceholderBan { placeholderBan = nil }
        defer { placeholderBan = ban }
        var arguments: [Expression] = []
        if !accept(symbol: ")") {
            arguments.append(try value())
            while accept(symbol: ",") { arguments.append(try value()) }
            try expect(symbol: ")")
        }
        let arity = Self.arities[function]!
        guard arity.contains(arguments.count) else {
            let count = arity.lowerBound == arity.upperBound ? "\(arity.lowerBound)" : "\(arity.lowerBound) or \(arity.upperBound)"
            throw CloudQueryError(at: name.position, "\(function.rawValue)() takes \(count) argument\(arity.upperBound == 1 ? "" : "s"), got \(arguments.count)")
        }
        return .call(function, arguments, name.position)
    }
}
