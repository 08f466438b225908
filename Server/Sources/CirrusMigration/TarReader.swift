/// Reads a tar stream (ustar, GNU long names, pax `path` and `size`) member by member without holding a member in memory: each
/// member is handed out as a ``ByteSource`` limited to its size; the next call to ``next()`` skips what was not read.
final class TarReader {
    struct Member {
        var name: String
        var size: Int64
        var isFile: Bool
    }

    /// The largest GNU long name or pax header read (they hold a path and a few numbers); a larger one is damage.
    static let maximumMetadataSize: Int64 = 1 << 20
    /// The largest member size accepted (1 PiB), so that sizes and their padding add up without overflow.
    static let maximumMemberSize: Int64 = 1 << 50

    private let input: any ByteSource
    private var remaining: Int64 = 0
    private var padding: Int64 = 0
    /// The member handed out last, detached on the next call. Weak: the member holds the reader, and a reader left
    /// inside a member (an import that failed there) would otherwise keep itself and its input alive.
    private weak var current: TarMemberSource?

    init(_ input: any ByteSource) {
        self.input = input
    }

    /// The next member (directories and links included, with `isFile` false), or `nil` at the end of the archive.
    func next() throws -> (Member, any ByteSource)? {
        try skip(remaining + padding)
        remaining = 0
        padding = 0
        current?.detach()
        var longName: String?
        var paxSize: Int64?
        while true {
            guard let header = try readBlock() else { return nil }
            if header.allSatisfy({ $0 == 0 }) { return nil }
            guard Self.checksumMatches(header) else { throw ImportError.corruptArchive("tar: a header's checksum does not match") }
            let type = header[156]
            let isMetadata = type == UInt8(ascii: "L") || type == UInt8(ascii: "x") || type == UInt8(ascii: "g")
            let size = isMetadata ? try Self.octal(header[124..<136]) : try paxSize ?? Self.octal(header[124..<136])
            guard size <= Self.maximumMemberSize else { throw ImportError.corruptArchive("tar: a member of \(size) bytes") }
            let dataPadding = (512 - size % 512) % 512
            if type == UInt8(ascii: "L") || type == UInt8(ascii: "x") {
                guard size <= Self.maximumMetadataSize else {
                    throw ImportError.corruptArchive("tar: a long name or pax header of \(size) bytes")
                }
                let data = try readExactly(Int(size))
                try skip(dataPadding)
                if type == UInt8(ascii: "L") {
                    longName = String(decoding: data.prefix { $0 != 0 }, as: UTF8.self)
                } else {
                    let records = Self.paxRecords(data)
                    if let path = records["path"] { longName = path }
                    if let text = records["size"] {
                        guard let value = Int64(text), value >= 0 else { throw ImportError.corruptArchive("tar: a pax size is not a number") }
                        paxSize = value
                    }
                }
                continue
            }
            if type == UInt8(ascii: "g") {
                try skip(size + dataPadding)
                continue
            }
            var name = Self.string(header[0..<100])
            let prefix = Self.string(header[345..<500])
            if header[257..<262].elementsEqual("ustar".utf8), !prefix.isEmpty { name = prefix + "/" + name }
            if let longName { name = longName }
            let isFile = type == 0 || type == UInt8(ascii: "0") || type == UInt8(ascii: "7")
            remaining = size
            padding = dataPadding
            let source = TarMemberSource(reader: self)
            current = source
            return (Member(name: name, size: size, isFile: isFile), source)
        }
    }

    /// Reads up to `max` bytes of the current member.
    fileprivate func readMember(max: Int) throws -> [UInt8] {
        guard remaining > 0 else { return [] }
        let chunk = try input.read(max: Int(min(Int64(max), remaining)))
        if chunk.isEmpty { throw ImportError.corruptArchive("tar: the archive ends inside a member") }
        remaining -= Int64(chunk.count)
        return chunk
    }

    private func readBlock() throws -> [UInt8]? {
        let block = try readExactly(512, allowEnd: true)
        return block.isEmpty ? nil : block
    }

    private func readExactly(_ count: Int, allowEnd: Bool = false) throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            let chunk = try input.read(max: count - bytes.count)
            if chunk.isEmpty {
                if allowEnd && bytes.isEmpty { return [] }
                throw ImportError.corruptArchive("tar: the archive is truncated")
            }
            bytes.append(contentsOf: chunk)
        }
        return bytes
    }

    private func skip(_ count: Int64) throws {
        var left = count
        while left > 0 {
            let chunk = try input.read(max: Int(min(left, 1 << 20)))
            if chunk.isEmpty { throw ImportError.corruptArchive("tar: the archive is truncated") }
            left -= Int64(chunk.count)
        }
    }

    private static func string(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// An octal number field; GNU's base-256 form (high bit set) for large sizes too.
    private static func octal(_ bytes: ArraySlice<UInt8>) throws -> Int64 {
        if let first = bytes.first, first & 0x80 != 0 {
            var value: Int64 = Int64(first & 0x7f)
            for byte in bytes.dropFirst() {
                guard value <= Int64.max >> 8 else { throw ImportError.corruptArchive("tar: a size is too large") }
                value = value << 8 | Int64(byte)
            }
            return value
        }
        var value: Int64 = 0
        for byte in bytes {
            if byte == 0 || byte == UInt8(ascii: " ") {
                if value > 0 { break } else { continue }
            }
            guard (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(byte) else { throw ImportError.corruptArchive("tar: a size is not octal") }
            value = value * 8 + Int64(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func checksumMatches(_ header: [UInt8]) -> Bool {
        guard let recorded = try? octal(header[148..<156]) else { return false }
        var sum: Int64 = 0
        for (index, byte) in header.enumerated() { sum += (148..<156).contains(index) ? 32 : Int64(byte) }
        return sum == recorded
    }

    /// The records of a pax extended header, each `<length> <key>=<value>\n` where the length counts the whole
    /// record (so a value may hold newlines); a malformed record ends the reading.
    static func paxRecords(_ data: [UInt8]) -> [String: String] {
        var records: [String: String] = [:]
        var start = 0
        while start < data.count, let space = data[start...].firstIndex(of: UInt8(ascii: " ")),
            let length = Int(String(decoding: data[start..<space], as: UTF8.self)), length > space - start, length <= data.count - start
        {
            let record = String(decoding: data[(space + 1)..<(start + length - 1)], as: UTF8.self)
            if let equals = record.firstIndex(of: "=") { records[String(record[..<equals])] = String(record[record.index(after: equals)...]) }
            start += length
        }
        return records
    }
}

/// One member's bytes; reads nothing once the reader moved on.
final class TarMemberSource: ByteSource {
    private var reader: TarReader?

    init(reader: TarReader) {
        self.reader = reader
    }

    func detach() { reader = nil }

    func read(max: Int) throws -> [UInt8] {
        try reader?.readMember(max: max) ?? []
    }
}
