@testable import CirrusMigration
import Foundation
import Testing

/// Bytes in memory as a source.
final class MemorySource: ByteSource {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: [UInt8]) {
        self.bytes = bytes[...]
    }

    func read(max: Int) throws -> [UInt8] {
        let chunk = bytes.prefix(max)
        bytes = bytes.dropFirst(chunk.count)
        return Array(chunk)
    }
}

@Suite("Reading tar archives")
struct TarReaderTests {
    static func padded(_ bytes: [UInt8]) -> [UInt8] { bytes + [UInt8](repeating: 0, count: (512 - bytes.count % 512) % 512) }

    @Test("a pax header's size and path override the ustar header's (TarWriter writes them for entries of 8 GiB or more)")
    func paxSizeAndPath() throws {
        let content = Array("hello".utf8)
        let records = TarWriter.paxRecord(key: "path", value: "deep/Post.jsonl") + TarWriter.paxRecord(key: "size", value: "5")
        var archive = TarWriter.header(name: Array("pax".utf8), size: records.count, modified: Date(timeIntervalSince1970: 0), type: "x")
        archive += Self.padded(records)
        // The ustar header says 0 bytes, as a writer does when the size does not fit its field.
        archive += TarWriter.header(name: Array("short".utf8), size: 0, modified: Date(timeIntervalSince1970: 0), type: "0")
        archive += Self.padded(content)
        archive += TarWriter.header(name: Array("next.jsonl".utf8), size: 2, modified: Date(timeIntervalSince1970: 0), type: "0")
        archive += Self.padded(Array("{}".utf8))
        archive += [UInt8](repeating: 0, count: 1024)
        let reader = TarReader(MemorySource(archive))
        let (first, source) = try #require(try reader.next())
        #expect(first.name == "deep/Post.jsonl")
        #expect(first.size == 5)
        #expect(try source.read(max: 100) == content)
        let (second, _) = try #require(try reader.next())
        #expect(second.name == "next.jsonl" && second.size == 2)
        #expect(try reader.next() == nil)
    }

    @Test("pax records are read by their length, so a value may hold a newline; a malformed size is a corrupt archive")
    func paxRecords() throws {
        let data = TarWriter.paxRecord(key: "path", value: "a\nb") + TarWriter.paxRecord(key: "size", value: "12")
        #expect(TarReader.paxRecords(data) == ["path": "a\nb", "size": "12"])
        let bad = TarWriter.paxRecord(key: "size", value: "lots")
        var archive = TarWriter.header(name: Array("pax".utf8), size: bad.count, modified: Date(timeIntervalSince1970: 0), type: "x")
        archive += Self.padded(bad)
        archive += TarWriter.header(name: Array("x".utf8), size: 0, modified: Date(timeIntervalSince1970: 0), type: "0")
        #expect(throws: ImportError.self) { _ = try TarReader(MemorySource(archive)).next() }
    }
}

/// Damaged archives found by fuzzing (scripts/fuzz tar): each is a corrupt archive, read without a trap or an
/// allocation of the size a header claims.
@Suite("Reading damaged tar archives")
struct DamagedTarTests {
    static let epoch = Date(timeIntervalSince1970: 0)

    /// `header` with its size field (bytes 124..<136) replaced and its checksum recomputed.
    static func withSizeField(_ header: [UInt8], _ field: [UInt8]) -> [UInt8] {
        var block = header
        block.replaceSubrange(124..<136, with: field)
        block.replaceSubrange(148..<156, with: [UInt8](repeating: UInt8(ascii: " "), count: 8))
        let checksum = String(block.reduce(0) { $0 + Int($1) }, radix: 8)
        block.replaceSubrange(148..<156, with: Array((String(repeating: "0", count: 6 - checksum.count) + checksum).utf8) + [0, UInt8(ascii: " ")])
        return block
    }

    static let endOfArchive = [UInt8](repeating: 0, count: 1024)

    @Test(
        "sizes past what a header may claim are refused at the header, before anything is read or allocated",
        arguments: [
            // A pax header or GNU long name of 8 GiB (the reader reserved that much memory).
            (TarWriter.header(name: Array("pax".utf8), size: 0o77777777777, modified: epoch, type: "x"), "tar: a long name or pax header of 8589934591 bytes"),
            (TarWriter.header(name: Array("././@LongLink".utf8), size: 0o77777777777, modified: epoch, type: "L"), "tar: a long name or pax header of 8589934591 bytes"),
            // GNU base-256 sizes: more bits than Int64 holds (it wrapped to a negative size), Int64.max (adding its
            // padding trapped), past the largest member.
            (withSizeField(TarWriter.header(name: Array("a".utf8), size: 0, modified: epoch, type: "0"), [0x80] + [UInt8](repeating: 0xFF, count: 11)), "tar: a size is too large"),
            (withSizeField(TarWriter.header(name: Array("g".utf8), size: 0, modified: epoch, type: "g"), [0x80, 0, 0, 0, 0x7F] + [UInt8](repeating: 0xFF, count: 7)), "tar: a member of \(Int64.max) bytes"),
            (withSizeField(TarWriter.header(name: Array("a".utf8), size: 0, modified: epoch, type: "0"), [0x80, 0, 0, 0, 0, 0x05] + [UInt8](repeating: 0, count: 6)), "tar: a member of \(5 << 48) bytes"),
        ]
    )
    func hugeSizes(_ header: [UInt8], _ reason: String) {
        let archive = header + [UInt8](repeating: UInt8(ascii: "a"), count: 512) + Self.endOfArchive
        #expect(throws: ImportError.corruptArchive(reason)) { _ = try TarReader(MemorySource(archive)).next() }
    }

    @Test("a reader left inside a member is freed with its input (the member and the reader held each other: a leak)")
    func abandonedReaderIsFreed() throws {
        weak var abandoned: TarReader?
        try {
            let archive = TarWriter.header(name: Array("a.jsonl".utf8), size: 1000, modified: Self.epoch, type: "0") + [UInt8](repeating: 0x61, count: 100)
            let reader = TarReader(MemorySource(archive))
            abandoned = reader
            let (_, content) = try #require(try reader.next())
            #expect(throws: ImportError.self) { _ = try readAll(content, limit: 1 << 20, name: "a.jsonl") }
        }()
        #expect(abandoned == nil)
    }

    @Test("a pax record whose length runs past the header ends the records (its length overflowed Int)")
    func paxLengthOverflow() {
        let data = TarWriter.paxRecord(key: "a", value: "b") + Array("\(Int.max) path=x\n".utf8)
        #expect(TarReader.paxRecords(data) == ["a": "b"])
    }
}
