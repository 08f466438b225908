import Foundation

/// Writes a POSIX ustar archive to a byte sink, one entry at a time, with PAX extended headers for names longer than
/// 100 bytes and sizes of 8 GiB and more (read by GNU tar, bsdtar and the importer alike). Contents stream through: an entry's size is given
/// up front and its bytes follow in any number of pieces.
struct TarWriter {
    /// Where archive bytes go (the gzip compressor).
    let sink: (ArraySlice<UInt8>) throws -> Void
    private var remaining = 0
    private var written = 0

    init(sink: @escaping (ArraySlice<UInt8>) throws -> Void) {
        self.sink = sink
    }

    /// Starts a regular file of `size` bytes; its content must follow through ``write(_:)``.
    mutating func beginFile(name: String, size: Int, modified: Date) throws {
        precondition(remaining == 0, "the previous entry is incomplete")
        let nameBytes = Array(name.utf8)
        var records: [UInt8] = []
        if nameBytes.count > 100 { records += Self.paxRecord(key: "path", value: name) }
        if size > Self.largestUstarSize { records += Self.paxRecord(key: "size", value: String(size)) }
        if !records.isEmpty {
            try emit(Self.header(name: Array("././@PaxHeader".utf8), size: records.count, modified: modified, type: "x")[...])
            try emit(records[...])
            try pad(records.count)
        }
        let headerSize = size > Self.largestUstarSize ? 0 : size
        try emit(Self.header(name: Array(nameBytes.prefix(100)), size: headerSize, modified: modified, type: "0")[...])
        remaining = size
        written = 0
    }

    /// Content of the current entry.
    mutating func write(_ bytes: ArraySlice<UInt8>) throws {
        precondition(bytes.count <= remaining, "more bytes than the entry's size")
        try emit(bytes)
        remaining -= bytes.count
        written += bytes.count
        if remaining == 0 { try pad(written) }
    }

    /// The largest size the header's 11 octal digits hold (8 GiB − 1); larger entries carry a PAX `size`.
    static let largestUstarSize = 0o77777777777

    /// The two zero blocks that end an archive.
    mutating func finish() throws {
        precondition(remaining == 0, "the last entry is incomplete")
        try emit([UInt8](repeating: 0, count: 1024)[...])
    }

    private func emit(_ bytes: ArraySlice<UInt8>) throws {
        if !bytes.isEmpty { try sink(bytes) }
    }

    private func pad(_ size: Int) throws {
        let extra = (512 - size % 512) % 512
        if extra > 0 { try emit([UInt8](repeating: 0, count: extra)[...]) }
    }

    /// `"<length> <key>=<value>\n"`, the length counting itself.
    static func paxRecord(key: String, value: String) -> [UInt8] {
        let body = " \(key)=\(value)\n"
        var length = body.utf8.count + 1
        while String(length).utf8.count + body.utf8.count != length { length = String(length).utf8.count + body.utf8.count }
        return Array((String(length) + body).utf8)
    }

    /// One 512-byte ustar header.
    static func header(name: [UInt8], size: Int, modified: Date, type: Character) -> [UInt8] {
        var block = [UInt8](repeating: 0, count: 512)
        func put(_ bytes: [UInt8], at offset: Int) {
            for (index, byte) in bytes.enumerated() { block[offset + index] = byte }
        }
        func octal(_ value: Int, width: Int) -> [UInt8] {
            let digits = String(value, radix: 8)
            return Array((String(repeating: "0", count: max(0, width - 1 - digits.count)) + digits).utf8) + [0]
        }
        put(name, at: 0)
        put(octal(0o644, width: 8), at: 100)
        put(octal(0, width: 8), at: 108)
        put(octal(0, width: 8), at: 116)
        put(octal(size, width: 12), at: 124)
        put(octal(max(0, Int(modified.timeIntervalSince1970)), width: 12), at: 136)
        put([UInt8](repeating: UInt8(ascii: " "), count: 8), at: 148)
        block[156] = type.asciiValue ?? UInt8(ascii: "0")
        put(Array("ustar".utf8) + [0], at: 257)
        put(Array("00".utf8), at: 263)
        put(Array("cirrus".utf8), at: 265)
        put(Array("cirrus".utf8), at: 297)
        let checksum = block.reduce(0) { $0 + Int($1) }
        let digits = String(checksum, radix: 8)
        put(Array((String(repeating: "0", count: max(0, 6 - digits.count)) + digits).utf8) + [0, UInt8(ascii: " ")], at: 148)
        return block
    }
}
