/// The query-string parser: total on any text; every name and value a form encoder (`+` for a space, `%XX` for the
/// rest) writes decodes back exactly, and in the LeanCloud Python SDK's mode too but for a `where`, whose `+` is a
/// plus there; text without `%` or `+` decodes to itself.
enum QueryStringTarget {
    static func run(_ input: [UInt8]) {
        let text = String(decoding: input, as: UTF8.self)
        for plus in [QueryString.Plus.space, .literalInWhere] { _ = QueryString.parse(text, plus: plus) }
        if !text.utf8.contains(UInt8(ascii: "%")), !text.utf8.contains(UInt8(ascii: "+")) {
            FuzzCheck.that(QueryString.decode(text[...], plusAsSpace: true) == text, "text without escapes changed by decoding: \(text)")
        }
        // The input's lines as names and values, form-encoded into one query string.
        let fields = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var expected: [String: String] = [:]
        var pairs: [String] = []
        for start in stride(from: 0, to: fields.count, by: 2) {
            let name = fields[start]
            let value = start + 1 < fields.count ? fields[start + 1] : ""
            expected[name] = value
            pairs.append(formEncoded(name) + "=" + formEncoded(value))
        }
        let query = pairs.joined(separator: "&")
        let decoded = QueryString.parse(query)
        FuzzCheck.that(decoded == expected, "\(query) decodes to \(decoded), not \(expected)")
        var literal = QueryString.parse(query, plus: .literalInWhere)
        if let value = expected["where"] {
            let sent = formEncoded(value)
            FuzzCheck.that(literal["where"] == QueryString.decode(sent[...], plusAsSpace: false), "where=\(sent) read with a literal +")
            literal["where"] = value
        }
        FuzzCheck.that(literal == expected, "\(query) decodes to \(literal), not \(expected), in the Python SDK's mode")
    }

    /// `application/x-www-form-urlencoded`, as browsers' URLSearchParams and Python's urlencode write it.
    static func formEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "*"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "): encoded += "+"
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                encoded.unicodeScalars.append(contentsOf: ["%", hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            }
        }
        return encoded
    }
}
