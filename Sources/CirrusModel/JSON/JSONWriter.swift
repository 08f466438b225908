/// Writes ``JSON`` as compact text with object keys sorted, so equal values always give equal text.
public enum JSONWriter {
    /// The canonical text of `value`.
    public static func string(_ value: JSON) -> String {
        String(decoding: bytes(value), as: UTF8.self)
    }

    /// The canonical UTF-8 bytes of `value`.
    public static func bytes(_ value: JSON) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(64)
        write(value, into: &output)
        return output
    }

    /// Appends the canonical text of `value` to `output`.
    public static func write(_ value: JSON, into output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .int(let number): output.append(contentsOf: String(number).utf8)
        case .double(let number): output.append(contentsOf: format(number).utf8)
        case .string(let text): writeString(text, into: &output)
        case .array(let elements): writeArray(elements, into: &output) { write($0, into: &$1) }
        case .object(let members): writeObject(members, into: &output) { write($0, into: &$1) }
        }
    }

    /// A document some of whose parts are written already: text shared by many documents (an event's object, encoded
    /// once for all its subscribers) is spliced in as it is instead of being written again.
    public indirect enum Fragment: Sendable {
        /// A value, written as ``JSONWriter/write(_:into:)`` writes it.
        case value(JSON)
        /// The canonical text of a value, written before by this writer: spliced as it is.
        case written([UInt8])
        /// An object, its keys sorted as every object's.
        case object([String: Fragment])
        case array([Fragment])
    }

    /// The canonical UTF-8 bytes of `fragment`: the text of the value it stands for.
    public static func bytes(_ fragment: Fragment) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(fragment, into: &output)
        return output
    }

    /// Appends the canonical text of the value `fragment` stands for to `output`.
    public static func write(_ fragment: Fragment, into output: inout [UInt8]) {
        switch fragment {
        case .value(let value): write(value, into: &output)
        case .written(let text): output.append(contentsOf: text)
        case .array(let elements): writeArray(elements, into: &output) { write($0, into: &$1) }
        case .object(let members): writeObject(members, into: &output) { write($0, into: &$1) }
        }
    }

    private static func writeArray<Element>(_ elements: [Element], into output: inout [UInt8], _ element: (Element, inout [UInt8]) -> Void) {
        output.append(UInt8(ascii: "["))
        for (position, value) in elements.enumerated() {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            element(value, &output)
        }
        output.append(UInt8(ascii: "]"))
    }

    private static func writeObject<Member>(_ members: [String: Member], into output: inout [UInt8], _ member: (Member, inout [UInt8]) -> Void) {
        output.append(UInt8(ascii: "{"))
        for (position, key) in members.keys.sorted().enumerated() {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            writeString(key, into: &output)
            output.append(UInt8(ascii: ":"))
            member(members[key]!, &output)
        }
        output.append(UInt8(ascii: "}"))
    }

    /// The text of a floating-point number: shortest round-trip form, `.0` kept on whole numbers,
    /// `null` for values JSON cannot express.
    static func format(_ number: Double) -> String {
        guard number.isFinite else { return "null" }
        let text = "\(number)"
        // Swift writes large and small magnitudes as "1e+20"; JSON accepts that form.
        return text
    }

    /// `text` (a JSON text) as ``write(_:into:)`` would write what it holds, for a reply that sends a stored document
    /// as it is: without the whitespace between its tokens (PostgreSQL writes `jsonb` as `{"a": 1, "b": 2}`), and with
    /// integer literals too long for 64 bits written as the doubles they are read as (PostgreSQL writes the double
    /// `1e+308` as 309 digits, which a client would read as an integer). Text with neither is returned as it is, after
    /// one pass over it.
    public static func compacted(_ text: [UInt8]) -> [UInt8] {
        var inString = false
        var escaped = false
        var compact: [UInt8]?
        var index = 0
        while index < text.count {
            let byte = text[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                if compact == nil { compact = copy(text, upTo: index) }
                index += 1
                continue
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) {
                let end = numberEnd(text, from: index)
                if let long = longInteger(text[index..<end]) {
                    if compact == nil { compact = copy(text, upTo: index) }
                    compact?.append(contentsOf: long)
                } else {
                    compact?.append(contentsOf: text[index..<end])
                }
                index = end
                continue
            }
            compact?.append(byte)
            index += 1
        }
        return compact ?? text
    }

    private static func copy(_ text: [UInt8], upTo index: Int) -> [UInt8] {
        var copy = Array(text[..<index])
        copy.reserveCapacity(text.count)
        return copy
    }

    /// Where the number literal that starts at `start` ends.
    private static func numberEnd(_ text: [UInt8], from start: Int) -> Int {
        var end = start + 1
        while end < text.count {
            switch text[end] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"),
                UInt8(ascii: "-"):
                end += 1
            default:
                return end
            }
        }
        return end
    }

    /// An integer literal of 19 digits or more, written as what the parser reads it as (a 64-bit integer when it
    /// fits, else a double); `nil` for every other literal, which stays as it is.
    private static func longInteger(_ literal: ArraySlice<UInt8>) -> [UInt8]? {
        let digits = literal.first == UInt8(ascii: "-") ? literal.count - 1 : literal.count
        guard digits >= 19, literal.allSatisfy({ $0 == UInt8(ascii: "-") || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) }),
            let value = try? JSONParser.parse(Array(literal))
        else { return nil }
        return bytes(value)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `text` as a quoted JSON string, escaping what JSON requires.
    public static func writeString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            // Runs of bytes that need no escape are copied whole.
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if runStart < index { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                default:
                    output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                    output.append(hexDigits[Int(byte >> 4)])
                    output.append(hexDigits[Int(byte & 0xF)])
                }
            }
            if runStart < bytes.count { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
        }
        output.append(UInt8(ascii: "\""))
    }
}
