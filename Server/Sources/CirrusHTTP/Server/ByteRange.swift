/// One `Range: bytes=…` request: `a-b`, `a-` or the last `n` bytes `-n` (RFC 9110 §14.1.2). Several ranges are not
/// supported (the whole content is sent instead, as RFC 9110 allows), nor is anything malformed.
///
/// Numbers saturate at `Int.max` instead of overflowing: `bytes=99999999999999999999-` starts past any content (416)
/// and `bytes=0-99999999999999999999` runs to its end, as the RFC reads positions past the end.
struct ByteRange: Sendable, Hashable {
    enum Spec: Sendable, Hashable {
        /// From `first` to `last` inclusive (`nil`: to the end).
        case from(first: Int, last: Int?)
        /// The last `count` bytes (`count` > 0).
        case suffix(count: Int)
    }

    /// What a range selects in a content of a given size.
    enum Selection: Sendable, Hashable {
        /// Bytes `first...last` of the content, both within it.
        case part(first: Int, last: Int)
        /// Nothing of the content: 416.
        case unsatisfiable
        /// The whole content, as a 200: an empty content has no byte a range could select, and answering it whole
        /// serves players that always ask for `bytes=0-`.
        case whole
    }

    let spec: Spec

    init?(header: String) {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let parts = header.dropFirst("bytes=".count).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        if parts[0].isEmpty {
            guard let count = Self.number(parts[1]), count > 0 else { return nil }
            spec = .suffix(count: count)
        } else {
            guard let first = Self.number(parts[0]) else { return nil }
            let last = parts[1].isEmpty ? nil : Self.number(parts[1])
            if !parts[1].isEmpty {
                guard let last, last >= first else { return nil }
            }
            spec = .from(first: first, last: last)
        }
    }

    /// Decimal digits only (no sign, no spaces), saturated at `Int.max`.
    static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        var value = 0
        for digit in text.utf8 {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(digit - 0x30))
            if overflow1 || overflow2 { return Int.max }
            value = sum
        }
        return value
    }

    /// The bytes to read before the size is known, for storages that clamp to the content: `nil` (all of it) for
    /// a suffix, which is cut once the size is known.
    var readBounds: Range<Int>? {
        guard case .from(let first, let last) = spec else { return nil }
        let end = last.map { $0 == Int.max ? Int.max : $0 + 1 } ?? Int.max
        return first..<end
    }

    /// The bytes selected in a content of `size` bytes.
    func selection(size: Int) -> Selection {
        guard size > 0 else { return .whole }
        switch spec {
        case .suffix(let count):
            return .part(first: count >= size ? 0 : size - count, last: size - 1)
        case .from(let first, let last):
            guard first < size else { return .unsatisfiable }
            return .part(first: first, last: min(last ?? Int.max, size - 1))
        }
    }
}
