/// Decoding of URL query strings: form encoding, as every form encoder writes it (`+` is a space, a plus is `%2B`).
enum QueryString {
    /// What a `+` in a query string stands for.
    enum Plus: Sendable, Equatable {
        /// A space: what form encoding means, and what every client but one sends (aiohttp, browsers'
        /// `URLSearchParams`, `requests`, the LeanCloud JavaScript and Swift SDKs, Parse and Bmob clients).
        case space
        /// A plus in `where`, a space in the other parameters. The LeanCloud Python SDK form-encodes its parameters but
        /// appends a conditional save's `where` to the URL as raw JSON (`requests` then escapes only `"`, `{`, `}` and
        /// spaces in it), so a `+` in that JSON is a plus. Only requests known to come from that SDK are read so.
        case literalInWhere
    }

    /// The parameters of `query` (the text after `?`); the last value of a repeated name wins.
    static func parse(_ query: String, plus: Plus = .space) -> [String: String] {
        var parameters: [String: String] = [:]
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decode(parts[0], plusAsSpace: true)
            let value = parts.count > 1 ? decode(parts[1], plusAsSpace: plus == .space || name != "where") : ""
            parameters[name] = value
        }
        return parameters
    }

    /// Percent-decodes `text`; malformed escapes are kept as written.
    static func decode(_ text: Substring, plusAsSpace: Bool) -> String {
        // Most names, values and path segments have nothing to decode.
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) { return String(text) }
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
