/// The frames of a byte stream that arrives in pieces: bytes are appended as they are read, and whole frames taken
/// from the front.
struct WebSocketFrameReader {
    /// Whether frames must be masked (``WebSocketFrameCodec/decode(_:masked:maximumPayload:)``).
    let masked: Bool
    /// The largest frame payload taken.
    let maximumPayload: Int
    private var buffer: [UInt8] = []
    /// Where the bytes not yet taken start in ``buffer``.
    private var start = 0

    init(masked: Bool, maximumPayload: Int) {
        self.masked = masked
        self.maximumPayload = maximumPayload
    }

    /// Adds bytes read from the stream.
    mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next whole frame, or `nil` until more bytes are appended.
    /// - Throws: ``WebSocketProtocolError`` for a frame the codec refuses.
    mutating func next() throws -> WebSocketFrame? {
        guard let (frame, length) = try WebSocketFrameCodec.decode(buffer[start...], masked: masked, maximumPayload: maximumPayload) else {
            return nil
        }
        start += length
        compact()
        return frame
    }

    /// Drops the bytes taken once they are all of the buffer, or most of a large one.
    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.count <= 1 << 16)
            start = 0
        } else if start >= 1 << 16, start * 2 >= buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
    }
}
