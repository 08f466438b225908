package import CirrusModel

/// How many requests of a kind one client may make per window, e.g. `10/s,30/min`. LeanCloud's REST guide limits
/// uploads to 1 per second and 30 per minute per client (error 430).
public struct RateLimit: Sendable, Equatable {
    /// At most `count` requests within `milliseconds`.
    public struct Window: Sendable, Equatable {
        public var count: Int
        public var milliseconds: Int64

        public init(count: Int, milliseconds: Int64) {
            self.count = count
            self.milliseconds = milliseconds
        }
    }

    public var windows: [Window]

    public init(_ windows: [Window]) {
        self.windows = windows
    }

    /// No limit.
    public static let unlimited = RateLimit([])

    /// Cirrus's default for uploads: LeanCloud's 30 per minute, with bursts of up to 10 per second (LeanCloud's
    /// 1 per second would fail an SDK's batch upload of a few photos).
    public static let uploadDefault = RateLimit([Window(count: 10, milliseconds: 1000), Window(count: 30, milliseconds: 60_000)])

    static let units: [String: Int64] = ["s": 1000, "sec": 1000, "m": 60_000, "min": 60_000, "h": 3_600_000, "hour": 3_600_000]

    /// Reads `N/unit[,N/unit…]` with units `s`, `min`, `h`; `off` is no limit.
    /// - Throws: ``APIError`` ``APIError/Reason/invalidParameter`` for anything else.
    package init(parsing text: String) throws(APIError) {
        guard text != "off" else {
            self = .unlimited
            return
        }
        var windows: [Window] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pieces = part.split(separator: "/")
            guard pieces.count == 2, let count = Int(pieces[0]), count > 0, let milliseconds = Self.units[String(pieces[1])] else {
                throw APIError(.invalidParameter, "Invalid rate limit '\(text)': use N/s, N/min or N/h, separated by commas, or off.")
            }
            windows.append(Window(count: count, milliseconds: milliseconds))
        }
        guard !windows.isEmpty else { throw APIError(.invalidParameter, "Invalid rate limit '\(text)'.") }
        self.windows = windows
    }
}
