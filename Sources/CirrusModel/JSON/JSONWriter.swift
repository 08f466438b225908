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

    /// `text` (a JSON text) without the whitespace between its tokens: PostgreSQL writes `jsonb` as `{"a": 1, "b": 2}`,
    /// and a reply that sends a stored document as it is sends it compact, as ``write(_:into:)`` writes. Text with no
    /// such whitespace is returned as it is, after one pass over it.
    public static func compacted(_ text: [UInt8]) -> [UInt8] {
        var inString = false
        var escaped = false
        var compact: [UInt8]?
        for (index, byte) in text.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                if compact == nil {
                    compact = Array(text[..<index])
                    compact?.reserveCapacity(text.count)
                }
                continue
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            }
            compact?.append(byte)
        }
        return compact ?? text
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
