/// SHA-1 (FIPS 180-4), for the WebSocket handshake's `Sec-WebSocket-Accept` (RFC 6455, 4.2.2), which the SDK checks
/// without a cryptography library. Not for security: SHA-1 is broken for collisions.
///
/// Bytes are fed with ``update(_:)`` in pieces of any size and the digest is read once with ``finalize()``.
struct SHA1 {
    /// The running hash: H0 to H4.
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
    /// The bytes of the current 64-byte block not yet compressed.
    private var pending: [UInt8] = []
    /// How many bytes were fed in all.
    private var length: UInt64 = 0

    init() {
        pending.reserveCapacity(64)
    }

    /// The 20-byte digest of `bytes`.
    static func digest(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hash = SHA1()
        hash.update(bytes)
        return hash.finalize()
    }

    /// Feeds `bytes` into the hash.
    mutating func update(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            pending.append(byte)
            length &+= 1
            if pending.count == 64 {
                compressPending()
            }
        }
    }

    /// The 20-byte digest of everything fed: the message padded with a one bit, zeros and its length in bits.
    func finalize() -> [UInt8] {
        var copy = self
        let bitLength = length &* 8
        copy.pending.append(0x80)
        if copy.pending.count > 56 {
            copy.pending.append(contentsOf: repeatElement(0, count: 64 - copy.pending.count))
            copy.compressPending()
        }
        copy.pending.append(contentsOf: repeatElement(0, count: 56 - copy.pending.count))
        copy.pending.append(contentsOf: (0..<8).reversed().map { UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64($0))) })
        copy.compressPending()
        let (h0, h1, h2, h3, h4) = copy.state
        return [h0, h1, h2, h3, h4].flatMap { word in (0..<4).reversed().map { UInt8(truncatingIfNeeded: word >> (8 * UInt32($0))) } }
    }

    /// Compresses the full block in ``pending`` into ``state`` and empties it.
    private mutating func compressPending() {
        var words = [UInt32](repeating: 0, count: 80)
        for index in 0..<16 {
            words[index] = (0..<4).reduce(UInt32(0)) { word, byte in word << 8 | UInt32(pending[index * 4 + byte]) }
        }
        for index in 16..<80 {
            words[index] = (words[index - 3] ^ words[index - 8] ^ words[index - 14] ^ words[index - 16]).rotatedLeft(by: 1)
        }
        var (a, b, c, d, e) = state
        for round in 0..<80 {
            let (f, k) = Self.roundFunction(round, b, c, d)
            let temporary = a.rotatedLeft(by: 5) &+ f &+ e &+ k &+ words[round]
            (e, d, c, b, a) = (d, c, b.rotatedLeft(by: 30), a, temporary)
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
        pending.removeAll(keepingCapacity: true)
    }

    /// The logical function and the constant of a round (FIPS 180-4, 4.1.1 and 4.2.1).
    private static func roundFunction(_ round: Int, _ b: UInt32, _ c: UInt32, _ d: UInt32) -> (UInt32, UInt32) {
        switch round {
        case 0..<20: return ((b & c) | (~b & d), 0x5A82_7999)
        case 20..<40: return (b ^ c ^ d, 0x6ED9_EBA1)
        case 40..<60: return ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
        default: return (b ^ c ^ d, 0xCA62_C1D6)
        }
    }
}

extension UInt32 {
    /// The word rotated left by `count` bits (0 < count < 32).
    fileprivate func rotatedLeft(by count: UInt32) -> UInt32 {
        self << count | self >> (32 - count)
    }
}
