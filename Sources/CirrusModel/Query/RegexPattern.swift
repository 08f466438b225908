import Dispatch
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

    /// Whether `text` contains a match of `pattern` under `options`, found within `budgetMilliseconds`.
    ///
    /// ICU backtracks, so a pattern such as `(a+)+$` takes exponential time on some texts. The match reports its
    /// progress (every few thousand steps of ICU's engine, and at each start position), and stops once it has run
    /// for longer than the budget.
    /// - Throws: ``APIError`` with reason ``APIError/Reason/invalidQuery`` for a pattern that does not compile,
    ///   ``APIError/Reason/queryTooComplex`` when the budget runs out.
    public static func matches(
        _ text: String, pattern: String, options: String, budgetMilliseconds: Int = QueryLimits().regexBudgetMilliseconds
    ) throws(APIError) -> Bool {
        let expression = try compiled(pattern, options: options)
        let range = NSRange(text.startIndex..<text.endIndex, in: text)
        // Uptime in nanoseconds: monotonic, and available wherever the SDK runs (`ContinuousClock` is not before
        // iOS 16).
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(budgetMilliseconds, 0)) * 1_000_000
        var progress = 0
        var found = false
        var exhausted = false
        expression.enumerateMatches(in: text, options: [.reportProgress], range: range) { match, _, stop in
            if match != nil {
                found = true
                stop.pointee = true
                return
            }
            progress += 1
            // Reading the clock at every report would cost as much as a start position does.
            if progress & 15 == 0, DispatchTime.now().uptimeNanoseconds >= deadline {
                exhausted = true
                stop.pointee = true
            }
        }
        if exhausted { throw budgetExceeded(pattern, budgetMilliseconds) }
        return found
    }

    /// The error of a match that ran out of time; its message starts with ``budgetMarker``.
    static func budgetExceeded(_ pattern: String, _ milliseconds: Int) -> APIError {
        APIError(
            .queryTooComplex, "\(budgetMarker): the regular expression \(pattern.prefix(100)) took longer than \(milliseconds) ms on one value."
        )
    }

    /// How the message of a match that ran out of time starts, so that a store can tell it from other failures of
    /// the SQL function that matched.
    public static let budgetMarker = "Query too complex"

    /// Checks that `pattern` compiles, and that inline options (`(?i)`) appear only at its start: PostgreSQL's
    /// expressions take them nowhere else, and a pattern must mean the same on every store.
    /// - Throws: ``APIError`` with reason ``APIError/Reason/invalidQuery``.
    public static func validate(_ pattern: String, options: String) throws(APIError) {
        _ = try compiled(pattern, options: options)
        if hasInlineOptions(leadingOptions(pattern).rest) {
            throw APIError(
                .invalidQuery, "Invalid regular expression: \(pattern): inline options such as (?i) are supported only at its start; use $options."
            )
        }
    }

    /// The options of the inline groups that open `pattern` (`(?i)`, `(?ms)`, each of `i`, `m`, `s`, `x`), and the
    /// pattern after them.
    public static func leadingOptions(_ pattern: String) -> (options: String, rest: String) {
        var rest = Substring(pattern)
        var options = ""
        while rest.hasPrefix("(?"), let close = rest.firstIndex(of: ")") {
            let letters = rest[rest.index(rest.startIndex, offsetBy: 2)..<close]
            guard !letters.isEmpty, letters.allSatisfy({ "imsx".contains($0) }) else { break }
            options += letters
            rest = rest[rest.index(after: close)...]
        }
        return (options, String(rest))
    }

    /// Whether `pattern` holds an inline option group (`(?i)`, `(?i:…)`, `(?-s)`) outside escapes, `\Q…\E` and
    /// character classes.
    static func hasInlineOptions(_ pattern: String) -> Bool {
        let characters = Array(pattern)
        var index = 0
        var inClass = false
        while index < characters.count {
            let character = characters[index]
            if character == "\\" {
                if index + 1 < characters.count, characters[index + 1] == "Q" {
                    index += 2
                    while index < characters.count, !(characters[index] == "\\" && index + 1 < characters.count && characters[index + 1] == "E") {
                        index += 1
                    }
                }
                index += 2
                continue
            }
            if inClass {
                if character == "]" { inClass = false }
            } else if character == "[" {
                inClass = true
                if index + 1 < characters.count, characters[index + 1] == "^" { index += 1 }
                if index + 1 < characters.count, characters[index + 1] == "]" { index += 1 }
            } else if character == "(", index + 2 < characters.count, characters[index + 1] == "?" {
                var end = index + 2
                while end < characters.count, characters[end].isLetter || characters[end] == "-" { end += 1 }
                if end > index + 2, end < characters.count, characters[end] == ")" || characters[end] == ":" { return true }
            }
            index += 1
        }
        return false
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
