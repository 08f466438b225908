import Foundation

/// PCRE-style regular expressions with MongoDB options (`i`, `m`, `s`, `x`), as `$regex` uses them.
///
/// ICU (through `NSRegularExpression`) supports the PCRE features clients send: lookahead and `\Q…\E`
/// quoting, which the SDKs use for `startsWith` and `contains`. Compiled patterns are cached.
public enum RegexPattern {
    private static let cache = RegexCache()

    /// Characters that mean something in a pattern (`#` and space too, which the `x` option reads as comment and
    /// padding), escaped by ``literal(_:)``.
    private static let metacharacters: Set<Character> = ["\\", "^", "$", ".", "|", "?", "*", "+", "(", ")", "[", "]", "{", "}", "#", " ", "-", "/"]

    /// `character` as a pattern that matches it literally, in ICU and in PostgreSQL's regular expressions alike.
    public static func literal(_ character: Character) -> String {
        metacharacters.contains(character) ? "\\" + String(character) : String(character)
    }

    /// Whether `text` contains a match of `pattern` under `options`.
    /// - Throws: ``APIError`` with reason ``APIError/Reason/invalidQuery`` for a pattern that does not compile.
    public static func matches(_ text: String, pattern: String, options: String) throws(APIError) -> Bool {
        let expression = try compiled(pattern, options: options)
        let range = NSRange(text.startIndex..<text.endIndex, in: text)
        return expression.firstMatch(in: text, options: [], range: range) != nil
    }

    /// Checks that `pattern` compiles.
    /// - Throws: ``APIError`` with reason ``APIError/Reason/invalidQuery``.
    public static func validate(_ pattern: String, options: String) throws(APIError) {
        _ = try compiled(pattern, options: options)
    }

    static func compiled(_ pattern: String, options: String) throws(APIError) -> NSRegularExpression {
        let key = options + "/" + pattern
        if let cached = cache.get(key) { return cached }
        var flags: NSRegularExpression.Options = []
        if options.contains("i") { flags.insert(.caseInsensitive) }
        if options.contains("m") { flags.insert(.anchorsMatchLines) }
        if options.contains("s") { flags.insert(.dotMatchesLineSeparators) }
        if options.contains("x") { flags.insert(.allowCommentsAndWhitespace) }
        guard let expression = try? NSRegularExpression(pattern: pattern, options: flags) else {
            throw APIError(.invalidQuery, "Invalid regular expression: \(pattern)")
        }
        cache.set(key, expression)
        return expression
    }
}

/// A bounded cache of compiled expressions.
private final class RegexCache: @unchecked Sendable {
    private var entries: [String: NSRegularExpression] = [:]
    private let lock = Lock()

    func get(_ key: String) -> NSRegularExpression? {
        lock.withLock { entries[key] }
    }

    func set(_ key: String, _ expression: NSRegularExpression) {
        lock.withLock {
            if entries.count >= 512 { entries.removeAll(keepingCapacity: true) }
            entries[key] = expression
        }
    }
}
