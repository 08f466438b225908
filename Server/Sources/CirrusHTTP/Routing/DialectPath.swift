import HTTPTypes

/// Reading the dialect and the endpoint segments from a request path.
struct DialectPath: Equatable {
    var dialect: Dialect
    /// The prefix the client used (`/1.1`, `/1`, `/parse`), echoed in `Location` headers.
    var prefix: String
    /// The path below the prefix, split on `/` and percent-decoded.
    var segments: [String]

    /// `/1.1/…` is LeanCloud, `/parse/…` Parse, `/2/…` Bmob, and `/1/…` Bmob when `X-Bmob-*` headers are
    /// present, Parse otherwise. `/1/timestamp` is Bmob's (Parse has no such endpoint), so that it works without
    /// credentials.
    static func resolve(_ path: String, headers: HTTPFields) -> DialectPath? {
        guard let (prefix, segments) = split(path) else { return nil }
        switch prefix {
        case "/1.1": return DialectPath(dialect: .leancloud, prefix: prefix, segments: segments)
        case "/parse", "/parse/1": return DialectPath(dialect: .parse, prefix: prefix, segments: segments)
        case "/2": return DialectPath(dialect: .bmob, prefix: "", segments: ["2"] + segments)
        default:
            let bmob = isBmob(headers) || (segments == ["timestamp"] && !isParse(headers))
            return DialectPath(dialect: bmob ? .bmob : .parse, prefix: prefix, segments: segments)
        }
    }

    /// The prefix and segments of a batch sub-request path, which starts with `/1.1/`, `/1/` or `/parse/`.
    static func subrequest(_ path: String) -> (prefix: String, segments: [String])? {
        guard let (prefix, segments) = split(path), prefix != "/2" else { return nil }
        return (prefix, segments)
    }

    /// The known prefix of `path` and the decoded segments after it.
    private static func split(_ path: String) -> (String, [String])? {
        // Split as UTF-8 bytes: splitting the string's characters runs grapheme breaking over every byte.
        let bytes = path.utf8
        let end = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
        let parts = bytes[..<end].split(separator: UInt8(ascii: "/")).map { QueryString.decode(Substring($0), plusAsSpace: false) }
        guard let first = parts.first else { return nil }
        switch first {
        case "1.1", "1", "2", "parse": break
        default: return nil
        }
        let rest = Array(parts.dropFirst())
        if first == "parse", rest.first == "1" { return ("/parse/1", Array(rest.dropFirst())) }
        return ("/" + first, rest)
    }

    private static func isBmob(_ headers: HTTPFields) -> Bool {
        headers.contains { $0.name.canonicalName.hasPrefix("x-bmob-") }
    }

    private static func isParse(_ headers: HTTPFields) -> Bool {
        headers.contains { $0.name.canonicalName.hasPrefix("x-parse-") }
    }
}
