/// Decoding of URL query strings, form style or not.
enum QueryString {
    /// What a `+` in a query string stands for.
    enum Plus: Sendable {
        /// A space, as in form encoding (Parse and Bmob clients).
        case space
        /// Decided per value. LeanCloud's clients send both kinds: the Python SDK form-encodes its GET parameters
        /// (`+` for a space, `%3A` for `:`), yet pastes a conditional save's `where` JSON raw into the URL, where
        /// `:` `,` `$` and a literal `+` arrive unencoded. A value holding a character that form encoding always
        /// escapes was not form-encoded, so its `+` is a plus; in any other value it is a space.
        case detect
    }

    /// Characters that form encoding never leaves as they are.
    private static let formEscaped = Set(":,$\"{}[]".utf8)

    /// The parameters of `query` (the text after `?`); the last value of a repeated name wins.
    static func parse(_ query: String, plus: Plus) -> [String: String] {
        var parameters: [String: String] = [:]
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decode(parts[0], plusAsSpace: plusIsSpace(in: parts[0], plus))
            let value = parts.count > 1 ? decode(parts[1], plusAsSpace: plusIsSpace(in: parts[1], plus)) : ""
            parameters[name] = value
        }
        return parameters
    }

    private static func plusIsSpace(in raw: Substring, _ plus: Plus) -> Bool {
        switch plus {
        case .space: true
        case .detect: !raw.utf8.contains { formEscaped.contains($0) }
        }
    }

    /// Percent-decodes `text`; malformed escapes are kept as written.
    static func decode(_ text: Substring, plusAsSpace: Bool) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "+"), plusAsSpace {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), iterator.count >= 2,
                let high = hexValue(iterator[iterator.startIndex]), let low = hexValue(iterator[iterator.startIndex + 1])
            {
                bytes.append(high << 4 | low)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
