/// Percent-encoding as SigV4 requires it (RFC 3986): every byte except the unreserved characters `A-Z a-z 0-9 - . _ ~`
/// becomes `%XY` with upper-case hex digits.
enum URIEncoding {
    /// `string` encoded for a query name or value, or, with `keepingSlashes`, for a path whose `/` separate segments.
    static func encode(_ string: String, keepingSlashes: Bool = false) -> String {
        var encoded = ""
        encoded.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            if isUnreserved(byte) || (keepingSlashes && byte == UInt8(ascii: "/")) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + Hex.string([byte]).uppercased()
            }
        }
        return encoded
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
