/// The `Range` header of file downloads: a header parses to one range within RFC 9110's grammar (digits, first ≤
/// last, a positive suffix) or to none; the bytes a download asks the store for start at the first position, and
/// what a range selects of a content lies inside it, or is nothing (416) only when the first position is past it.
enum ByteRangeTarget {
    static let contentSizes = [0, 1, 2, 511, 4096]

    static func run(_ input: [UInt8]) {
        let header = String(decoding: input, as: UTF8.self)
        guard let range = ByteRange(header: header) else { return }
        let spec = header.utf8.dropFirst("bytes=".count)
        FuzzCheck.that(spec.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") }, "'\(header)' holds more than digits and '-' yet parses")
        switch range.spec {
        case .suffix(let count):
            FuzzCheck.that(count > 0 && range.readBounds == nil, "'\(header)' parses to \(range)")
        case .from(let first, let last):
            let bounds = range.readBounds
            FuzzCheck.that(first >= 0 && (last.map { $0 >= first } ?? true), "'\(header)' parses to \(range)")
            FuzzCheck.that(bounds?.lowerBound == first && (bounds.map { !$0.isEmpty || first == Int.max } ?? false), "'\(header)' reads \(String(describing: bounds))")
        }
        for size in contentSizes {
            switch range.selection(size: size) {
            case .whole:
                FuzzCheck.that(size == 0, "'\(header)' selects all of \(size) bytes")
            case .unsatisfiable:
                if case .from(let first, _) = range.spec { FuzzCheck.that(first >= size, "'\(header)' selects nothing of \(size) bytes") }
                else { FuzzCheck.that(false, "'\(header)' (a suffix) selects nothing of \(size) bytes") }
            case .part(let first, let last):
                FuzzCheck.that(0 <= first && first <= last && last < size, "'\(header)' selects \(first)-\(last) of \(size) bytes")
            }
        }
    }
}
