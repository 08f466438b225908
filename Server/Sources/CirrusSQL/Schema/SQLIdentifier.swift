/// Names Cirrus gives tables and indexes, kept within what every SQL engine keeps whole.
///
/// PostgreSQL cuts identifiers at 63 bytes without an error (`NAMEDATALEN` − 1), so two long names sharing their
/// first 63 bytes would name one table: a class of 128 characters (the longest allowed) must not land in another's.
package enum SQLIdentifier {
    /// The longest identifier PostgreSQL keeps whole; SQLite keeps any length.
    package static let maximumLength = 63

    /// `name` when it fits; else its first bytes, `_` and a hash of the whole name, 63 bytes in all.
    /// Names are ASCII (class and field names are identifiers), so a prefix of characters is one of bytes.
    package static func fitting(_ name: String) -> String {
        guard name.utf8.count > maximumLength else { return name }
        let hash = hex(name)
        return String(name.prefix(maximumLength - hash.count - 1)) + "_" + hash
    }

    /// An FNV-1a hash of `text`, as eight hexadecimal digits.
    static func hex(_ text: String) -> String {
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 {
            hash = (hash ^ UInt32(byte)) &* 16_777_619
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
