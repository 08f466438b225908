/// Marks what a search matched in a field's text, for the `highlights` of a search reply, as Elasticsearch's
/// highlighter does: matched spans wrapped in ``preTag`` and ``postTag`` (`<em>`, `</em>`), spans that overlap or
/// touch merged into one, in fragments of about ``fragmentSize`` characters (at most ``maximumFragments``, in the
/// order of the text), or the whole value when it is no longer than one fragment.
///
/// Matching is ``SearchMatcher``'s, on tokens, and spans map back to the original characters: a CJK bigram covers its
/// two characters, a prefix that matched only a bigram's first character covers that character, a word (even one a
/// prefix matched) the whole word. A phrase marks each of its tokens.
///
/// Unlike Elasticsearch (whose default encoder leaves text as it is), the text around and inside the tags is
/// HTML-escaped (`&`, `<`, `>`), so a client may insert a fragment as HTML without letting the stored text inject
/// markup.
///
/// A fragment starts up to a fifth of its size before its first match (not inside a word, nor before the previous
/// fragment's end) and ends about ``fragmentSize`` characters later (not inside a word, and never inside a match).
public struct SearchHighlighter: Sendable, Hashable {
    /// Characters of a fragment (Elasticsearch's `fragment_size`).
    public var fragmentSize: Int
    /// Fragments of one field at most (Elasticsearch's `number_of_fragments`).
    public var maximumFragments: Int
    public var preTag: String
    public var postTag: String

    public init(fragmentSize: Int = 100, maximumFragments: Int = 5, preTag: String = "<em>", postTag: String = "</em>") {
        self.fragmentSize = fragmentSize
        self.maximumFragments = maximumFragments
        self.preTag = preTag
        self.postTag = postTag
    }

    /// The highlighted fragments of `text` for `terms` (the query's positive terms that apply to the field:
    /// ``SearchQuery/highlightTerms(for:)``); empty when none matches.
    public func fragments(of text: String, terms: [SearchTerm]) -> [String] {
        fragments(of: text, tokens: SearchTokenizer.tokens(in: text), terms: terms)
    }

    /// As ``fragments(of:terms:)``, with the tokens of `text` already at hand.
    public func fragments(of text: String, tokens: [SearchToken], terms: [SearchTerm]) -> [String] {
        let spans = Self.spans(in: tokens, terms: terms)
        guard !spans.isEmpty, maximumFragments > 0 else { return [] }
        if text.index(text.startIndex, offsetBy: size, limitedBy: text.endIndex).map({ $0 == text.endIndex }) ?? true {
            return [render(text, text.startIndex..<text.endIndex, spans[...])]
        }
        var fragments: [String] = []
        var next = 0
        var floor = text.startIndex
        while next < spans.count, fragments.count < maximumFragments {
            var end = next
            let window = self.window(in: text, from: spans, next: next, end: &end, floor: floor)
            fragments.append(render(text, window, spans[next..<end]))
            floor = window.upperBound
            next = end
        }
        return fragments
    }

    /// The spans `terms` match in `tokens`, merged where they overlap or touch, in order.
    public static func spans(in tokens: [SearchToken], terms: [SearchTerm]) -> [Range<String.Index>] {
        var spans: [Range<String.Index>] = []
        for term in terms {
            for start in SearchMatcher.occurrences(of: term.tokens, in: tokens) {
                for (offset, token) in term.tokens.enumerated() {
                    spans.append(covered(by: token, in: tokens[start + offset]))
                }
            }
        }
        return merged(spans)
    }

    /// The characters of `document` that `token` matched: the first character of a CJK bigram for a prefix no longer
    /// than it, else the whole token.
    static func covered(by token: SearchQueryToken, in document: SearchToken) -> Range<String.Index> {
        token.isPrefix && token.text.utf8.count <= document.headLength ? document.range.lowerBound..<document.headEnd : document.range
    }

    /// `spans` sorted, those that overlap or touch merged.
    static func merged(_ spans: [Range<String.Index>]) -> [Range<String.Index>] {
        var result: [Range<String.Index>] = []
        for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, span.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
            } else {
                result.append(span)
            }
        }
        return result
    }
}
