public import HTTPTypes

/// Reading the dialect and the endpoint segments from a request path.
enum DialectPath {
    /// `/1.1/…` is LeanCloud, `/parse/…` Parse, `/2/…` Bmob, and `/1/…` Bmob when `X-Bmob-*` headers are
    /// present, Parse otherwise.
    static func resolve(_ path: String, headers: HTTPFields) -> (Dialect, [String])? {
        let parts = split(path)
        guard let first = parts.first else { return nil }
        let rest = Array(parts.dropFirst())
        switch first {
        case "1.1": return (.leancloud, rest)
        case "parse": return (.parse, rest.first == "1" ? Array(rest.dropFirst()) : rest)
        case "2": return (.bmob, ["2"] + rest)
        case "1": return (isBmob(headers) ? .bmob : .parse, rest)
        default: return nil
        }
    }

    /// The segments below any dialect prefix, for batch sub-request paths.
    static func segments(of path: String) -> [String]? {
        let parts = split(path)
        guard let first = parts.first, ["1.1", "1", "parse"].contains(first) else { return nil }
        let rest = Array(parts.dropFirst())
        return first == "parse" && rest.first == "1" ? Array(rest.dropFirst()) : rest
    }

    private static func split(_ path: String) -> [String] {
        let pathOnly = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return pathOnly.split(separator: "/").map { QueryString.decode($0, plusAsSpace: false) }
    }

    private static func isBmob(_ headers: HTTPFields) -> Bool {
        headers.contains { $0.name.canonicalName.hasPrefix("x-bmob-") }
    }
}
