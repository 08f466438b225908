import Foundation

/// A received message taken apart for assertions: unfolded headers with encoded-words decoded, and bodies with
/// quoted-printable decoded.
struct ParsedMail {
    /// The headers in order, unfolded, values as sent.
    var headers: [(name: String, value: String)]
    /// The body as sent (after the blank line).
    var body: String

    init(_ raw: String) {
        let split = raw.range(of: "\r\n\r\n")
        let head = split.map { String(raw[..<$0.lowerBound]) } ?? raw
        body = split.map { String(raw[$0.upperBound...]) } ?? ""
        headers = Self.unfold(head).map { line in
            let colon = line.firstIndex(of: ":") ?? line.endIndex
            let value = line[colon...].dropFirst().drop { $0 == " " }
            return (String(line[..<colon]), String(value))
        }
    }

    /// The raw value of the first header called `name` (case-insensitive).
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The value of the header with its encoded-words decoded.
    func decodedHeader(_ name: String) -> String? {
        header(name).map(Self.decodeEncodedWords)
    }

    /// The parts of a multipart body, split at `--boundary` lines.
    func parts() -> [ParsedMail] {
        guard let type = header("Content-Type"), let start = type.range(of: "boundary=\"") else { return [] }
        let boundary = String(type[start.upperBound...].prefix { $0 != "\"" })
        let sections = body.components(separatedBy: "--\(boundary)")
        return sections.dropFirst().dropLast().map { section in
            ParsedMail(String(section.hasPrefix("\r\n") ? section.dropFirst() : section[...]))
        }
    }

    /// The body with its quoted-printable encoding removed; a multipart body's trailing CRLF before the
    /// boundary is dropped.
    var decodedBody: String {
        var text = body
        if text.hasSuffix("\r\n") { text.removeLast() }
        return Self.decodeQuotedPrintable(text)
    }

    private static func unfold(_ head: String) -> [String] {
        var lines: [String] = []
        for line in head.components(separatedBy: "\r\n") {
            if let first = line.first, first == " " || first == "\t", !lines.isEmpty {
                lines[lines.count - 1] += line
            } else {
                lines.append(line)
            }
        }
        return lines
    }

    /// Decodes `=?UTF-8?B?...?=` words; whitespace between two adjacent words is dropped (RFC 2047 §6.2).
    static func decodeEncodedWords(_ value: String) -> String {
        let word = /=\?UTF-8\?B\?([A-Za-z0-9+\/=]*)\?=/
        var result = ""
        var rest = value[...]
        var afterWord = false
        while let match = rest.firstMatch(of: word) {
            let between = rest[..<match.range.lowerBound]
            if !(afterWord && between.allSatisfy(\.isWhitespace)) { result += between }
            result += String(decoding: Data(base64Encoded: String(match.1)) ?? Data(), as: UTF8.self)
            rest = rest[match.range.upperBound...]
            afterWord = true
        }
        return result + rest
    }

    /// Decodes quoted-printable text: soft line breaks removed, `=XX` turned back into bytes.
    static func decodeQuotedPrintable(_ text: String) -> String {
        let bytes = Array(text.replacingOccurrences(of: "=\r\n", with: "").utf8)
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "="), index + 2 < bytes.count,
                let byte = UInt8(String(decoding: bytes[index + 1 ... index + 2], as: UTF8.self), radix: 16)
            {
                output.append(byte)
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
