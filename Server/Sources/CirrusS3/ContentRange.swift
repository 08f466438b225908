/// A `Content-Range: bytes first-last/total` header of a 206 reply.
struct ContentRange: Sendable, Hashable {
    var first: Int
    var last: Int
    var total: Int

    /// Parses `bytes 7-25/26`; nil for anything else, an unknown total (`/*`) included.
    init?(_ header: String) {
        let parts = header.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "/" })
        guard parts.count == 4, parts[0] == "bytes", let first = Int(parts[1]), let last = Int(parts[2]), let total = Int(parts[3]),
            first >= 0, first <= last, last < total
        else { return nil }
        self.first = first
        self.last = last
        self.total = total
    }
}
