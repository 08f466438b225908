import CirrusStorage

/// The `Range` header of file downloads: a header parses to one range within RFC 9110's grammar (digits, first ≤
/// last, a positive suffix) or to none, and the bytes a download asks the store for, and the suffix it cuts, stay
/// inside the content.
enum ByteRangeTarget {
    static let contentSizes = [0, 1, 2, 511, 4096]

    static func run(_ input: [UInt8]) {
        let header = String(decoding: input, as: UTF8.self)
        guard let range = ByteRange(header: header) else { return }
        let spec = header.utf8.dropFirst("bytes=".count)
        FuzzCheck.that(spec.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") }, "'\(header)' holds more than digits and '-' yet parses")
        if let suffix = range.suffix {
            FuzzCheck.that(suffix > 0 && range.start == nil && range.bounds == nil, "'\(header)' parses to \(range)")
            for size in contentSizes {
                let content = FileContent(bytes: Array(repeating: 0, count: size), offset: 0, totalSize: size).suffix(suffix)
                FuzzCheck.that(content.offset >= 0 && content.offset + content.bytes.count == size, "'\(header)' cuts \(content) from \(size) bytes")
                FuzzCheck.that(range.isSatisfiable(size: size) == (size > 0), "'\(header)' on \(size) bytes")
            }
        } else {
            let bounds = range.bounds
            // Only a first position past any content (too large for Int) reads nothing.
            FuzzCheck.that(bounds.map { $0.lowerBound >= 0 && (!$0.isEmpty || $0.lowerBound == Int.max) } == true, "'\(header)' reads \(String(describing: bounds))")
            for size in contentSizes {
                FuzzCheck.that(range.isSatisfiable(size: size) == (bounds!.lowerBound < size), "'\(header)' on \(size) bytes")
            }
        }
    }
}
