/// SQL `LIKE` patterns as anchored regular expressions: `%` is any run of characters, `_` one character, a
/// backslash makes the next character literal, and every other character matches itself (regular-expression
/// metacharacters are escaped).
enum LikePattern {
    private static let metacharacters: Set<Character> = ["\\", ".", "^", "$", "|", "?", "*", "+", "(", ")", "[", "]", "{", "}", "/", "#", "-", " "]

    /// `'a%b_'` → `^a.*b.$`.
    static func regex(_ pattern: String) -> String {
        var regex = "^"
        var escaping = false
        for character in pattern {
            if escaping {
                regex += literal(character)
                escaping = false
                continue
            }
            switch character {
            case "\\": escaping = true
            case "%": regex += ".*"
            case "_": regex += "."
            default: regex += literal(character)
            }
        }
        if escaping { regex += literal("\\") }
        return regex + "$"
    }

    private static func literal(_ character: Character) -> String {
        metacharacters.contains(character) ? "\\" + String(character) : String(character)
    }
}
