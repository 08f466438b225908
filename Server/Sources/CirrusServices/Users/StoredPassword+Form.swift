extension StoredPassword {
    /// Reads the text kept in the store: Cirrus's `$scrypt$…`, `$leancloud$<salt>$<hash>` for an imported
    /// LeanCloud hash, or a well-formed bcrypt string (`$2a$`, `$2b$`, `$2y$`, cost 4 to 31). `nil` for anything
    /// else (such a password never matches).
    package init?(storedForm text: String) {
        if text.hasPrefix("$scrypt$") {
            self = .scrypt(text)
            return
        }
        if text.hasPrefix("$2") {
            guard BCrypt.Hash(text) != nil else { return nil }
            self = .bcrypt(text)
            return
        }
        let parts = text.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].isEmpty, parts[1] == "leancloud" else { return nil }
        self = .leanCloud(hash: String(parts[3]), salt: String(parts[2]))
    }

    /// The text kept in the store.
    package var storedForm: String {
        switch self {
        case .scrypt(let text): text
        case .leanCloud(let hash, let salt): "$leancloud$\(salt)$\(hash)"
        case .bcrypt(let text): text
        }
    }
}
