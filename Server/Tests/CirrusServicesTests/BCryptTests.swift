import Testing

@testable import CirrusServices

@Suite("bcrypt")
struct BCryptTests {
    /// A password and its bcrypt string: OpenBSD's and John the Ripper's published vectors (the first eight), then
    /// vectors made with pyca/bcrypt 5.0.0 for the 72-byte limit, `$2b$`, `$2y$`, UTF-8 and Parse Server's cost 10.
    struct Vector: Sendable, CustomTestStringConvertible {
        let password: String
        let hash: String
        var testDescription: String { "\(password.prefix(20)) → \(hash.prefix(7))" }
    }

    static let vectors: [Vector] = [
        Vector(password: "U*U", hash: "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"),
        Vector(password: "U*U*", hash: "$2a$05$CCCCCCCCCCCCCCCCCCCCC.VGOzA784oUp/Z0DY336zx7pLYAy0lwK"),
        Vector(password: "U*U*U", hash: "$2a$05$XXXXXXXXXXXXXXXXXXXXXOAcXxm9kjPGEMsLznoKqmqw7tc8WCx4a"),
        Vector(password: "U*U*U*U*", hash: "$2a$05$c92SVSfjeiCD6F2nAD6y0uBpJDjdRkt0EgeC4/31Rf2LUZbDRDE.O"),
        Vector(password: "U*U***U", hash: "$2a$05$WY62Xk2TXZ7EvVDQ5fmjNu7b0GEzSzUXUh2cllxJwhtOeMtWV3Ujq"),
        Vector(password: "*U*U*U*U", hash: "$2a$05$.WRrXibc1zPgIdRXYfv.4uu6TD1KWf0VnHzq/0imhUhuxSxCyeBs2"),
        Vector(password: "", hash: "$2a$04$zVHmKQtGGQob.b/Nc7l9NO8UlrYcW05FiuCj/SxsFO/ZtiN9.mNzy"),
        Vector(password: "", hash: "$2a$05$CCCCCCCCCCCCCCCCCCCCC.7uG0VCzI2bS7j6ymqJi9CdcdxiRTWNy"),
        Vector(password: String(repeating: "a", count: 71), hash: "$2b$04$abcdefghijklmnopqrstuuMCu.k1vM/ywQwiONaEn3oEMlZoCVBd6"),
        Vector(password: String(repeating: "b", count: 72), hash: "$2b$04$abcdefghijklmnopqrstuuUJf9qAIqFFWObw4K4AvdtuO.PaE5J/W"),
        Vector(
            password: String(repeating: "c", count: 72) + String(repeating: "d", count: 28),
            hash: "$2b$04$abcdefghijklmnopqrstuuogRL5VQwGjcLu2sTFXkuj.Qf1F2dCtK"
        ),
        Vector(password: "pässwörd 密码", hash: "$2y$05$ZZZZZZZZZZZZZZZZZZZZZuvHAmeLnw/8E1n8fFa1mZODHfUaM88uC"),
        Vector(password: "0123456789abcdefghijklmnopqrstuvwxyz", hash: "$2a$06$Ro0CUfOqk6cXEKf3dyaM7OYCA8baW/YKz2.M.4brvXcH0lb7MZZRy"),
        Vector(password: "correct horse battery staple", hash: "$2b$10$..............AAAAAAAeEgYte4yhYvoMOFc4UCByY0iCVyPBDve"),
    ]

    @Test("the published and generated vectors hash to their strings and verify", arguments: vectors)
    func vector(_ vector: Vector) throws {
        let parsed = try #require(BCrypt.Hash(vector.hash))
        #expect(parsed.modularForm == vector.hash)
        #expect(BCrypt.hash(vector.password, salt: parsed.salt, cost: parsed.cost, variant: parsed.variant) == vector.hash)
        #expect(BCrypt.verify(vector.password, against: vector.hash))
        #expect(!BCrypt.verify("x" + vector.password, against: vector.hash))
    }

    @Test("only the first 72 bytes count, and the trailing NUL makes 71 bytes differ from 72")
    func keyLimit() {
        let hash = "$2b$04$abcdefghijklmnopqrstuuogRL5VQwGjcLu2sTFXkuj.Qf1F2dCtK"
        #expect(BCrypt.verify(String(repeating: "c", count: 72), against: hash))
        #expect(BCrypt.verify(String(repeating: "c", count: 72) + "anything", against: hash))
        #expect(!BCrypt.verify(String(repeating: "c", count: 71), against: hash))
    }

    @Test("the variant letter does not change the result")
    func variants() throws {
        let parsed = try #require(BCrypt.Hash("$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"))
        for variant in ["2b", "2y"] {
            #expect(BCrypt.verify("U*U", against: "$\(variant)$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"))
            #expect(BCrypt.hash("U*U", salt: parsed.salt, cost: 5, variant: variant).hasPrefix("$\(variant)$05$"))
        }
    }

    @Test("bcrypt's base64 round-trips bytes and refuses foreign characters and stray low bits")
    func base64() {
        let bytes: [UInt8] = (0..<23).map { UInt8($0 * 11 + 3) }
        let text = BCrypt.encode(bytes)
        #expect(text.utf8.count == 31)
        #expect(BCrypt.decode(ArraySlice(text.utf8), count: 23) == bytes)
        #expect(BCrypt.encode(Array(repeating: 0, count: 16)) == String(repeating: ".", count: 22))
        #expect(BCrypt.encode([0xFF, 0xFF, 0xFF]) == "9999")
        #expect(BCrypt.decode(ArraySlice("+".utf8 + Array(repeating: UInt8(ascii: "."), count: 21)), count: 16) == nil)
        #expect(BCrypt.decode(ArraySlice((String(repeating: ".", count: 21) + "/").utf8), count: 16) == nil)
    }

    @Test("malformed bcrypt strings do not parse and never verify", arguments: [
        "", "$2a$", "$2x$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
        "$2$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
        "$2a$03$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
        "$2a$32$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
        "$2a$5$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
        "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOe",
        "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeWW",
        "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOe!",
        "$2a$05$CCCCCCCCCCCCCCCCCCCCCDE5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
        "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeX",
        "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOéW",
        "$2a-05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
    ])
    func malformed(_ text: String) {
        #expect(BCrypt.Hash(text) == nil)
        #expect(!BCrypt.verify("U*U", against: text))
        #expect(PasswordHasher().verify("U*U", against: .bcrypt(text)) == .mismatch)
        #expect(StoredPassword(storedForm: text) == nil)
    }
}
