/// Parses JSON text into ``JSON`` with exact integers, strict syntax and a nesting limit.
///
/// Integer literals that fit in 64 bits become ``JSON/int(_:)``; every other number becomes
/// ``JSON/double(_:)``. Duplicate object keys keep the last value, as most JSON parsers do.
public struct JSONParser {
    /// Why a text is not acceptable JSON; `offset` is the byte position.
    public struct SyntaxError: Error, Sendable, CustomStringConvertible {
        public let offset: Int
        public let reason: String
        public var description: String { "\(reason) at byte \(offset)" }
    }

    /// The deepest nesting of arrays and objects accepted.
    public static let maximumDepth = 512

    /// The text, valid while ``parse(_:)`` runs: reading through a buffer pointer spares a bounds check and a
    /// reference count on every byte.
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses a complete JSON text.
    /// - Throws: ``SyntaxError`` when the text is not one well-formed JSON value.
    public static func parse(_ text: some Sequence<UInt8>) throws(SyntaxError) -> JSON {
        let text = Array(text)
        let parsed = text.withUnsafeBufferPointer { bytes -> Result<JSON, SyntaxError> in
            var parser = JSONParser(bytes: bytes)
            do throws(SyntaxError) {
                parser.skipWhitespace()
                let value = try parser.parseValue()
                parser.skipWhitespace()
                guard parser.index == parser.bytes.count else { throw parser.error("unexpected trailing characters") }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try parsed.get()
    }

    /// Parses a complete JSON text given as a string.
    public static func parse(_ text: String) throws(SyntaxError) -> JSON {
        try parse(text.utf8)
    }

    private func error(_ reason: String) -> SyntaxError {
        SyntaxError(offset: index, reason: reason)
    }

    private var current: UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            index += 1
        }
    }

    private mutating func parseValue() throws(SyntaxError) -> JSON {
        guard let byte = current else { throw error("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character")
        }
    }

    private mutating func expectWord(_ word: StaticString) throws(SyntaxError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("unexpected end of input") }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw error("invalid literal")
        }
        index += count
    }

    private mutating func enterContainer() throws(SyntaxError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting too deep") }
        index += 1
        skipWhitespace()
    }

    private mutating func parseObject() throws(SyntaxError) -> JSON {
        try enterContainer()
        defer { depth -= 1 }
        var members: [String: JSON] = [:]
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            guard current == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            members[key] = try parseValue()
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1; skipWhitespace()
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw error("expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray() throws(SyntaxError) -> JSON {
        try enterContainer()
        defer { depth -= 1 }
        var elements: [JSON] = []
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1; skipWhitespace()
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: throw error("expected ',' or ']'")
            }
        }
    }

    private mutating func parseString() throws(SyntaxError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes.
        var ascii = true
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { throw error("control character in string") }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        guard let stop = current else { throw error("unterminated string") }
        if stop == UInt8(ascii: "\"") {
            index += 1
            let text = UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)])
            return ascii ? String(decoding: text, as: UTF8.self) : try decodeUTF8(text)
        }
        var buffer = Array(bytes[start..<index])
        while true {
            guard let byte = current else { throw error("unterminated string") }
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return try buffer.withUnsafeBufferPointer { buffer throws(SyntaxError) in try decodeUTF8(buffer) }
            case UInt8(ascii: "\\"):
                try appendEscape(to: &buffer)
            default:
                guard byte >= 0x20 else { throw error("control character in string") }
                buffer.append(byte)
            }
        }
    }

    /// The text of valid UTF-8 bytes. Decoding puts U+FFFD in place of what is not UTF-8, so bytes that decode to
    /// other bytes were not valid.
    private func decodeUTF8(_ slice: UnsafeBufferPointer<UInt8>) throws(SyntaxError) -> String {
        let text = String(decoding: slice, as: UTF8.self)
        guard text.utf8.elementsEqual(slice) else { throw error("invalid UTF-8") }
        return text
    }

    private mutating func appendEscape(to buffer: inout [UInt8]) throws(SyntaxError) {
        guard let byte = current else { throw error("unterminated escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(byte)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"): buffer.append(contentsOf: try parseUnicodeEscape())
        default: throw error("invalid escape")
        }
    }

    private mutating func parseUnicodeEscape() throws(SyntaxError) -> [UInt8] {
        var scalar = try parseHex4()
        if (0xD800...0xDBFF).contains(scalar) {
            guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                throw error("unpaired surrogate")
            }
            index += 2
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid surrogate pair") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalar) {
            throw error("unpaired surrogate")
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid code point") }
        return Array(String(Character(unicode)).utf8)
    }

    private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(SyntaxError) -> JSON {
        let start = index
        var isInteger = true
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, first.isDigit else { throw error("invalid number") }
        if first == UInt8(ascii: "0") {
            index += 1
            if let next = current, next.isDigit { throw error("leading zero in number") }
        } else {
            skipDigits()
        }
        if current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let digit = current, digit.isDigit else { throw error("invalid fraction") }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let digit = current, digit.isDigit else { throw error("invalid exponent") }
            skipDigits()
        }
        if isInteger, let integer = Self.integer(UnsafeBufferPointer(rebasing: bytes[start..<index])) { return .int(integer) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let number = Double(text), number.isFinite else { throw error("number out of range") }
        return .double(number)
    }

    /// The value of an integer literal's digits (an optional `-` first), or `nil` past 64 bits.
    private static func integer(_ digits: UnsafeBufferPointer<UInt8>) -> Int64? {
        let negative = digits.first == UInt8(ascii: "-")
        var value: Int64 = 0
        for byte in digits.dropFirst(negative ? 1 : 0) {
            let digit = Int64(byte - UInt8(ascii: "0"))
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowB) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            if overflowA || overflowB { return nil }
            value = next
        }
        return value
    }

    private mutating func skipDigits() {
        while let byte = current, byte.isDigit { index += 1 }
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
}
