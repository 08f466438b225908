import Foundation

/// What one character (a grapheme cluster) of a searchable text is to ``SearchTokenizer``.
enum SearchCharacter {
    /// Part of a word: a letter, digit or combining mark of a script written with spaces.
    case word
    /// A Han, kana or Hangul character, with its folded text (never empty).
    case cjk(String)
    /// Spaces, punctuation, symbols, emoji: between tokens, never in one.
    case separator

    /// Classifies `character` by its first scalar (a grapheme's base).
    static func classify(_ character: Character) -> SearchCharacter {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return .separator }
        if first.isASCII {
            return first.properties.isAlphabetic || ("0"..."9").contains(first) ? .word : .separator
        }
        if isCJK(first) {
            let folded = foldCJK(character, single: scalars.count == 1 ? first : nil)
            return folded.isEmpty ? .separator : .cjk(folded)
        }
        return isTokenScalar(first) ? .word : .separator
    }

    /// Whether `scalar` starts a CJK character: an ideograph (Han in every extension block, compatibility ideographs,
    /// the ideographic numerals), a Han iteration mark, kana (halfwidth too) or Hangul (syllables and jamo, halfwidth
    /// too).
    static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isIdeographic { return true }
        switch scalar.value {
        case 0x3005, 0x303B: return true  // 々 〻
        case 0x3041...0x3096, 0x309D...0x309F: return true  // hiragana
        case 0x30A1...0x30FA, 0x30FC...0x30FF, 0x31F0...0x31FF: return true  // katakana, ー
        case 0xFF66...0xFF9F: return true  // halfwidth katakana and sound marks
        case 0x1AFF0...0x1AFFF, 0x1B000...0x1B16F: return true  // kana supplement and extensions
        case 0xAC00...0xD7A3: return true  // Hangul syllables
        case 0x1100...0x11FF, 0x3131...0x318E, 0xA960...0xA97C, 0xD7B0...0xD7FB: return true  // jamo
        case 0xFFA0...0xFFDC: return true  // halfwidth Hangul
        default: return false
        }
    }

    /// A letter, digit or mark: the scalars a token may hold.
    static func isTokenScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber,
            .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }

    /// A CJK character folded by width and compatibility (NFKC, then recomposed: halfwidth `ｶﾞ` is `ガ`, a
    /// compatibility ideograph its unified one, decomposed Hangul a syllable), keeping letters and digits only (a
    /// variation selector or a lone sound mark goes). Common characters, already in that form, are not converted.
    static func foldCJK(_ character: Character, single: Unicode.Scalar?) -> String {
        if let single, isStable(single) { return String(character) }
        // swift-corelibs-foundation answers NFKD for NFKC; composing afterwards gives NFKC on every platform.
        let folded = String(character).precomposedStringWithCompatibilityMapping.precomposedStringWithCanonicalMapping
        return keeping(folded) { isTokenScalar($0) && !$0.properties.generalCategory.isMark }
    }

    /// Scalars that NFKC leaves as they are and that need no folding: unified ideographs and the common kana and
    /// Hangul syllables.
    private static func isStable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0x20000...0x2A6DF, 0x2A700...0x2EE5F, 0x30000...0x323AF: return true
        case 0x3041...0x3096, 0x30A1...0x30FA, 0x30FC...0x30FE, 0xAC00...0xD7A3: return true
        default: return false
        }
    }

    /// A word folded for search: lowercase, without diacritics, fullwidth letters and digits as ASCII, in NFC, and
    /// holding only letters, digits and marks (anything else the folding produced is dropped).
    static func foldWord(_ word: Substring) -> String {
        if word.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: word.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
        }
        let folded = String(word).folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        return keeping(folded.precomposedStringWithCanonicalMapping, where: isTokenScalar)
    }

    /// `text` with only the scalars `keep` accepts.
    private static func keeping(_ text: String, where keep: (Unicode.Scalar) -> Bool) -> String {
        if text.unicodeScalars.allSatisfy(keep) { return text }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text.unicodeScalars.filter(keep))
        return String(scalars)
    }
}

extension Unicode.GeneralCategory {
    /// Whether the category is one of the three marks.
    fileprivate var isMark: Bool {
        self == .nonspacingMark || self == .spacingMark || self == .enclosingMark
    }
}
