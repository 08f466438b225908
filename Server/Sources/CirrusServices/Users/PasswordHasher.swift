import Crypto
import Foundation
import _CryptoExtras

/// How a user's password is kept in `_User`.
package enum StoredPassword: Sendable, Hashable {
    /// Cirrus's own: scrypt in the modular form `$scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt>$<key>` (base64).
    case scrypt(String)
    /// A LeanCloud export: `base64(SHA-512^513(salt ‖ password))` and its salt, kept so that imported users log in
    /// with their old passwords; upgraded to scrypt on the first successful log-in.
    case leanCloud(hash: String, salt: String)
    /// A bcrypt modular string (`$2a$`, `$2b$` or `$2y$`) as Parse Server and LeanCloud imports carry it, kept as-is;
    /// upgraded to scrypt on the first successful log-in.
    case bcrypt(String)
}

/// What checking a password found.
package enum PasswordCheck: Sendable, Equatable {
    /// The password is right; `needsRehash` when the stored form is legacy or weaker than the current cost.
    case match(needsRehash: Bool)
    case mismatch
}

/// Hashes passwords with scrypt (salted, memory-hard) and checks them against stored forms in constant time.
public struct PasswordHasher: Sendable {
    /// scrypt's work factors: N = 2^`log2N`, block size `r`, parallelism `p`.
    public struct Cost: Sendable, Hashable {
        public var log2N: Int
        public var blockSize: Int
        public var parallelism: Int

        public init(log2N: Int, blockSize: Int, parallelism: Int) {
            self.log2N = log2N
            self.blockSize = blockSize
            self.parallelism = parallelism
        }

        /// N = 2^15, r = 8, p = 1: 32 MiB and tens of milliseconds per hash, the usual interactive-log-in setting.
        public static let standard = Cost(log2N: 15, blockSize: 8, parallelism: 1)
    }

    package let cost: Cost
    static let saltByteCount = 16
    static let keyByteCount = 32

    package init(cost: Cost = .standard) {
        self.cost = cost
    }

    /// The stored form of `password` with a fresh random salt.
    package func hash(_ password: String) throws -> String {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<Self.saltByteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let key = try Self.derive(password, salt: salt, cost: cost)
        return "$scrypt$ln=\(cost.log2N),r=\(cost.blockSize),p=\(cost.parallelism)$"
            + Data(salt).base64EncodedString() + "$" + Data(key).base64EncodedString()
    }

    /// Checks `password` against a stored form; a malformed stored form never matches.
    package func verify(_ password: String, against stored: StoredPassword) -> PasswordCheck {
        switch stored {
        case .scrypt(let text):
            guard let parsed = Self.parse(text), let key = try? Self.derive(password, salt: parsed.salt, cost: parsed.cost),
                Self.constantTimeEqual(key, parsed.key)
            else { return .mismatch }
            return .match(needsRehash: parsed.cost != cost)
        case .leanCloud(let hash, let salt):
            guard !hash.isEmpty, let expected = Data(base64Encoded: hash),
                Self.constantTimeEqual(Self.leanCloudDigest(password, salt: salt), Array(expected))
            else { return .mismatch }
            return .match(needsRehash: true)
        case .bcrypt(let text):
            return BCrypt.verify(password, against: text) ? .match(needsRehash: true) : .mismatch
        }
    }

    /// LeanCloud's export algorithm: SHA-512 of the salt then the password, then 512 more SHA-512 rounds of the
    /// raw digest.
    static func leanCloudDigest(_ password: String, salt: String) -> [UInt8] {
        var digest = Array(SHA512.hash(data: Array(salt.utf8) + Array(password.utf8)))
        for _ in 0..<512 { digest = Array(SHA512.hash(data: digest)) }
        return digest
    }

    private static func derive(_ password: String, salt: [UInt8], cost: Cost) throws -> [UInt8] {
        let key = try KDF.Scrypt.deriveKey(
            from: Array(password.utf8), salt: salt, outputByteCount: keyByteCount, rounds: 1 << cost.log2N,
            blockSize: cost.blockSize, parallelism: cost.parallelism
        )
        return key.withUnsafeBytes { Array($0) }
    }

    /// `$scrypt$ln=…,r=…,p=…$salt$key`, or `nil` when malformed or outside sane work factors.
    static func parse(_ text: String) -> (cost: Cost, salt: [UInt8], key: [UInt8])? {
        let parts = text.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0].isEmpty, parts[1] == "scrypt" else { return nil }
        var factors: [String: Int] = [:]
        for item in parts[2].split(separator: ",") {
            let pair = item.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, let value = Int(pair[1]) else { return nil }
            factors[String(pair[0])] = value
        }
        guard let log2N = factors["ln"], let r = factors["r"], let p = factors["p"], (1...20).contains(log2N), (1...32).contains(r),
            (1...16).contains(p), let salt = Data(base64Encoded: String(parts[3])), let key = Data(base64Encoded: String(parts[4])),
            key.count == keyByteCount
        else { return nil }
        return (Cost(log2N: log2N, blockSize: r, parallelism: p), Array(salt), Array(key))
    }

    /// Compares without stopping at the first difference, so timing does not tell how much of a guess was right.
    package static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
