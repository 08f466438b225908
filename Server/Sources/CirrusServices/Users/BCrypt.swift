/// bcrypt (Provos and Mazières, "A Future-Adaptable Password Scheme", 1999) as OpenBSD writes it: the modular form
/// `$2b$<cost>$<22 characters of salt><31 characters of hash>` in bcrypt's own base64 alphabet. Cirrus only checks
/// such hashes (imported Parse users); a match is upgraded to scrypt by the log-in path.
///
/// `$2a$`, `$2b$` and `$2y$` are computed alike, as OpenBSD, crypt_blowfish and pyca/bcrypt do for passwords
/// shorter than 256 bytes: the key is the password's UTF-8 bytes followed by a NUL, cut to 72 bytes (so a password
/// of 72 bytes or more loses the NUL and everything past byte 72).
package enum BCrypt {
    /// A well-formed bcrypt modular string, taken apart.
    package struct Hash: Sendable, Equatable {
        /// `2a`, `2b` or `2y`.
        package var variant: String
        /// log2 of the number of key-expansion rounds, 4...31.
        package var cost: Int
        /// The 16-byte salt.
        package var salt: [UInt8]
        /// The 23 bytes of the result.
        package var digest: [UInt8]

        /// Parses `$2a$`/`$2b$`/`$2y$` strings of exactly 60 characters with a cost of 4 to 31 and canonical
        /// base64 (the unused low bits of the last salt and hash characters are zero); `nil` for anything else.
        package init?(_ text: String) {
            let bytes = Array(text.utf8)
            guard bytes.count == 60, bytes[0] == UInt8(ascii: "$"), bytes[1] == UInt8(ascii: "2"),
                [UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "y")].contains(bytes[2]), bytes[3] == UInt8(ascii: "$"),
                bytes[6] == UInt8(ascii: "$"), let tens = BCrypt.digitValue(bytes[4]), let units = BCrypt.digitValue(bytes[5])
            else { return nil }
            let cost = tens * 10 + units
            guard (4...31).contains(cost), let salt = BCrypt.decode(bytes[7..<29], count: 16),
                let digest = BCrypt.decode(bytes[29..<60], count: 23)
            else { return nil }
            self.variant = String(decoding: bytes[1...2], as: UTF8.self)
            self.cost = cost
            self.salt = salt
            self.digest = digest
        }

        package init(variant: String, cost: Int, salt: [UInt8], digest: [UInt8]) {
            self.variant = variant
            self.cost = cost
            self.salt = salt
            self.digest = digest
        }

        /// The modular string: `$<variant>$<cost, two digits>$<salt><digest>`.
        package var modularForm: String {
            let costText = cost < 10 ? "0\(cost)" : "\(cost)"
            return "$\(variant)$\(costText)$" + BCrypt.encode(salt) + BCrypt.encode(digest)
        }
    }

    /// Computes the modular form for `password` with a given 16-byte salt and cost (4...31).
    package static func hash(_ password: String, salt: [UInt8], cost: Int, variant: String = "2b") -> String {
        precondition(salt.count == 16 && (4...31).contains(cost), "bcrypt needs a 16-byte salt and a cost of 4 to 31")
        return Hash(variant: variant, cost: cost, salt: salt, digest: digest(Array(password.utf8), salt: salt, cost: cost)).modularForm
    }

    /// Whether `password` matches the modular string `text`; `false` when `text` is not well-formed. The comparison
    /// of the results does not stop at the first difference.
    package static func verify(_ password: String, against text: String) -> Bool {
        guard let parsed = Hash(text) else { return false }
        let computed = digest(Array(password.utf8), salt: parsed.salt, cost: parsed.cost)
        var difference: UInt8 = 0
        for index in 0..<23 { difference |= computed[index] ^ parsed.digest[index] }
        return difference == 0
    }

    /// The 23 bytes of bcrypt: EksBlowfishSetup(cost, salt, key) then "OrpheanBeholderScryDoubt" encrypted 64 times.
    package static func digest(_ password: [UInt8], salt: [UInt8], cost: Int) -> [UInt8] {
        var key = password
        key.append(0)
        if key.count > 72 { key.removeLast(key.count - 72) }
        var state = BlowfishTables.p + BlowfishTables.s
        var output = [UInt32](repeating: 0, count: 6)
        state.withUnsafeMutableBufferPointer { buffer in
            let state = buffer.baseAddress!
            key.withUnsafeBufferPointer { key in
                salt.withUnsafeBufferPointer { salt in
                    expand(state, key: key, data: salt)
                    let rounds: UInt64 = 1 << UInt64(cost)
                    var round: UInt64 = 0
                    while round < rounds {
                        expand(state, key: key, data: nil)
                        expand(state, key: salt, data: nil)
                        round &+= 1
                    }
                }
            }
            let magic = Array("OrpheanBeholderScryDoubt".utf8)
            magic.withUnsafeBufferPointer { magic in
                var position = 0
                for index in 0..<6 { output[index] = streamWord(magic, &position) }
            }
            for _ in 0..<64 {
                for block in 0..<3 {
                    var left = output[2 * block]
                    var right = output[2 * block + 1]
                    encipher(state, &left, &right)
                    output[2 * block] = left
                    output[2 * block + 1] = right
                }
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        for word in output {
            bytes.append(UInt8(truncatingIfNeeded: word >> 24))
            bytes.append(UInt8(truncatingIfNeeded: word >> 16))
            bytes.append(UInt8(truncatingIfNeeded: word >> 8))
            bytes.append(UInt8(truncatingIfNeeded: word))
        }
        return Array(bytes.prefix(23))
    }

    // MARK: Blowfish with bcrypt's expensive key schedule

    /// The next 32 bits of `data` read big-endian and cyclically (OpenBSD's `Blowfish_stream2word`).
    @inline(__always)
    static func streamWord(_ data: UnsafeBufferPointer<UInt8>, _ position: inout Int) -> UInt32 {
        var word: UInt32 = 0
        var index = position
        let count = data.count
        for _ in 0..<4 {
            if index >= count { index = 0 }
            word = (word << 8) | UInt32(data[index])
            index += 1
        }
        position = index
        return word
    }

    /// Blowfish_expandstate (with `data`, the salt) or Blowfish_expand0state (without): XORs the key into the
    /// P-array, then replaces P and the S-boxes by successive encryptions, XORing in `data` before each.
    static func expand(_ state: UnsafeMutablePointer<UInt32>, key: UnsafeBufferPointer<UInt8>, data: UnsafeBufferPointer<UInt8>?) {
        var position = 0
        for index in 0..<18 { state[index] ^= streamWord(key, &position) }
        var left: UInt32 = 0
        var right: UInt32 = 0
        position = 0
        var index = 0
        while index < 18 + 1024 {
            if let data {
                left ^= streamWord(data, &position)
                right ^= streamWord(data, &position)
            }
            encipher(state, &left, &right)
            state[index] = left
            state[index + 1] = right
            index += 2
        }
    }

    /// One Blowfish block encryption with the state's P-array (words 0..<18) and S-boxes (words 18..<1042).
    @inline(__always)
    static func encipher(_ state: UnsafeMutablePointer<UInt32>, _ left: inout UInt32, _ right: inout UInt32) {
        let s0 = state + 18
        let s1 = state + 274
        let s2 = state + 530
        let s3 = state + 786
        var l = left ^ state[0]
        var r = right
        var round = 1
        while round < 17 {
            r ^= ((s0[Int(l >> 24)] &+ s1[Int((l >> 16) & 0xFF)]) ^ s2[Int((l >> 8) & 0xFF)]) &+ s3[Int(l & 0xFF)]
            r ^= state[round]
            l ^= ((s0[Int(r >> 24)] &+ s1[Int((r >> 16) & 0xFF)]) ^ s2[Int((r >> 8) & 0xFF)]) &+ s3[Int(r & 0xFF)]
            l ^= state[round + 1]
            round += 2
        }
        left = r ^ state[17]
        right = l
    }

    // MARK: bcrypt's base64

    static let alphabet = Array("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    static func digitValue(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }

    static func sextet(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "."): 0
        case UInt8(ascii: "/"): 1
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(byte - UInt8(ascii: "A")) + 2
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(byte - UInt8(ascii: "a")) + 28
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0")) + 54
        default: nil
        }
    }

    /// Encodes without padding: 16 bytes give 22 characters, 23 give 31.
    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let c1 = bytes[index]
            out.append(alphabet[Int(c1 >> 2)])
            var carry = (c1 & 0x03) << 4
            index += 1
            guard index < bytes.count else {
                out.append(alphabet[Int(carry)])
                break
            }
            let c2 = bytes[index]
            out.append(alphabet[Int(carry | (c2 >> 4))])
            carry = (c2 & 0x0F) << 2
            index += 1
            guard index < bytes.count else {
                out.append(alphabet[Int(carry)])
                break
            }
            let c3 = bytes[index]
            out.append(alphabet[Int(carry | (c3 >> 6))])
            out.append(alphabet[Int(c3 & 0x3F)])
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes exactly `count` bytes from `text`; `nil` on a character outside the alphabet, a wrong length, or
    /// non-zero unused bits in the last character.
    static func decode(_ text: ArraySlice<UInt8>, count: Int) -> [UInt8]? {
        guard text.count == (count * 8 + 5) / 6 else { return nil }
        var bits: UInt32 = 0
        var bitCount = 0
        var out: [UInt8] = []
        out.reserveCapacity(count)
        for character in text {
            guard let value = sextet(character) else { return nil }
            bits = (bits << 6) | value
            bitCount += 6
            if bitCount >= 8 {
                bitCount -= 8
                out.append(UInt8(truncatingIfNeeded: bits >> UInt32(bitCount)))
                bits &= (1 << UInt32(bitCount)) - 1
            }
        }
        guard out.count == count, bits == 0 else { return nil }
        return out
    }
}
