import Foundation

/// The MIME encodings of header and body text: RFC 2047 encoded-words and RFC 2045 quoted-printable.
enum MIMEEncoding {
    /// The longest text of one encoded-word, in bytes of UTF-8: 52 base64 characters make a 64-character
    /// `=?UTF-8?B?...?=`, within RFC 2047's 75 and short enough for `Subject: ` on the same 78-character line.
    static let encodedWordBytes = 39

    /// Header text as is when it is printable ASCII, otherwise as `=?UTF-8?B?...?=` encoded-words folded onto
    /// continuation lines. Line breaks become spaces, so no value can add a header.
    static func headerText(_ text: String) -> String {
        let flat = singleLine(text)
        return isPlain(flat) ? flat : encodedWords(flat)
    }

    /// `text` with each line break replaced by a space.
    static func singleLine(_ text: String) -> String {
        lines(of: text).joined(separator: " ")
    }

    /// Whether header text can go out as is: printable ASCII that does not look like an encoded-word.
    static func isPlain(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F } && !text.contains("=?")
    }

    /// `text` as base64 encoded-words of at most ``encodedWordBytes`` bytes each, never splitting a character,
    /// joined by a folding line break.
    static func encodedWords(_ text: String) -> String {
        var words: [String] = []
        var chunk: [UInt8] = []
        for scalar in text.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            if chunk.count + bytes.count > encodedWordBytes {
                words.append(encodedWord(chunk))
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty { words.append(encodedWord(chunk)) }
        return words.joined(separator: "\r\n ")
    }

    private static func encodedWord(_ bytes: [UInt8]) -> String {
        "=?UTF-8?B?\(Data(bytes).base64EncodedString())?="
    }

    /// The longest line of quoted-printable output before a soft line break (`=`), keeping lines within 76.
    static let quotedPrintableLineLength = 75

    /// `text` as quoted-printable with CRLF hard line breaks (any `\n`, `\r\n` or `\r` in `text` is one).
    static func quotedPrintable(_ text: String) -> String {
        lines(of: text).map { quotedPrintableLine(Array($0.utf8)) }
            .joined(separator: "\r\n")
    }

    private static func quotedPrintableLine(_ bytes: [UInt8]) -> String {
        var output = ""
        var length = 0
        for (index, byte) in bytes.enumerated() {
            let isTrailingSpace = index == bytes.count - 1 && (byte == 0x20 || byte == 0x09)
            let isLiteral = (byte >= 0x21 && byte <= 0x7E && byte != 0x3D) || byte == 0x20 || byte == 0x09
            let token = isLiteral && !isTrailingSpace ? String(UnicodeScalar(byte)) : hexEscape(byte)
            if length + token.count > quotedPrintableLineLength {
                output += "=\r\n"
                length = 0
            }
            output += token
            length += token.count
        }
        return output
    }

    /// The lines of `text`, split at `\r\n`, `\n` and `\r`.
    static func lines(of text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" })
    }

    private static func hexEscape(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "=" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }
}
