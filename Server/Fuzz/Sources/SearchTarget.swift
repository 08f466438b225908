import CirrusModel
import CirrusSQL

/// In-app search's `q` parser, tokenizer and highlighter: any text parses to a query or to an error a client caused
/// (never an internal one), the same every time, and its SQL on both stores keeps its shape; the text's tokens hold
/// only characters the FTS5 and `tsvector` forms carry unquoted, with offsets inside the text; highlighting the text
/// with the query's terms gives back the text once the tags are taken out and the escapes undone.
enum SearchTarget {
    static let fields = ["title", "body"]

    static func run(_ input: [UInt8]) {
        let text = String(decoding: input, as: UTF8.self)
        checkTokens(text)
        let query: SearchQuery
        do {
            query = try SearchQueryParser.parse(text)
        } catch {
            FuzzCheck.that(error.reason != .internalError, "an internal error from a client's q: \(error)")
            return
        }
        FuzzCheck.that((try? SearchQueryParser.parse(text)) == query, "parsing the same q twice differs")
        for dialect in SQLShape.dialects {
            let compiler = ConditionCompiler(dialect: dialect, schema: nil, className: "Fuzz", readers: ["*"])
            let statements = SearchStatements(dialect: dialect, table: "objects", fields: fields)
            guard let condition = try? statements.condition(query, visibleFields: fields, otherFields: ["score"], compiler: compiler) else { continue }
            SQLShape.check(dialect, statements.find(
                where: condition, rankedTerms: query.positiveTerms, visibleFields: fields, order: [], limit: 10, skip: 0
            ))
        }
        let bytes = Array(text.utf8)
        for field in fields {
            let fragments = SearchHighlighter().fragments(of: text, terms: query.highlightTerms(for: FieldPath(field: field)))
            for fragment in fragments {
                // On bytes: a combining mark after a tag joins the tag's last character into one Character.
                var plain = Array(fragment.utf8)
                for (tag, original) in [("<em>", ""), ("</em>", ""), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")] {
                    plain = replacing(Array(tag.utf8), with: Array(original.utf8), in: plain)
                }
                FuzzCheck.that(contains(bytes, plain), "a highlight fragment that is not in the text: \(fragment)")
            }
        }
    }

    static func replacing(_ pattern: [UInt8], with replacement: [UInt8], in bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if index + pattern.count <= bytes.count, Array(bytes[index..<index + pattern.count]) == pattern {
                result += replacement
                index += pattern.count
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }

    static func contains(_ bytes: [UInt8], _ part: [UInt8]) -> Bool {
        guard part.count <= bytes.count else { return false }
        return part.isEmpty || (0...(bytes.count - part.count)).contains { Array(bytes[$0..<$0 + part.count]) == part }
    }

    static func checkTokens(_ text: String) {
        let tokens = SearchTokenizer.tokens(in: text)
        let length = text.utf16.count
        for (index, token) in tokens.enumerated() {
            FuzzCheck.that(token.position == index + 1, "token positions are not consecutive")
            FuzzCheck.that(0 <= token.startOffset && token.startOffset < token.endOffset && token.endOffset <= length, "a token outside the text")
            FuzzCheck.that(!token.text.isEmpty && token.text.count <= SearchTokenizer.maximumTokenLength, "a token of a bad length")
            FuzzCheck.that(!token.text.contains(where: { " '\"\\:*()".contains($0) }), "a token with a character FTS5 or tsvector reads: \(token.text)")
        }
    }
}
