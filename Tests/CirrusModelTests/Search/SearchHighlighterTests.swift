import Foundation
import CirrusModel
import Testing

@Suite("Search highlighter")
struct SearchHighlighterTests {
    static func highlight(_ text: String, _ q: String, field: String = "body", highlighter: SearchHighlighter = SearchHighlighter()) throws
        -> [String]
    {
        let query = try SearchQueryParser.parse(q)
        return highlighter.fragments(of: text, terms: query.highlightTerms(for: FieldPath(field: field)))
    }

    @Test("matches are wrapped in em tags, CJK ones character by character", arguments: [
        ("响应式设计", "设计", "响应式<em>设计</em>"),
        ("世界和平", "世界", "<em>世界</em>和平"),
        ("世界和平，世界", "界", "世<em>界</em>和平，世<em>界</em>"),
        ("世界和平", "\"界和\"", "世<em>界和</em>平"),
        ("响应式设计", "响应 应式", "<em>响应式</em>设计"),
        ("响应式设计", "响应 设计", "<em>响应</em>式<em>设计</em>"),
        ("LeanCloud数据存储2024年", "数据 2024", "LeanCloud<em>数据</em>存储<em>2024</em>年"),
        ("ｶﾀｶﾅです", "カナ", "ｶﾀ<em>ｶﾅ</em>です"),
        ("Hello, hello world!", "hello", "<em>Hello</em>, <em>hello</em> world!"),
        ("Hello world", "\"hello world\"", "<em>Hello</em> <em>world</em>"),
        ("Helsinki helps", "hel*", "<em>Helsinki</em> <em>helps</em>"),
        ("Café crème", "cafe", "<em>Café</em> crème"),
        ("hello-world", "hello-world", "<em>hello</em>-<em>world</em>"),
        ("a b", "a AND -b", "<em>a</em> b"),
        ("a b", "body:a title:b", "<em>a</em> b"),
    ])
    func marks(_ text: String, _ q: String, _ expected: String) throws {
        #expect(try Self.highlight(text, q) == [expected])
    }

    @Test("text is HTML-escaped around and inside the tags")
    func escaping() throws {
        #expect(try Self.highlight("<b>Tom & Jerry</b>", "tom") == ["&lt;b&gt;<em>Tom</em> &amp; Jerry&lt;/b&gt;"])
        #expect(try Self.highlight("a<b", "a b") == ["<em>a</em>&lt;<em>b</em>"])
    }

    @Test("nothing matched gives no fragment", arguments: [("hello", "world"), ("世界", "和平"), ("a b", "-a"), ("a", "title:a")])
    func noMatch(_ text: String, _ q: String) throws {
        #expect(try Self.highlight(text, q).isEmpty)
    }

    @Test("long text gives fragments of about 100 characters around the matches, at most 5, in order")
    func fragments() throws {
        let filler = String(repeating: "lorem ipsum dolor ", count: 20)
        let text = (1...8).map { "\(filler)target\($0) " }.joined() + filler
        let fragments = try Self.highlight(text, "target*")
        #expect(fragments.count == 5)
        for (index, fragment) in fragments.enumerated() {
            #expect(fragment.contains("<em>target\(index + 1)</em>"))
            let plain = fragment.replacingOccurrences(of: "<em>", with: "").replacingOccurrences(of: "</em>", with: "")
            #expect(plain.count <= 100)
            #expect(plain.count >= 80)
            #expect(!plain.hasPrefix(" ") && !plain.hasSuffix(" ") && !plain.hasPrefix("orem"))
        }
    }

    @Test("matches close together share a fragment, and a fragment never cuts a match")
    func sharedFragment() throws {
        let text = String(repeating: "前", count: 150) + "世界和平世界" + String(repeating: "后", count: 150)
        let fragments = try Self.highlight(text, "世界")
        #expect(fragments.count == 1)
        #expect(fragments[0].contains("<em>世界</em>和平<em>世界</em>"))
        let long = String(repeating: "x ", count: 60) + String(repeating: "长", count: 150)
        let spanning = try Self.highlight(long, "\"" + String(repeating: "长", count: 150) + "\"", highlighter: SearchHighlighter(fragmentSize: 50))
        #expect(spanning.count == 1)
        #expect(spanning[0].hasSuffix(String(repeating: "长", count: 150) + "</em>"))
    }

    @Test("custom tags and sizes are used")
    func options() throws {
        let highlighter = SearchHighlighter(fragmentSize: 10, maximumFragments: 1, preTag: "[", postTag: "]")
        #expect(try Self.highlight("one two three four five six seven", "two six", highlighter: highlighter) == ["[two] three"])
    }
}

extension SearchHighlighterTests {
    @Test("a fragment size of zero or less still gives each match, and no fragments give nothing")
    func degenerateOptions() throws {
        var highlighter = SearchHighlighter()
        for size in [0, -7] {
            highlighter.fragmentSize = size
            #expect(try Self.highlight("hello world", "world", highlighter: highlighter) == ["<em>world</em>"])
        }
        #expect(try Self.highlight("hello world", "world", highlighter: SearchHighlighter(maximumFragments: 0)).isEmpty)
    }
}
