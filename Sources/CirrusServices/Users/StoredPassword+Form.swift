extension StoredPassword {
    /// Reads the text kept in the store: Cirrus's `$scrypt$…`, or `$leancloud$<salt>$<hash>` for an imported
    /// LeanCloud hash. `nil` for anything else (such a password never matches).
    public init?(storedForm text: String) {
        if text.hasPrefix("$scrypt$") {
            self = .scrypt(text)
            return
        }
        let parts = text.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].isEmpty, parts[1] == "leancloud" else { return nil }
        self = .leanCloud(hash: String(parts[3]), salt: String(parts[2]))
    }

    /// The text kept in the store.
    public var storedForm: String {
        switch self {
        case .scrypt(let text): text
        case .leanCloud(let hash, let salt): "$leancloud$\(salt)$\(hash)"
        }
    }
}
