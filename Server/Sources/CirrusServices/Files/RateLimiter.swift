import CirrusModel
import CirrusStorage

/// Applies a ``RateLimit`` to the requests of one client, with the counts kept in the store (so that every
/// instance over one database shares them).
///
/// Each request is recorded *before* it is counted, so a burst of parallel requests cannot all pass a window with
/// room for one; refused requests count too, which keeps a client that keeps trying refused.
struct RateLimiter {
    let store: any StorageAdapter
    let limit: RateLimit
    let now: Timestamp

    /// Admits one request of `kind` from `client`.
    /// - Throws: ``APIError`` ``APIError/Reason/rateLimited`` when a window is full.
    func admit(_ kind: String, client: String) async throws {
        guard let longest = limit.windows.map(\.milliseconds).max() else { return }
        let target = "rate:\(kind):\(client)"
        let time = now.millisecondsSince1970
        let record = AccountWrite.recordSend(target: target, at: now, forgetBefore: Timestamp(millisecondsSince1970: time - longest))
        for result in try await store.perform([.account(record)], atomically: true) {
            if case .failure(let error) = result { throw error.apiError(className: "_File") }
        }
        for window in limit.windows {
            let count = try await store.sendCount(target: target, since: Timestamp(millisecondsSince1970: time - window.milliseconds + 1))
            if count > window.count {
                throw APIError(.rateLimited, "Too many \(kind)s: at most \(window.count) per \(Self.describe(window.milliseconds)).")
            }
        }
    }

    static func describe(_ milliseconds: Int64) -> String {
        switch milliseconds {
        case 1000: "second"
        case 60_000: "minute"
        case 3_600_000: "hour"
        default: "\(milliseconds) ms"
        }
    }
}
