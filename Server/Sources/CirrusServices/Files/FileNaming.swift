import CirrusModel
import CirrusStorage

/// File names as clients give them, and the keys contents are stored under.
package enum FileNaming {
    /// A name is 1–255 bytes without control characters, `/` or `\` (LeanCloud 122 otherwise).
    static func check(_ name: String) throws(APIError) {
        guard (1...255).contains(name.utf8.count),
            !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == "/" || $0 == "\\" })
        else {
            throw APIError(.invalidFileName, "Invalid file name '\(name)': 1 to 255 bytes, no control characters, '/' or '\\'.")
        }
    }

    static let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    /// A new key: 40 random letters and digits with the name's extension (LeanCloud's shape), or with
    /// `keepFileName` the random part and the name itself, reduced to the characters keys allow.
    static func key(for name: String, keepFileName: Bool) -> String {
        let random = TokenGenerator.random(40, from: alphabet)
        if keepFileName { return String((random.prefix(20) + "-" + safe(name)).prefix(200)) }
        let ext = fileExtension(name).map { "." + safe($0) } ?? ""
        return random + String(ext.prefix(20))
    }

    /// The extension of a name, lower-cased, without the dot.
    package static func fileExtension(_ name: String) -> String? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex else { return nil }
        return name[name.index(after: dot)...].lowercased()
    }

    /// `text` with every character keys do not allow replaced by `_`.
    static func safe(_ text: String) -> String {
        String(text.unicodeScalars.map { scalar -> Character in
            let allowed = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar))
            return allowed ? Character(scalar) : "_"
        })
    }
}
