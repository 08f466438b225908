import CompressNIO
import NIOCore

/// The tar reader of imports, alone and behind the gzip layer: any bytes list the same members with the same contents
/// (or fail with the same ``ImportError``) whatever the size of the reads, directly and gzip-compressed; a member
/// never yields more bytes than its size, and exactly its size unless the archive fails.
enum TarTarget {
    /// Archives this large or smaller are also read through gzip (compressing costs time on every run).
    static let gzipLimit = 64 * 1024

    static func run(_ input: [UInt8]) {
        let listing = Listing { ChunkedSource(input, chunk: 1 << 20) }
        let chunk = 1 + Int(input.last ?? 0) * 3
        FuzzCheck.that(Listing { ChunkedSource(input, chunk: chunk) } == listing, "reads of \(chunk) bytes list a different archive")
        // Through gzip for a quarter of the inputs (chosen by their length, so that a run repeats): CompressNIO
        // copies its 256 KiB window on every call, which makes this the slow part.
        if input.count <= gzipLimit, input.count % 4 == 0 {
            let viaGzip = Listing { try GzipByteSource(ChunkedSource(gzipped(input), chunk: 4096 + chunk)) }
            FuzzCheck.that(viaGzip == listing, "through gzip: \(viaGzip), directly: \(listing)")
        }
        if input.starts(with: [0x1F, 0x8B]) {
            // The input itself as a gzip stream: damage is an ImportError, never a crash.
            _ = Listing { try GzipByteSource(ChunkedSource(input, chunk: 4096 + chunk)) }
        }
        // Every block with a valid checksum, so that mutated sizes, types and names get past the checksum test.
        _ = Listing { ChunkedSource(withChecksums(input), chunk: chunk) }
    }

    /// `bytes` with the checksum field of every 512-byte block set to the block's checksum.
    static func withChecksums(_ bytes: [UInt8]) -> [UInt8] {
        var fixed = bytes
        for start in stride(from: 0, to: fixed.count - 511, by: 512) {
            fixed.replaceSubrange(start + 148..<start + 156, with: [UInt8](repeating: UInt8(ascii: " "), count: 8))
            let sum = fixed[start..<start + 512].reduce(0) { $0 + Int($1) }
            let digits = Array(String(sum, radix: 8).utf8)
            fixed.replaceSubrange(start + 148..<start + 156, with: [UInt8](repeating: UInt8(ascii: "0"), count: 6 - digits.count) + digits + [0, UInt8(ascii: " ")])
        }
        return fixed
    }

    /// The members of an archive, their sizes and contents, and the error that ended the reading, if any.
    struct Listing: Equatable, CustomStringConvertible {
        var members: [String] = []
        var failure: ImportError?

        init(_ source: () throws -> any ByteSource) {
            do {
                let reader = TarReader(try source())
                var index = 0
                var previous: (any ByteSource)?
                while let (member, content) = try reader.next() {
                    let stale = try previous?.read(max: 512) ?? []
                    FuzzCheck.that(stale.isEmpty, "a member still reads after the reader moved on")
                    previous = content
                    // Every third member is left unread, so that next() skips it.
                    let bytes = index % 3 == 2 ? [] : try readAll(content, limit: Int.max, name: member.name)
                    FuzzCheck.that(bytes.count <= member.size, "\(member.name) yields \(bytes.count) of \(member.size) bytes")
                    FuzzCheck.that(index % 3 == 2 || bytes.count == member.size, "\(member.name) yields \(bytes.count) of \(member.size) bytes")
                    members.append("\(member.name) \(member.size) \(member.isFile) \(bytes.hashValue)")
                    index += 1
                }
            } catch let error as ImportError {
                failure = error
            } catch {
                fatalError("not an ImportError: \(error)")
            }
        }

        var description: String { "\(members) \(failure.map(String.init(describing:)) ?? "")" }
    }

    /// Gzip-compresses `bytes` in one go.
    static func gzipped(_ bytes: [UInt8]) -> [UInt8] {
        let compressor = CompressionAlgorithm.gzip().compressor
        var input = ByteBufferAllocator().buffer(bytes: bytes)
        do {
            try compressor.startStream()
            defer { try? compressor.finishStream() }
            var output = ByteBufferAllocator().buffer(capacity: compressor.maxSize(from: input))
            try compressor.streamDeflate(from: &input, to: &output, flush: .finish)
            return Array(output.readableBytesView)
        } catch {
            fatalError("gzip: \(error)")
        }
    }
}

/// Bytes in memory read in chunks of at most `chunk` bytes.
final class ChunkedSource: ByteSource {
    private let bytes: [UInt8]
    private var position = 0
    private let chunk: Int

    init(_ bytes: [UInt8], chunk: Int) {
        self.bytes = bytes
        self.chunk = chunk
    }

    func read(max: Int) throws -> [UInt8] {
        let end = position + min(max, chunk, bytes.count - position)
        defer { position = end }
        return Array(bytes[position..<end])
    }
}
