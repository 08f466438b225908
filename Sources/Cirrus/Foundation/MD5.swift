import Foundation

/// MD5 (RFC 1321), for request signatures (`X-LC-Sign`) and file checksums. Not for security.
enum MD5 {
    private static let shifts: [UInt32] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
        4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ]

    private static let constants: [UInt32] = (0..<64).map { index in
        UInt32(truncatingIfNeeded: Int64(abs(sin(Double(index + 1))) * 4_294_967_296))
    }

    /// The digest of `bytes` as 32 lower-case hex digits.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        digest(Array(bytes)).lowercaseHex
    }

    /// The digest of `text`'s UTF-8 bytes as 32 lower-case hex digits.
    static func hex(_ text: String) -> String {
        hex(Array(text.utf8))
    }

    /// The 16-byte digest of `message`.
    static func digest(_ message: [UInt8]) -> [UInt8] {
        var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476)
        var padded = message
        padded.append(0x80)
        while padded.count % 64 != 56 { padded.append(0) }
        let bitLength = UInt64(message.count) &* 8
        for index in 0..<8 { padded.append(UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64(index)))) }
        for chunk in stride(from: 0, to: padded.count, by: 64) {
            state = compress(padded, at: chunk, state)
        }
        return [state.0, state.1, state.2, state.3].flatMap { word in
            (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * UInt32($0))) }
        }
    }

    private static func compress(
        _ bytes: [UInt8], at offset: Int, _ state: (UInt32, UInt32, UInt32, UInt32)
    ) -> (UInt32, UInt32, UInt32, UInt32) {
        let words = (0..<16).map { index in
            (0..<4).reduce(UInt32(0)) { word, byte in word | UInt32(bytes[offset + index * 4 + byte]) << (8 * UInt32(byte)) }
        }
        var (a, b, c, d) = state
        for round in 0..<64 {
            var f: UInt32
            let g: Int
            switch round {
            case 0..<16: f = (b & c) | (~b & d); g = round
            case 16..<32: f = (d & b) | (~d & c); g = (5 * round + 1) % 16
            case 32..<48: f = b ^ c ^ d; g = (3 * round + 5) % 16
            default: f = c ^ (b | ~d); g = (7 * round) % 16
            }
            f = f &+ a &+ constants[round] &+ words[g]
            a = d
            d = c
            c = b
            b = b &+ (f << shifts[round] | f >> (32 - shifts[round]))
        }
        return (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
    }
}

extension Sequence<UInt8> {
    /// The bytes as lower-case hex digits, two a byte (digests, APNs device tokens).
    var lowercaseHex: String {
        map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }
}
