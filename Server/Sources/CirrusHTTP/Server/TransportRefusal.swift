import CirrusModel

/// A request the connection refuses before it reaches the responder (a head too large, a client too slow), with the
/// dialect its path names when that much of it arrived. It travels up the channel pipeline as an error; the
/// connection answers it with the dialect's JSON error and closes.
struct TransportRefusal: Error, Sendable {
    let error: APIError
    let dialect: Dialect?

    static func uriTooLong(limit: Int, dialect: Dialect?) -> TransportRefusal {
        TransportRefusal(error: APIError(.uriTooLong, "The request line is longer than \(limit) bytes."), dialect: dialect)
    }

    static func headersTooLarge(limit: Int, dialect: Dialect?) -> TransportRefusal {
        TransportRefusal(error: APIError(.headersTooLarge, "The request headers are larger than \(limit) bytes."), dialect: dialect)
    }

    static func headTimeout(_ timeout: Duration, dialect: Dialect?) -> TransportRefusal {
        TransportRefusal(error: APIError(.requestTimeout, "The request head did not arrive within \(timeout)."), dialect: dialect)
    }

    static func bodyTimeout(_ timeout: Duration) -> TransportRefusal {
        TransportRefusal(error: APIError(.requestTimeout, "The request body sent nothing for \(timeout)."), dialect: nil)
    }
}
