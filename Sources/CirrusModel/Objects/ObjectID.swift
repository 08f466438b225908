#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Object identifiers: their shapes per dialect and what is accepted on lookup.
public enum ObjectID {
    /// The shape of newly generated identifiers.
    public enum Style: Sendable {
        /// 24 lowercase hex characters, time-ordered (LeanCloud, MongoDB ObjectId layout).
        case hex24
        /// 10 alphanumeric characters (Parse and Bmob).
        case alphanumeric10
    }

    private static let counter = Counter()

    /// A new identifier in `style`.
    public static func make(_ style: Style) -> String {
        switch style {
        case .hex24: makeHex24()
        case .alphanumeric10: makeAlphanumeric(length: 10)
        }
    }

    /// Whether `id` can name an object: 1 to 64 characters of letters, digits, `_` and `-`.
    public static func isAcceptable(_ id: String) -> Bool {
        let bytes = id.utf8
        guard !bytes.isEmpty, bytes.count <= 64 else { return false }
        return bytes.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    /// 4 bytes of seconds, 5 random bytes, 3 bytes of a process-wide counter.
    private static func makeHex24() -> String {
        var seconds = UInt32(truncatingIfNeeded: Int(time(nil)))
        var bytes = [UInt8](repeating: 0, count: 12)
        for index in (0..<4).reversed() {
            bytes[index] = UInt8(truncatingIfNeeded: seconds)
            seconds >>= 8
        }
        var generator = SystemRandomNumberGenerator()
        for index in 4..<9 { bytes[index] = UInt8.random(in: .min ... .max, using: &generator) }
        var count = counter.next()
        for index in (9..<12).reversed() {
            bytes[index] = UInt8(truncatingIfNeeded: count)
            count >>= 8
        }
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(24)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func makeAlphanumeric(length: Int) -> String {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        var generator = SystemRandomNumberGenerator()
        let characters = (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
        return String(decoding: characters, as: UTF8.self)
    }
}

/// A thread-safe incrementing counter seeded at random.
private final class Counter: @unchecked Sendable {
    private var value = UInt32.random(in: 0...0xFFFFFF)
    private let lock = Lock()

    func next() -> UInt32 {
        lock.withLock {
            value = (value &+ 1) & 0xFFFFFF
            return value
        }
    }
}
