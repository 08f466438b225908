import CirrusModel
import HTTPTypes
import NIOCore

/// The first handler of a connection: it measures each request head as its bytes arrive, before the HTTP decoder
/// buffers them, and refuses a request line longer than the URL limit (414) or a header section larger than the
/// header limit (431) as soon as the limit is passed, so an 8 MB header costs the server 64 KB of reading. A refused
/// or finished connection is drained here (input discarded until the client pauses for ``lingerPause``, for at most
/// ``lingerTime``) so that the client, still sending, reads the answer instead of a reset.
///
/// It passes a body through untouched: ``ConnectionTimer`` tells it, through the shared ``ConnectionState``, when a
/// request has ended and the next bytes are a head again. A head pipelined behind a body in the same read is
/// measured by the HTTP decoder's own limit instead (set to the sum of both limits).
final class RequestHeadGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// How long a connection that is being closed keeps reading (and discarding) what its client still sends, at most.
    static let lingerTime: TimeAmount = .seconds(10)
    /// A connection being closed is closed as soon as its client sends nothing for this long.
    static let lingerPause: TimeAmount = .seconds(2)

    private enum Scan {
        /// Reading a request line.
        case requestLine
        /// Reading the header lines.
        case headerLines
        /// A body: passed on as it is.
        case body
        /// The connection is ending: input is read and dropped.
        case discarding
    }

    private let state: ConnectionState
    private var scan = Scan.requestLine
    /// The bytes of the current request line, or of the header section, so far.
    private var length = 0
    /// The bytes of the current header line so far (a line without any ends the head).
    private var lineLength = 0
    private var lingerTimer: Scheduled<Void>?
    /// When the lingering close began, and when the client last sent something since.
    private var lingerStart = NIODeadline.now()
    private var lastInput = NIODeadline.now()

    init(state: ConnectionState) {
        self.state = state
    }

    func handlerAdded(context: ChannelHandlerContext) {
        state.attach(context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        lingerTimer?.cancel()
        state.detach()
    }

    /// The next bytes start a request head (the previous request ended).
    func expectHead() {
        if case .body = scan { startHead() }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        while buffer.readableBytes > 0 {
            switch scan {
            case .discarding:
                lastInput = .now()
                return
            case .body:
                context.fireChannelRead(wrapInboundOut(buffer))
                return
            case .requestLine, .headerLines:
                guard let headEnd = measureHead(buffer, context: context) else {
                    if case .discarding = scan { return }
                    context.fireChannelRead(wrapInboundOut(buffer))
                    return
                }
                // The head ends inside this buffer: pass it on alone, so that the decoder reports the request (and,
                // for a request without a body, its end) before the rest is measured as the next head.
                scan = .body
                context.fireChannelRead(wrapInboundOut(buffer.readSlice(length: headEnd)!))
            }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if case .discarding = scan {
            context.read()
        } else {
            context.fireChannelReadComplete()
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .discarding = scan, let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is LingeringClose else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        startDiscarding(context: context)
        promise?.succeed(())
    }

    /// Scans the head bytes at the start of `buffer`. Returns the length of the head's remainder in it when the head
    /// ends there; `nil` when all of it belongs to the head (or the head was refused).
    private func measureHead(_ buffer: ByteBuffer, context: ChannelHandlerContext) -> Int? {
        let (lineFeed, carriageReturn) = (UInt8(ascii: "\n"), UInt8(ascii: "\r"))
        let limits = state.settings
        return buffer.withUnsafeReadableBytes { bytes -> Int? in
            for index in bytes.indices {
                let byte = bytes[index]
                if case .requestLine = scan {
                    if byte == lineFeed {
                        // Empty lines before a request line are allowed and skipped.
                        if length > 0 {
                            scan = .headerLines
                            (length, lineLength) = (0, 0)
                        }
                    } else if byte != carriageReturn {
                        if length == 0 { state.headStarted() }
                        guard length < limits.maximumURLSize else {
                            refuse(.uriTooLong(limit: limits.maximumURLSize, dialect: state.dialect), context: context)
                            return nil
                        }
                        state.recordRequestLine(byte, at: length)
                        length += 1
                    }
                } else {
                    if byte == lineFeed, lineLength == 0 { return index + 1 }
                    guard length < limits.maximumHeaderSize else {
                        refuse(.headersTooLarge(limit: limits.maximumHeaderSize, dialect: state.dialect), context: context)
                        return nil
                    }
                    length += 1
                    if byte == lineFeed {
                        lineLength = 0
                    } else if byte != carriageReturn {
                        lineLength += 1
                    }
                }
            }
            return nil
        }
    }

    private func startHead() {
        scan = .requestLine
        (length, lineLength) = (0, 0)
    }

    /// Stops reading the head: the request is answered with `refusal` and the connection closed.
    private func refuse(_ refusal: TransportRefusal, context: ChannelHandlerContext) {
        scan = .discarding
        context.fireErrorCaught(refusal)
    }

    /// From now on input is dropped, and the connection is closed once the client pauses, or after ``lingerTime``.
    private func startDiscarding(context: ChannelHandlerContext) {
        scan = .discarding
        guard lingerTimer == nil else { return }
        (lingerStart, lastInput) = (.now(), .now())
        scheduleLingerCheck(at: lastInput + Self.lingerPause, context: context)
        context.read()
    }

    private func scheduleLingerCheck(at deadline: NIODeadline, context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        lingerTimer = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = loopBound.value
            let end = min(handler.lastInput + Self.lingerPause, handler.lingerStart + Self.lingerTime)
            if end <= .now() {
                context.close(promise: nil)
            } else {
                handler.scheduleLingerCheck(at: end, context: context)
            }
        }
    }

}

/// Sent down the pipeline when the connection is ending: input is discarded until the client closes or the linger
/// time passes.
struct LingeringClose {}
