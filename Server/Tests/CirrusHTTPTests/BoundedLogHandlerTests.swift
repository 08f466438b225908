import CirrusModel
import CirrusServer
import Logging
import Testing

@Suite("Bounded log lines")
struct BoundedLogHandlerTests {
    /// A handler that keeps what it is asked to log.
    final class Recorder: LogHandler, @unchecked Sendable {
        let lock = Lock()
        var events: [LogEvent] = []
        var metadata: Logger.Metadata = [:]
        var metadataProvider: Logger.MetadataProvider?
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            lock.withLock { events.append(event) }
        }

        /// The size of what the last event would print: its message and metadata.
        var lastSize: Int {
            lock.withLock {
                guard let event = events.last else { return 0 }
                return event.message.description.utf8.count + (event.metadata ?? [:]).reduce(0) { $0 + $1.key.utf8.count + "\($1.value)".utf8.count }
            }
        }
    }

    static let markerAllowance = 200

    @Test("a huge message, metadata value or error is cut to the line bound with a marker", arguments: [1_024, 8_192])
    func bounds(_ limit: Int) {
        let recorder = Recorder()
        var logger = Logger(label: "test") { _ in BoundedLogHandler(wrapping: recorder, maximumLineSize: limit) }
        logger.logLevel = .trace
        let huge = String(repeating: "SELECT * FROM t WHERE x = 'é' ", count: 200_000)
        logger.error("store failure: \(huge)")
        #expect(recorder.lastSize <= limit + Self.markerAllowance)
        #expect(recorder.events.last?.message.description.contains("more bytes cut]") == true)
        logger.error("unexpected error", metadata: ["error": "\(huge)", "path": "/1.1/classes/\(huge)", "method": "GET"])
        #expect(recorder.lastSize <= limit + 3 * Self.markerAllowance)
        #expect(recorder.events.last?.metadata?["method"] == "GET")
        struct Failure: Error { let statement: String }
        logger.log(level: .error, "failed", error: Failure(statement: huge))
        #expect(recorder.lastSize <= limit + 2 * Self.markerAllowance)
    }

    @Test("short lines pass unchanged")
    func shortLines() {
        let recorder = Recorder()
        let logger = Logger(label: "test") { _ in BoundedLogHandler(wrapping: recorder, maximumLineSize: 8_192) }
        logger.info("request started", metadata: ["path": "/1.1/classes/Post"])
        #expect(recorder.events.last?.message == "request started")
        #expect(recorder.events.last?.metadata?["path"] == "/1.1/classes/Post")
    }

    @Test("the cut never splits a character")
    func characterBoundary() {
        let text = String(repeating: "é", count: 100)
        let cut = BoundedLogHandler.truncate(text, to: 51)
        #expect(cut.hasPrefix(String(repeating: "é", count: 25) + "…["))
    }
}
