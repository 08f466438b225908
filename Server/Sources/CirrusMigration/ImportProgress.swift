import Foundation

/// Progress on standard error: on a terminal, one line redrawn in place (records, rate, bytes and ETA when the total
/// is known); otherwise a plain line every `interval` seconds.
final class ImportProgress {
    private let isTerminal: Bool
    private let interval: Double
    private let enabled: Bool
    private let start = Date()
    private var lastDraw = Date.distantPast
    var totalBytes: Int64 = 0
    var doneBytes: Int64 = 0
    var records = 0

    /// Told of every update, shown or not (``ImportOptions/onProgress``).
    private let observer: (@Sendable (Int, Int64, Int64) -> Void)?

    init(enabled: Bool, interval: Double = 5, observer: (@Sendable (Int, Int64, Int64) -> Void)? = nil) {
        self.enabled = enabled
        self.observer = observer
        isTerminal = isatty(2) == 1
        self.interval = isatty(2) == 1 ? 0.2 : interval
    }

    func update(force: Bool = false) {
        observer?(records, doneBytes, totalBytes)
        guard enabled else { return }
        let now = Date()
        guard force || now.timeIntervalSince(lastDraw) >= interval else { return }
        lastDraw = now
        let elapsed = max(now.timeIntervalSince(start), 0.001)
        let rate = Double(records) / elapsed
        var text = "\(records) records, \(Int(rate))/s"
        if totalBytes > 0 {
            let fraction = min(1, Double(doneBytes) / Double(totalBytes))
            text += String(format: ", %.1f%%", fraction * 100)
            if fraction > 0.001, fraction < 1 {
                let remaining = elapsed / fraction - elapsed
                text += ", ETA " + Self.duration(remaining)
            }
            if isTerminal {
                let width = 24
                let filled = Int(fraction * Double(width))
                text = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] " + text
            }
        }
        if isTerminal {
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + text).utf8))
        } else {
            FileHandle.standardError.write(Data(("import: " + text + "\n").utf8))
        }
    }

    /// Ends the redrawn line.
    func finish() {
        update(force: true)
        guard enabled else { return }
        if isTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    private static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        return total >= 3600 ? "\(total / 3600)h\(total % 3600 / 60)m" : total >= 60 ? "\(total / 60)m\(total % 60)s" : "\(total)s"
    }
}
