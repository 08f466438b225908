/// Cuts text into the tokens full-text search indexes and queries, the same way for SQLite FTS5, PostgreSQL and the
/// highlighter, with no database extension.
///
/// - Han, kana and Hangul (a *CJK run*: consecutive such characters) are cut into overlapping bigrams: a run
///   `c0 c1 … cn-1` gives `c0c1, c1c2, …, cn-2cn-1` and then the single `cn-1`, at consecutive positions. Every
///   character of a run begins exactly one token, so a one-character query, read as a prefix, finds every occurrence
///   (`世界` → `世界`, `界`; `响应式` → `响应`, `应式`, `式`). Characters are width- and compatibility-folded (NFKC):
///   halfwidth katakana match katakana.
/// - Other scripts are cut into words: maximal runs of letters, digits and combining marks, folded to lowercase,
///   without diacritics and width-folded (`Élan` → `elan`, `ｈｅｌｌｏ` → `hello`).
/// - Everything else (spaces, punctuation, symbols, emoji, `_`) separates tokens and is never part of one: `don't`
///   gives `don`, `t`; `3.14` gives `3`, `14`; `hello_world` gives `hello`, `world`. Thai, Lao, Khmer and Burmese,
///   written without spaces, are not segmented (a run is one word).
///
/// A token therefore holds only letters, digits and marks (its ASCII characters are `a`–`z` and `0`–`9`): never a
/// space, quote, backslash or query operator, so it can be quoted as is in an FTS5 or tsquery expression.
///
/// A token longer than ``maximumTokenLength`` characters is cut to that length (the same cut applies to queries, so
/// a long word is still found). Only the first ``maximumTokens`` tokens of a value are kept (PostgreSQL's largest
/// position is 16 383, and both stores must index the same tokens); the rest of a longer value is not searchable.
public enum SearchTokenizer {
    /// Characters a token keeps; the rest of a longer word is cut off.
    public static let maximumTokenLength = 64
    /// Tokens kept from one value, PostgreSQL's largest position.
    public static let maximumTokens = 16_383

    /// The tokens of `text`, at positions 1, 2, 3, ….
    public static func tokens(in text: String) -> [SearchToken] {
        var segmenter = SearchSegmenter(text: text)
        segmenter.run()
        return segmenter.tokens
    }

    /// The tokens of a search term, as a query matches them: the tokens of ``tokens(in:)``, the character that ends
    /// each CJK run marked as a prefix (so `世界` is `世界`, `界*` and finds `世界和平`), and the last token marked as a
    /// prefix when `prefix` (a term written with a trailing `*`).
    public static func queryTokens(in text: String, prefix: Bool = false) -> [SearchQueryToken] {
        var tokens = tokens(in: text).map { SearchQueryToken($0.text, isPrefix: $0.endsCJKRun) }
        if prefix, !tokens.isEmpty { tokens[tokens.count - 1].isPrefix = true }
        return tokens
    }
}

/// The state of one pass over a text: the word or CJK run being read, and the tokens so far.
struct SearchSegmenter {
    /// One character of a CJK run.
    private struct RunCharacter {
        var folded: String
        var range: Range<String.Index>
        var offsets: Range<Int>
    }

    let text: String
    private(set) var tokens: [SearchToken] = []
    /// Where the word being read starts, in indexes and UTF-16 offset.
    private var wordStart: (index: String.Index, offset: Int)?
    private var cjkRun: [RunCharacter] = []

    init(text: String) {
        self.text = text
    }

    private var isFull: Bool { tokens.count >= SearchTokenizer.maximumTokens }

    mutating func run() {
        var index = text.startIndex
        var offset = 0
        while index < text.endIndex, !isFull {
            let character = text[index]
            let next = text.index(after: index)
            let nextOffset = offset + character.utf16.count
            switch SearchCharacter.classify(character) {
            case .word:
                endRun()
                if wordStart == nil { wordStart = (index, offset) }
            case .cjk(let folded):
                endWord(at: index, offset: offset)
                cjkRun.append(RunCharacter(folded: folded, range: index..<next, offsets: offset..<nextOffset))
            case .separator:
                endWord(at: index, offset: offset)
                endRun()
            }
            index = next
            offset = nextOffset
        }
        endWord(at: index, offset: offset)
        endRun()
    }

    /// Emits the word being read, which ends at `end`.
    private mutating func endWord(at end: String.Index, offset: Int) {
        guard let start = wordStart else { return }
        wordStart = nil
        let folded = SearchCharacter.foldWord(text[start.index..<end])
        guard !folded.isEmpty else { return }
        append(folded, range: start.index..<end, offsets: start.offset..<offset, headEnd: end, headLength: .max, endsRun: false)
    }

    /// Emits the bigrams of the CJK run being read, and its last character alone.
    private mutating func endRun() {
        for (index, character) in cjkRun.enumerated() {
            if index + 1 < cjkRun.count {
                let next = cjkRun[index + 1]
                append(
                    character.folded + next.folded, range: character.range.lowerBound..<next.range.upperBound,
                    offsets: character.offsets.lowerBound..<next.offsets.upperBound, headEnd: character.range.upperBound,
                    headLength: character.folded.utf8.count, endsRun: false)
            } else {
                append(
                    character.folded, range: character.range, offsets: character.offsets, headEnd: character.range.upperBound,
                    headLength: .max, endsRun: true)
            }
        }
        cjkRun.removeAll(keepingCapacity: true)
    }

    private mutating func append(
        _ folded: String, range: Range<String.Index>, offsets: Range<Int>, headEnd: String.Index, headLength: Int, endsRun: Bool
    ) {
        guard !isFull else { return }
        let limit = SearchTokenizer.maximumTokenLength
        let text = folded.utf8.count > limit && folded.count > limit ? String(folded.prefix(limit)) : folded
        tokens.append(
            SearchToken(
                text: text, position: tokens.count + 1, range: range, offsets: offsets, headEnd: headEnd,
                headLength: min(headLength, text.utf8.count), endsCJKRun: endsRun))
    }
}
