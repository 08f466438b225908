/// Cutting fragments and writing them.
extension SearchHighlighter {
    /// ``fragmentSize``, or 0 for a negative one.
    var size: Int { max(fragmentSize, 0) }

    /// The fragment around `spans[next]`, not starting before `floor`; `end` becomes the index after the last span it
    /// holds.
    func window(
        in text: String, from spans: [Range<String.Index>], next: Int, end: inout Int, floor: String.Index
    ) -> Range<String.Index> {
        let first = spans[next]
        var lower = text.index(first.lowerBound, offsetBy: -(size / 5), limitedBy: floor) ?? floor
        lower = Self.wordBoundary(in: text, after: lower, limit: first.lowerBound)
        var upper = max(text.index(lower, offsetBy: size, limitedBy: text.endIndex) ?? text.endIndex, first.upperBound)
        end = next + 1
        while end < spans.count, spans[end].lowerBound < upper {
            upper = max(upper, spans[end].upperBound)
            end += 1
        }
        upper = Self.wordBoundary(in: text, before: upper, limit: spans[end - 1].upperBound)
        return lower..<upper
    }

    /// `index`, or where the word it cuts ends, without the spaces after, but not beyond `limit`.
    static func wordBoundary(in text: String, after index: String.Index, limit: String.Index) -> String.Index {
        var index = index
        if index > text.startIndex, isWord(text[text.index(before: index)]) {
            while index < limit, isWord(text[index]) { index = text.index(after: index) }
        }
        while index < limit, text[index].isWhitespace { index = text.index(after: index) }
        return index
    }

    /// `index`, or where the word it cuts starts, without the spaces before, but not before `limit`.
    static func wordBoundary(in text: String, before index: String.Index, limit: String.Index) -> String.Index {
        var end = index
        if end < text.endIndex, end > limit, isWord(text[end]) {
            var start = end
            while start > limit, isWord(text[text.index(before: start)]) { start = text.index(before: start) }
            if start > limit { end = start }
        }
        while end > limit, text[text.index(before: end)].isWhitespace { end = text.index(before: end) }
        return end
    }

    /// Whether `character` belongs to a word of a script written with spaces (CJK text may be cut anywhere).
    private static func isWord(_ character: Character) -> Bool {
        if case .word = SearchCharacter.classify(character) { return true }
        return false
    }

    /// `text[window]` HTML-escaped, with each of `spans` (all within the window) between the tags.
    func render(_ text: String, _ window: Range<String.Index>, _ spans: ArraySlice<Range<String.Index>>) -> String {
        var output = ""
        var cursor = window.lowerBound
        for span in spans {
            output += Self.escaped(text[cursor..<span.lowerBound])
            output += preTag + Self.escaped(text[span]) + postTag
            cursor = span.upperBound
        }
        output += Self.escaped(text[cursor..<window.upperBound])
        return output
    }

    /// `text` with `&`, `<` and `>` as HTML character references.
    static func escaped(_ text: Substring) -> String {
        guard text.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" }) else { return String(text) }
        var output = ""
        for character in text {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            default: output.append(character)
            }
        }
        return output
    }
}
