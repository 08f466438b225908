import CirrusModel
import HTTPTypes
import NIOCore

/// What one connection is doing, and the one timer that bounds it: an idle keep-alive connection is closed after
/// the idle timeout, a request head must arrive whole within the header timeout of its first byte, a body may pause
/// at most the body timeout. While a request is being answered no timer runs: the request deadline bounds that. A
/// client that stops reading its answer (the connection stays unwritable) for the body timeout is disconnected.
///
/// Shared by the connection's ``RequestHeadGuard`` (which sees bytes) and ``ConnectionTimer`` (which sees requests
/// and responses); used on the connection's event loop only.
final class ConnectionState {
    enum Phase {
        /// Between requests.
        case idle
        /// The first bytes of a request head have arrived, not all of it.
        case head
        /// The head has arrived; the body is being read.
        case body
        /// The request has arrived and is being answered.
        case responding
    }

    let settings: TransportSettings
    private let limiter: ConnectionLimiter?
    private let connectionID: UInt64?
    private(set) var phase = Phase.idle
    /// Requests whose head arrived and whose response has not been written to its end.
    private var requestsInProgress = 0
    /// Set by a graceful shutdown: close once the request in progress is answered.
    private(set) var closesAfterResponse = false
    private var lastBodyRead = NIODeadline.now()
    private var timer: Scheduled<Void>?
    /// Runs while the connection cannot take more output.
    private var writeTimer: Scheduled<Void>?
    /// The first handler of the pipeline, from which timeouts are fired and the connection closed.
    private var context: ChannelHandlerContext?
    /// The first bytes of the current request line, kept for the dialect of an error reply.
    private var requestLineStart: [UInt8] = []

    init(settings: TransportSettings, limiter: ConnectionLimiter?, connectionID: UInt64?) {
        self.settings = settings
        self.limiter = limiter
        self.connectionID = connectionID
    }

    /// The connection is open: the idle timeout runs until a request starts.
    func attach(_ context: ChannelHandlerContext) {
        self.context = context
        arm(settings.idleTimeout)
    }

    func detach() {
        timer?.cancel()
        timer = nil
        writeTimer?.cancel()
        writeTimer = nil
        context = nil
        if let connectionID { limiter?.remove(connectionID) }
    }

    /// Keeps the byte at `offset` of the request line when it is among its first 64.
    func recordRequestLine(_ byte: UInt8, at offset: Int) {
        if offset == 0 { requestLineStart.removeAll(keepingCapacity: true) }
        if offset < 64 { requestLineStart.append(byte) }
    }

    /// The dialect the path of the current request line (`GET /1.1/classes/… HTTP/1.1`) names, when it is one of the
    /// API's and that much of the line arrived.
    var dialect: Dialect? {
        let parts = requestLineStart.split(separator: UInt8(ascii: " "), maxSplits: 2)
        guard parts.count >= 2 else { return nil }
        return DialectPath.resolve(String(decoding: parts[1], as: UTF8.self), headers: [:])?.dialect
    }

    /// The first byte of a request head arrived.
    func headStarted() {
        if phase == .idle, requestsInProgress == 0, let connectionID { limiter?.setIdle(connectionID, false) }
        phase = .head
        arm(settings.headerTimeout)
    }

    /// The whole head arrived: the body follows (or `bodyEnded` at once when there is none).
    func headEnded() {
        requestsInProgress += 1
        phase = .body
        lastBodyRead = .now()
        arm(settings.bodyTimeout)
    }

    /// A part of the body arrived: the body timeout starts again (the timer re-arms itself lazily).
    func bodyRead() {
        lastBodyRead = .now()
    }

    /// The request has arrived whole; it is being answered.
    func bodyEnded() {
        if phase == .body { phase = .responding }
        cancelTimer()
    }

    /// A response was written to its end. Returns whether the connection should now close.
    func responseEnded() -> Bool {
        requestsInProgress = max(0, requestsInProgress - 1)
        guard requestsInProgress == 0 else { return false }
        if closesAfterResponse { return true }
        if phase == .responding {
            phase = .idle
            if let connectionID { limiter?.setIdle(connectionID, true) }
            arm(settings.idleTimeout)
        }
        return false
    }

    /// The connection became writable, or stopped being so (its client does not read what it is sent).
    func writabilityChanged(_ writable: Bool) {
        writeTimer?.cancel()
        writeTimer = nil
        guard !writable, let context else { return }
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        writeTimer = context.eventLoop.scheduleTask(in: TimeAmount(settings.bodyTimeout)) { loopBound.value.close(promise: nil) }
    }

    /// A graceful shutdown began. Returns whether the connection may close now (no request on it).
    func quiesce() -> Bool {
        closesAfterResponse = true
        return requestsInProgress == 0 && phase != .body && phase != .head
    }

    private func arm(_ timeout: Duration) {
        cancelTimer()
        guard let context else { return }
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: TimeAmount(timeout)) { loopBound.value.expired() }
    }

    private func cancelTimer() {
        timer?.cancel()
        timer = nil
    }

    /// The timer of the current phase went off.
    private func expired() {
        timer = nil
        guard let context else { return }
        switch phase {
        case .idle:
            context.close(promise: nil)
        case .head:
            context.fireErrorCaught(TransportRefusal.headTimeout(settings.headerTimeout, dialect: dialect))
        case .body:
            let quiet = NIODeadline.now() - lastBodyRead
            if quiet >= TimeAmount(settings.bodyTimeout) {
                context.fireErrorCaught(TransportRefusal.bodyTimeout(settings.bodyTimeout))
            } else {
                arm(.nanoseconds(TimeAmount(settings.bodyTimeout).nanoseconds - quiet.nanoseconds))
            }
        case .responding:
            break
        }
    }
}
