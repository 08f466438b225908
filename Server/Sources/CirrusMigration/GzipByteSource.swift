import CompressNIO
import NIOCore

/// The decompressed bytes of a gzip stream, produced chunk by chunk with a bounded window (CompressNIO over zlib).
final class GzipByteSource: ByteSource {
    private let input: any ByteSource
    private let decompressor: any NIODecompressor
    private var pending: [UInt8] = []
    private var pendingStart = 0
    private var finished = false

    init(_ input: any ByteSource) throws {
        self.input = input
        decompressor = CompressionAlgorithm.gzip().decompressor
        decompressor.window = ByteBufferAllocator().buffer(capacity: 256 * 1024)
        try decompressor.startStream()
    }

    deinit { try? decompressor.finishStream() }

    func read(max: Int) throws -> [UInt8] {
        while pending.count - pendingStart == 0 {
            if finished { return [] }
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
            let compressed = try input.read(max: 64 * 1024)
            if compressed.isEmpty {
                finished = true
                return []
            }
            var buffer = ByteBufferAllocator().buffer(bytes: compressed)
            do {
                try buffer.decompressStream(with: decompressor) { window in
                    pending.append(contentsOf: window.readableBytesView)
                }
            } catch {
                throw ImportError.corruptArchive("gzip: \(error)")
            }
        }
        let end = min(pending.count, pendingStart + max)
        let chunk = Array(pending[pendingStart..<end])
        pendingStart = end
        return chunk
    }
}
