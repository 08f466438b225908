import CompressNIO
import Foundation
import NIOCore

/// Gzip-compresses a stream of bytes into a file as they come (CompressNIO's zlib), holding one window of output.
final class GzipFileWriter {
    private let handle: FileHandle
    private let compressor: any NIOCompressor
    private var input: ByteBuffer
    static let chunk = 256 * 1024

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else { throw ExportError.cannotWrite(path) }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        compressor = CompressionAlgorithm.gzip().compressor
        compressor.window = ByteBufferAllocator().buffer(capacity: Self.chunk)
        input = ByteBufferAllocator().buffer(capacity: Self.chunk)
        try compressor.startStream()
    }

    func write(_ bytes: ArraySlice<UInt8>) throws {
        input.writeBytes(bytes)
        if input.readableBytes >= Self.chunk { try compress(flush: .no) }
    }

    private func compress(flush: CompressNIOFlush) throws {
        let handle = self.handle
        try input.compressStream(with: compressor, flush: flush) { output in
            try handle.write(contentsOf: Array(output.readableBytesView))
        }
        input.clear()
    }

    /// Ends the gzip stream and closes the file.
    func close() throws {
        try compress(flush: .finish)
        try compressor.finishStream()
        try handle.synchronize()
        try handle.close()
    }
}
