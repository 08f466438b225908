public import Logging

/// A log handler that bounds every line it passes on: the message and the metadata values share
/// ``maximumLineSize`` bytes (plus the markers and the handler's own prefix), and whatever is longer than its share (a client's path, body, SQL with its bound values,
/// an error's description) is cut, with a marker saying how much was dropped. So no request can make the server
/// write more than a line's worth of log, whatever it sends.
///
/// `cirrus serve` installs it around its stderr handler; ``CirrusServer/build(_:logger:)`` wraps the logger it is
/// given in it too.
public struct BoundedLogHandler: LogHandler {
    public private(set) var wrapped: any LogHandler
    /// The most bytes of message and metadata a line carries.
    public let maximumLineSize: Int

    public init(wrapping handler: any LogHandler, maximumLineSize: Int) {
        // Wrapping twice would only cut twice.
        if let bounded = handler as? BoundedLogHandler {
            wrapped = bounded.wrapped
        } else {
            wrapped = handler
        }
        self.maximumLineSize = max(256, maximumLineSize)
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { wrapped.metadataProvider }
        set { wrapped.metadataProvider = newValue }
    }

    public var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue }
    }

    public var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue }
    }

    public func log(event: LogEvent) {
        var event = event
        var metadata = event.metadata ?? [:]
        if let error = event.error {
            metadata["error"] = .string(String(reflecting: error))
            event.error = nil
        }
        let message = event.message.description
        // The message keeps at least half the line when metadata competes for it; metadata values share the rest.
        let messageShare = metadata.isEmpty ? maximumLineSize : max(maximumLineSize / 2, maximumLineSize - Self.size(of: metadata))
        let bounded = Self.truncate(message, to: messageShare)
        event.message = "\(bounded)"
        if !metadata.isEmpty {
            let share = max(64, (maximumLineSize - bounded.utf8.count) / metadata.count)
            event.metadata = metadata.mapValues { value in
                let text = Self.text(of: value)
                return text.utf8.count > share ? .string(Self.truncate(text, to: share)) : value
            }
        }
        wrapped.log(event: event)
    }

    /// `text` cut to at most `limit` bytes of UTF-8 (on a character boundary), with a marker of what was dropped.
    package static func truncate(_ text: String, to limit: Int) -> String {
        let utf8 = text.utf8
        guard utf8.count > limit else { return text }
        var end = utf8.index(utf8.startIndex, offsetBy: limit)
        while end > utf8.startIndex, String.Index(end, within: text) == nil { utf8.formIndex(before: &end) }
        return String(text[..<end]) + "…[\(utf8.distance(from: end, to: utf8.endIndex)) more bytes cut]"
    }

    private static func text(of value: Logger.Metadata.Value) -> String {
        if case .string(let text) = value { return text }
        return value.description
    }

    private static func size(of metadata: Logger.Metadata) -> Int {
        metadata.reduce(0) { $0 + $1.key.utf8.count + text(of: $1.value).utf8.count + 2 }
    }
}
