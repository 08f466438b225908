package import HTTPTypes
package import Logging
import Synchronization

/// Every request's id: the `X-Request-Id` its client or a proxy sent (1–128 visible ASCII characters), else one made
/// here. The reply carries it back, and every log line written while the request is answered carries it as
/// `request=<id>` (``metadataProvider``), so a client's report, the proxy's log and Cirrus's log meet.
package enum RequestID {
    package static let header = HTTPField.Name("X-Request-Id")!

    /// The id of the request being answered.
    @TaskLocal package static var current: String?

    /// Adds `request=<id>` to the log lines written while a request is answered (`LoggingSystem.bootstrap`).
    package static let metadataProvider = Logger.MetadataProvider {
        guard let id = current else { return [:] }
        return ["request": .string(id)]
    }

    /// The id a request gives, if it is acceptable, else a new one.
    package static func of(_ headers: HTTPFields) -> String {
        if let given = headers[header], (1...128).contains(given.utf8.count), given.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) {
            return given
        }
        return next()
    }

    /// This process's random prefix and a counter: unique across instances without a random draw per request.
    private static let prefix = String(UInt32.random(in: .min ... .max), radix: 16)
    private static let counter = Atomic<UInt64>(0)

    static func next() -> String {
        let number = counter.add(1, ordering: .relaxed).newValue
        return prefix + "-" + String(number, radix: 16)
    }
}
