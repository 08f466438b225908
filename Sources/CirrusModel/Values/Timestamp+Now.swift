import Foundation

extension Timestamp {
    /// The current time, truncated to the millisecond.
    public static func now() -> Timestamp {
        Timestamp(millisecondsSince1970: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }
}
