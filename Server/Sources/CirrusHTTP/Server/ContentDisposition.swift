/// `Content-Disposition` values of downloads (RFC 6266): the file's name as quoted ASCII for old clients and as
/// UTF-8 (RFC 8187) for the others.
enum ContentDisposition {
    /// `attachment; filename="…"; filename*=UTF-8''…`: a browser saves the content instead of showing it.
    static func attachment(name: String) -> String {
        let ascii = String(name.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && scalar.value >= 0x20 && scalar != "\"" && scalar != "\\" && scalar.value != 0x7F ? Character(scalar) : "_"
        })
        return "attachment; filename=\"\(ascii)\"; filename*=UTF-8''\(percentEncoded(name))"
    }

    /// RFC 8187's `attr-char` kept, every other byte of the UTF-8 as `%XX`.
    static func percentEncoded(_ text: String) -> String {
        let kept = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$&+-.^_`|~".utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            if kept.contains(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
