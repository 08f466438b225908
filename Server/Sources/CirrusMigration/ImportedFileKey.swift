import CirrusStorage
import Crypto

/// The storage key an imported file gets. LeanCloud keys may hold characters file storages refuse (`/` among them);
/// a key that already follows ``FileKey`` is kept, any other becomes its allowed characters plus a digest of the whole
/// original, so that two different old keys never share a new one and the same old key always gets the same new one
/// (a re-run of an import finds what the first run stored).
package enum ImportedFileKey {
    package static func make(from original: String) -> String {
        if FileKey.isValid(original) { return original }
        let digest = SHA256.hash(data: Array(original.utf8)).prefix(8).map { byte in
            let text = String(byte, radix: 16)
            return text.count == 1 ? "0" + text : text
        }.joined()
        var kept = ""
        for scalar in original.unicodeScalars.suffix(120) {
            let c = Character(scalar)
            if c.isASCII, c.isLetter || c.isNumber || c == "." || c == "_" || c == "-" { kept.append(c) } else { kept.append("_") }
        }
        return (kept.isEmpty ? "" : kept + "-") + digest
    }
}
