import Foundation
import Testing

@testable import CirrusServices

@Suite("Password hashing")
struct PasswordHasherTests {
    /// A cheap cost for tests; the work factors are part of the stored form, so they are checked all the same.
    static let hasher = PasswordHasher(cost: PasswordHasher.Cost(log2N: 10, blockSize: 8, parallelism: 1))

    @Test("a hash verifies its password only, and two hashes of one password differ by their salt")
    func roundTrip() throws {
        let stored = try Self.hasher.hash("correct horse")
        #expect(stored.hasPrefix("$scrypt$ln=10,r=8,p=1$"))
        #expect(Self.hasher.verify("correct horse", against: .scrypt(stored)) == .match(needsRehash: false))
        #expect(Self.hasher.verify("correct hors", against: .scrypt(stored)) == .mismatch)
        #expect(Self.hasher.verify("", against: .scrypt(stored)) == .mismatch)
        #expect(try Self.hasher.hash("correct horse") != stored)
    }

    @Test("the default cost is scrypt with N = 2^15, r = 8, p = 1, and its hashes verify")
    func defaultCost() throws {
        let standard = PasswordHasher()
        let stored = try standard.hash("correct horse")
        #expect(stored.hasPrefix("$scrypt$ln=15,r=8,p=1$"))
        #expect(standard.verify("correct horse", against: .scrypt(stored)) == .match(needsRehash: false))
        #expect(Self.hasher.verify("correct horse", against: .scrypt(stored)) == .match(needsRehash: true))
    }

    @Test("a hash made with other work factors verifies and asks to be rehashed")
    func otherCost() throws {
        let older = PasswordHasher(cost: PasswordHasher.Cost(log2N: 9, blockSize: 8, parallelism: 1))
        let stored = try older.hash("pw")
        #expect(Self.hasher.verify("pw", against: .scrypt(stored)) == .match(needsRehash: true))
    }

    @Test("the LeanCloud export algorithm matches the documented vector, and a match asks to be rehashed")
    func leanCloudVector() {
        let salt = "h60d8x797d3oa0naxybxxv9bn7xpt2yiowz68mpiwou7gwr2"
        let hash = "tA7BLW+NK0UeARng0693gCaVnljkglCB9snqlpCSUKjx2RgYp8VZZOQt0S5iUtlDrkJXfT3gknS4rRqjYsd/Ug=="
        #expect(Data(PasswordHasher.leanCloudDigest("password", salt: salt)).base64EncodedString() == hash)
        #expect(Self.hasher.verify("password", against: .leanCloud(hash: hash, salt: salt)) == .match(needsRehash: true))
        #expect(Self.hasher.verify("Password", against: .leanCloud(hash: hash, salt: salt)) == .mismatch)
        #expect(Self.hasher.verify("password", against: .leanCloud(hash: hash, salt: salt + "x")) == .mismatch)
    }

    @Test("a bcrypt string is kept as-is in the store, matches its password and asks to be rehashed")
    func bcryptStoredForm() throws {
        let text = "$2b$04$abcdefghijklmnopqrstuuMCu.k1vM/ywQwiONaEn3oEMlZoCVBd6"
        let stored = try #require(StoredPassword(storedForm: text))
        #expect(stored == .bcrypt(text))
        #expect(stored.storedForm == text)
        #expect(Self.hasher.verify(String(repeating: "a", count: 71), against: stored) == .match(needsRehash: true))
        #expect(Self.hasher.verify(String(repeating: "a", count: 70), against: stored) == .mismatch)
        for other in ["$2y$", "$2a$"] {
            let variant = other + text.dropFirst(4)
            #expect(StoredPassword(storedForm: variant) == .bcrypt(variant))
        }
        #expect(StoredPassword(storedForm: "$2b$04$short") == nil)
        #expect(StoredPassword(storedForm: "$2x$" + text.dropFirst(4)) == nil)
    }

    @Test("users without a password hash (SMS sign-ups) never match")
    func emptyLegacyHash() {
        #expect(Self.hasher.verify("", against: .leanCloud(hash: "", salt: "")) == .mismatch)
        #expect(Self.hasher.verify("x", against: .leanCloud(hash: "", salt: "s")) == .mismatch)
    }

    @Test("malformed or out-of-range stored forms never match", arguments: [
        "", "scrypt", "$scrypt$ln=10,r=8,p=1$c2FsdA==", "$bcrypt$ln=10,r=8,p=1$c2FsdA==$a2V5",
        "$scrypt$ln=40,r=8,p=1$c2FsdA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
        "$scrypt$ln=10,r=8$c2FsdA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
        "$scrypt$ln=10,r=8,p=1$!!$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
        "$scrypt$ln=10,r=8,p=1$c2FsdA==$c2hvcnQ=",
    ])
    func malformed(_ stored: String) {
        #expect(Self.hasher.verify("pw", against: .scrypt(stored)) == .mismatch)
    }

    @Test("constant-time comparison agrees with equality")
    func comparison() {
        #expect(PasswordHasher.constantTimeEqual([1, 2, 3], [1, 2, 3]))
        #expect(!PasswordHasher.constantTimeEqual([1, 2, 3], [1, 2, 4]))
        #expect(!PasswordHasher.constantTimeEqual([1, 2], [1, 2, 3]))
        #expect(PasswordHasher.constantTimeEqual([], []))
    }
}
