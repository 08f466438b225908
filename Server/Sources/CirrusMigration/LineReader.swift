/// Splits a byte stream into lines with a bounded buffer: a line longer than `limit` bytes is skipped to its end and
/// reported, never held in memory.
final class LineReader {
    enum Line {
        case text([UInt8], number: Int)
        case tooLong(number: Int)
    }

    private let source: any ByteSource
    private let limit: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false
    private var number = 0

    init(_ source: any ByteSource, limit: Int) {
        self.source = source
        self.limit = limit
    }

    func next() throws -> Line? {
        var overflowing = false
        var scanFrom = start
        while true {
            if let newline = buffer[scanFrom...].firstIndex(of: UInt8(ascii: "\n")) {
                number += 1
                let line = Array(buffer[start..<newline])
                start = newline + 1
                compact()
                if overflowing || line.count > limit { return .tooLong(number: number) }
                return .text(Self.trimmingCR(line), number: number)
            }
            if ended {
                guard start < buffer.count || overflowing else { return nil }
                number += 1
                let line = Array(buffer[start...])
                start = buffer.count
                if overflowing || line.count > limit { return .tooLong(number: number) }
                return .text(Self.trimmingCR(line), number: number)
            }
            if buffer.count - start > limit {
                // Drop what is held of the line: it is too long, only its end is looked for.
                overflowing = true
                buffer.removeAll(keepingCapacity: true)
                start = 0
            }
            compact()
            scanFrom = buffer.count
            // Small reads keep the progress (bytes read) close to the lines handed out.
            let chunk = try source.read(max: 64 * 1024)
            if chunk.isEmpty { ended = true } else { buffer.append(contentsOf: chunk) }
        }
    }

    private func compact() {
        if start > 1 << 20 || (start > 0 && start == buffer.count) {
            buffer.removeFirst(start)
            start = 0
        }
    }

    private static func trimmingCR(_ line: [UInt8]) -> [UInt8] {
        line.last == UInt8(ascii: "\r") ? Array(line.dropLast()) : line
    }
}
