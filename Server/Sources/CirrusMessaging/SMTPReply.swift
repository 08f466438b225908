import CirrusServices

/// One reply of an SMTP server: a three-digit code and the text of each of its lines.
struct SMTPReply: Sendable, Equatable {
    /// The reply code (`250`, `354`, `535`, ...).
    var code: Int
    /// The text after the code on each line, in order.
    var lines: [String]

    /// `2xx`: the command succeeded.
    var isCompletion: Bool { code / 100 == 2 }
    /// `3xx`: the server waits for more (`334` during AUTH, `354` after DATA).
    var isIntermediate: Bool { code / 100 == 3 }

    /// The reply as the server wrote it, lines joined by spaces, for error messages and logs.
    var text: String {
        ([String(code)] + lines.filter { !$0.isEmpty }).joined(separator: " ")
    }
}

/// Assembles replies from lines, joining the continuation lines of a multi-line reply (`250-...`, then `250 ...`).
struct SMTPReplyParser {
    private var code: Int?
    private var lines: [String] = []

    /// Adds one line (without its line break); returns the reply that it completes, if any.
    /// - Throws: ``MessagingError`` for a line that is not `<code>[ -]<text>` or whose code changes mid-reply.
    mutating func add(line: String) throws -> SMTPReply? {
        let bytes = Array(line.utf8)
        guard bytes.count >= 3, bytes[0 ..< 3].allSatisfy({ (0x30 ... 0x39).contains($0) }),
            bytes.count == 3 || bytes[3] == UInt8(ascii: " ") || bytes[3] == UInt8(ascii: "-"),
            let lineCode = Int(String(decoding: bytes[0 ..< 3], as: UTF8.self))
        else {
            throw MessagingError("SMTP: malformed reply line \"\(line.prefix(80))\"")
        }
        if let code, code != lineCode {
            throw MessagingError("SMTP: reply code changed from \(code) to \(lineCode) within one reply")
        }
        code = lineCode
        lines.append(bytes.count > 4 ? String(decoding: bytes[4...], as: UTF8.self) : "")
        guard bytes.count == 3 || bytes[3] == UInt8(ascii: " ") else { return nil }
        defer { self = SMTPReplyParser() }
        return SMTPReply(code: lineCode, lines: lines)
    }
}
