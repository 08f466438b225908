/// Random session tokens and generated usernames.
enum TokenGenerator {
    static let lowercaseAlphanumerics = Array("abcdefghijklmnopqrstuvwxyz0123456789")
    static let hexDigits = Array("0123456789abcdef")

    /// LeanCloud's shape: 25 lowercase letters and digits (about 129 bits).
    static func stableToken() -> String {
        random(25, from: lowercaseAlphanumerics)
    }

    /// Parse's revocable shape: `r:` and 32 hex digits (128 bits).
    static func revocableToken() -> String {
        "r:" + random(32, from: hexDigits)
    }

    /// The username LeanCloud gives a user created by a third-party or anonymous log-in: 25 lowercase letters and
    /// digits.
    static func username() -> String {
        random(25, from: lowercaseAlphanumerics)
    }

    static func random(_ count: Int, from alphabet: [Character]) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<count).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }
}
