@testable import Cirrus
import Testing

/// SHA-1, which checks the WebSocket handshake's `Sec-WebSocket-Accept`.
@Suite("SHA-1")
struct SHA1Tests {
    @Test("SHA-1 matches the FIPS 180 test vectors", arguments: [
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
    ])
    func vectors(input: String, digest: String) {
        #expect(hex(SHA1.digest(input.utf8)) == digest)
    }

    @Test("SHA-1 of a million 'a' matches the FIPS 180 long-message vector")
    func millionA() {
        #expect(hex(SHA1.digest(repeatElement(UInt8(ascii: "a"), count: 1_000_000))) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test("bytes fed in pieces across block boundaries hash as when fed at once", arguments: [1, 55, 56, 63, 64, 65, 119, 128])
    func pieces(split: Int) {
        let message = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var hash = SHA1()
        hash.update(message[..<split])
        hash.update(message[split...])
        #expect(hash.finalize() == SHA1.digest(message))
    }

    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
