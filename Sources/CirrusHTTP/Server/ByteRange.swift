import CirrusStorage

/// One `Range: bytes=…` request: `a-b`, `a-` or the last `n` bytes `-n`. Several ranges are not supported (the
/// whole content is sent instead, as RFC 9110 allows).
struct ByteRange: Sendable {
    var start: Int?
    var end: Int?
    var suffix: Int?

    init?(header: String) {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let spec = header.dropFirst("bytes=".count).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else { return nil }
        if spec[0].isEmpty {
            guard let count = Self.position(spec[1]), count > 0 else { return nil }
            suffix = count
        } else {
            guard let first = Self.position(spec[0]) else { return nil }
            start = first
            if !spec[1].isEmpty {
                guard let last = Self.position(spec[1]), last >= first else { return nil }
                end = last
            }
        }
    }

    /// A position or a length: ASCII digits only (RFC 9110's `1*DIGIT`; `Int(_:)` alone also takes a sign), and
    /// `Int.max` for one too large to hold, which lies past the end of any content.
    private static func position(_ digits: Substring) -> Int? {
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int(digits) ?? Int.max
    }

    /// The bytes to read, for storages that clamp to the content; `nil` (all of it) for a suffix, cut afterwards.
    var bounds: Range<Int>? {
        guard let start else { return nil }
        // A last position of Int.max (or beyond) reads to the end, as a missing one does.
        return start..<(end.flatMap { $0 < Int.max ? $0 + 1 : nil } ?? Int.max)
    }

    func isSatisfiable(size: Int) -> Bool {
        if suffix != nil { return size > 0 }
        return (start ?? 0) < size
    }
}

extension FileContent {
    /// The last `count` bytes of a whole content.
    func suffix(_ count: Int) -> FileContent {
        let kept = Array(bytes.suffix(count))
        return FileContent(bytes: kept, offset: totalSize - kept.count, totalSize: totalSize)
    }
}
