/// Streams the elements of a JSON document that is an array (`[…]`) or an object whose first member is
/// `"results":[…]` (Parse exports, LeanCloud import files), one element at a time: memory holds one element (up to
/// `limit` bytes; a larger one is skipped and reported), never the document.
///
/// ``open(_:limit:)`` reads the document's head and answers `nil` when it is neither shape (JSON Lines in a `.json`
/// file); the bytes it read are then replayed by ``ReplayingSource``.
final class JSONElementStream {
    enum Item {
        /// The bytes of the element at `index` (1 = the first).
        case element([UInt8], index: Int)
        case tooLarge(index: Int)
        /// The document ends inside an element, or is not well formed around it.
        case malformed(index: Int, reason: String)
    }

    private let source: ReplayingSource
    private let limit: Int
    private var pushedBack: UInt8?
    private var index = 0
    private var finished = false

    private init(source: ReplayingSource, limit: Int) {
        self.source = source
        self.limit = limit
    }

    /// A stream positioned on the first element, or `nil` (with `source` rewound) when the document is not an array
    /// nor a `{"results":[…]}` object.
    static func open(_ source: ReplayingSource, limit: Int) throws -> JSONElementStream? {
        source.record()
        let stream = JSONElementStream(source: source, limit: limit)
        guard let first = try stream.nextNonWhitespace() else {
            source.rewind()
            return nil
        }
        if first == UInt8(ascii: "[") {
            source.stopRecording()
            return stream
        }
        guard first == UInt8(ascii: "{"), try stream.nextNonWhitespace() == UInt8(ascii: "\"") else {
            source.rewind()
            return nil
        }
        var key: [UInt8] = []
        while let byte = try source.byte(), byte != UInt8(ascii: "\""), key.count < 16 { key.append(byte) }
        guard key == Array("results".utf8), try stream.nextNonWhitespace() == UInt8(ascii: ":"),
            try stream.nextNonWhitespace() == UInt8(ascii: "[")
        else {
            source.rewind()
            return nil
        }
        source.stopRecording()
        return stream
    }

    /// The next element, or `nil` after the array's end.
    func next() throws -> Item? {
        guard !finished else { return nil }
        while true {
            guard let byte = try nextNonWhitespace() else {
                finished = true
                return index == 0 ? nil : .malformed(index: index + 1, reason: "The document ends before its array is closed.")
            }
            if byte == UInt8(ascii: "]") {
                finished = true
                return nil
            }
            if byte == UInt8(ascii: ",") { continue }
            pushedBack = byte
            index += 1
            return try element()
        }
    }

    /// Reads one element: an object, an array, a string or a scalar, up to the `,` or `]` after it.
    private func element() throws -> Item {
        var buffer: [UInt8] = []
        var tooLarge = false
        var depth = 0
        var inString = false
        var escaped = false
        while let byte = try nextByte() {
            if !tooLarge {
                buffer.append(byte)
                if buffer.count > limit {
                    tooLarge = true
                    buffer = []
                }
            }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { return finish(buffer, tooLarge) }
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ","):
                if depth == 0 {
                    pushedBack = byte
                    if !tooLarge { buffer.removeLast() }
                    return finish(buffer, tooLarge)
                }
                if byte != UInt8(ascii: ",") {
                    depth -= 1
                    if depth == 0 { return finish(buffer, tooLarge) }
                }
            case 0x20, 0x09, 0x0a, 0x0d:
                if depth == 0 { return finish(buffer, tooLarge) }
            default:
                break
            }
        }
        finished = true
        return .malformed(index: index, reason: "The document ends inside this element.")
    }

    private func finish(_ buffer: [UInt8], _ tooLarge: Bool) -> Item {
        tooLarge ? .tooLarge(index: index) : .element(buffer, index: index)
    }

    private func nextByte() throws -> UInt8? {
        if let byte = pushedBack {
            pushedBack = nil
            return byte
        }
        return try source.byte()
    }

    private func nextNonWhitespace() throws -> UInt8? {
        while let byte = try nextByte() {
            switch byte {
            case 0x20, 0x09, 0x0a, 0x0d: continue
            case 0xEF, 0xBB, 0xBF: continue  // a UTF-8 byte order mark before the document
            default: return byte
            }
        }
        return nil
    }
}

/// A source read byte by byte that can record what it reads and replay it once, so that a reader may look at a
/// document's head and hand the untouched stream to another reader.
final class ReplayingSource: ByteSource {
    private let base: any ByteSource
    private var chunk: [UInt8] = []
    private var position = 0
    private var recorded: [UInt8]?
    private var replay: [UInt8] = []
    private var replayPosition = 0

    init(_ base: any ByteSource) {
        self.base = base
    }

    func record() { recorded = [] }

    func stopRecording() { recorded = nil }

    /// Makes the recorded bytes be read again.
    func rewind() {
        replay = (recorded ?? []) + replay[replayPosition...]
        replayPosition = 0
        recorded = nil
    }

    func byte() throws -> UInt8? {
        let value: UInt8
        if replayPosition < replay.count {
            value = replay[replayPosition]
            replayPosition += 1
        } else {
            if position == chunk.count {
                chunk = try base.read(max: 1 << 16)
                position = 0
                if chunk.isEmpty { return nil }
            }
            value = chunk[position]
            position += 1
        }
        recorded?.append(value)
        return value
    }

    func read(max: Int) throws -> [UInt8] {
        if replayPosition < replay.count {
            let end = min(replay.count, replayPosition + max)
            defer { replayPosition = end }
            return Array(replay[replayPosition..<end])
        }
        if position < chunk.count {
            let end = min(chunk.count, position + max)
            defer { position = end }
            return Array(chunk[position..<end])
        }
        return try base.read(max: max)
    }
}
