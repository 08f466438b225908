import CirrusModel

/// SQL `LIKE` patterns as anchored regular expressions: `%` is any run of characters, `_` one character, a
/// backslash makes the next character literal, and every other character matches itself (regular-expression
/// metacharacters are escaped).
enum LikePattern {
    /// `'a%b_'` → `^a.*b.$`.
    static func regex(_ pattern: String) -> String {
        var regex = "^"
        var escaping = false
        for character in pattern {
            if escaping {
                regex += RegexPattern.literal(character)
                escaping = false
                continue
            }
            switch character {
            case "\\": escaping = true
            case "%": regex += ".*"
            case "_": regex += "."
            default: regex += RegexPattern.literal(character)
            }
        }
        if escaping { regex += RegexPattern.literal("\\") }
        return regex + "$"
    }
}
