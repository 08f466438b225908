/// The Swift SDK's WebSocket frame reader and message assembler (`Sources/Cirrus/LiveQuery/WebSocket`, linked here:
/// the SDK's module is not a dependency of the server's), reading what a server sends. Whatever the bytes, reading
/// them whole or one by one gives the same frames and the same outcome; every frame read encodes back to bytes that
/// read as the same frame; the assembler never takes a message past its bound.
enum WebSocketTarget {
    static let maximumPayload = 1 << 12

    static func run(_ input: [UInt8]) {
        let whole = read([input[...]])
        let pieces = read(input.indices.map { input[$0...$0] })
        FuzzCheck.that(whole.frames == pieces.frames, "reading in pieces gave other frames")
        FuzzCheck.that(whole.failure == pieces.failure, "reading in pieces gave another outcome: \(String(describing: whole.failure)) vs \(String(describing: pieces.failure))")
        var assembler = WebSocketMessageAssembler(maximumMessageSize: maximumPayload)
        for frame in whole.frames {
            let bytes = WebSocketFrameCodec.encode(frame, mask: nil)
            let reread = try? WebSocketFrameCodec.decode(bytes[...], masked: false, maximumPayload: maximumPayload)
            FuzzCheck.that(reread?.frame == frame && reread?.length == bytes.count, "\(frame) does not encode back to itself")
            let event: WebSocketMessageAssembler.Event?
            do {
                event = try assembler.receive(frame)
            } catch {
                break
            }
            if case .message(let message)? = event {
                switch message {
                case .text(let text): FuzzCheck.that(text.utf8.count <= maximumPayload, "a text message past the bound")
                case .binary(let data): FuzzCheck.that(data.count <= maximumPayload, "a binary message past the bound")
                }
            }
        }
    }

    /// The frames read from `chunks` in turn, and the error that stopped the reading, if any.
    static func read(_ chunks: [ArraySlice<UInt8>]) -> (frames: [WebSocketFrame], failure: WebSocketProtocolError?) {
        var reader = WebSocketFrameReader(masked: false, maximumPayload: maximumPayload)
        var frames: [WebSocketFrame] = []
        for chunk in chunks {
            reader.append(chunk)
            do {
                while let frame = try reader.next() { frames.append(frame) }
            } catch let error as WebSocketProtocolError {
                return (frames, error)
            } catch {
                return (frames, nil)
            }
        }
        return (frames, nil)
    }
}
