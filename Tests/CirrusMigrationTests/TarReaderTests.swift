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
