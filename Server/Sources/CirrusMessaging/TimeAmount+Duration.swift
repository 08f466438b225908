import NIOCore

extension TimeAmount {
    /// `duration` to the nanosecond, for async-http-client's deadlines.
    init(_ duration: Duration) {
        self = .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }
}
