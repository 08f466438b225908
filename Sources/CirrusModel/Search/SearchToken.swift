/// One token of a searchable text, as ``SearchTokenizer`` cuts it: what the stores index and the highlighter maps back.
///
/// Offsets count UTF-16 code units of the original text (`startOffset..<endOffset`), as Elasticsearch's
/// `start_offset` and `end_offset` do (Java and JavaScript string indexes); ``range`` is the same span as indexes of
/// the original `String`.
public struct SearchToken: Sendable, Hashable {
    /// The folded text: lowercase, without diacritics, width-folded; letters, digits and combining marks only.
    public var text: String
    /// 1-based; the tokens of one value have consecutive positions.
    public var position: Int
    /// The characters of the original text the token stands for.
    public var range: Range<String.Index>
    /// Where the token starts in the original text, in UTF-16 code units.
    public var startOffset: Int
    /// Where the token ends in the original text, in UTF-16 code units (exclusive).
    public var endOffset: Int
    /// Where the token's first character ends: a prefix no longer than that character's folded text (``headLength``)
    /// covers only it. For a CJK bigram that is the first of its two characters; for other tokens, the whole token.
    let headEnd: String.Index
    /// UTF-8 bytes of ``text`` that the first character folds to.
    let headLength: Int
    /// Whether the token is the single character that ends a CJK run, which a query marks as a prefix.
    let endsCJKRun: Bool

    init(
        text: String, position: Int, range: Range<String.Index>, offsets: Range<Int>, headEnd: String.Index, headLength: Int,
        endsCJKRun: Bool
    ) {
        self.text = text
        self.position = position
        self.range = range
        startOffset = offsets.lowerBound
        endOffset = offsets.upperBound
        self.headEnd = headEnd
        self.headLength = headLength
        self.endsCJKRun = endsCJKRun
    }
}

/// One token of a search term: the text a document's token must equal, or start with when it is a prefix.
public struct SearchQueryToken: Sendable, Hashable, CustomStringConvertible {
    /// Folded as ``SearchToken/text`` is.
    public var text: String
    /// Whether a document token matches when it starts with ``text`` (a trailing `*`, or the last character of a CJK
    /// run).
    public var isPrefix: Bool

    public init(_ text: String, isPrefix: Bool = false) {
        self.text = text
        self.isPrefix = isPrefix
    }

    /// `text`, or `text*` for a prefix.
    public var description: String { isPrefix ? text + "*" : text }

    /// Whether a document token with text `token` matches this one. Bytes are compared, as the stores do.
    public func matches(_ token: String) -> Bool {
        isPrefix ? token.utf8.starts(with: text.utf8) : token.utf8.elementsEqual(text.utf8)
    }
}
