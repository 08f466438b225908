import CirrusModel
import CirrusTesting
import Foundation
import HTTPTypes
import Testing

/// In-app search over HTTP (docs/SEARCH.md), on the test store: Chinese, Japanese, Korean and English text,
/// the `q` syntax, highlights, `sid` paging, read rights, index upkeep by writes, and bad input.
@Suite("In-app search")
struct SearchTests {
    static let posts: [JSON] = [
        ["title": "响应式设计很重要", "body": "移动端的页面设计", "score": 3],
        ["title": "数据存储与设计", "body": "LeanCloud 数据存储服务停止服务", "score": 5],
        ["title": "今天天气很好", "body": "适合出门", "score": 1],
        ["title": "LeanCloud migration guide", "body": "Moving apps off LeanCloud before it shuts down", "score": 8],
        ["title": "東京タワーに行きました", "body": "とても高い", "score": 2],
        ["title": "안녕하세요 세계", "body": "한국어 문서", "score": 4],
        ["title": "Café résumé", "body": "Diacritics fold: CAFE and resume match", "score": 6],
    ]

    static func q(_ text: String, _ extra: String = "") -> String {
        "/1.1/search/select?clazz=Post&q=" + (text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") + extra
    }

    /// A server with the posts, search on for `title` and `body` (half the posts before, half after: the rebuild and
    /// the write path both index).
    static func withPosts(_ body: @Sendable (TestClient) async throws -> Void) async throws {
        try await TestServer.with { client in
            for post in posts.prefix(3) { _ = try await client.create(.leancloud, "Post", post) }
            let enabled = try await client.send(.leancloud, .put, "/1.1/schemas/Post", json: ["search": ["fields": ["title", "body"]]], auth: .master)
            #expect(enabled.status == 200 && enabled.json["search"]?["fields"] == ["title", "body"], "\(enabled.bodyText)")
            for post in posts.dropFirst(3) { _ = try await client.create(.leancloud, "Post", post) }
            try await body(client)
        }
    }

    static func titles(_ reply: TestReply) -> Set<String> {
        Set(reply.json["results"]?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? [])
    }

    @Test("one- and two-character Chinese words, phrases, Japanese, Korean, folded English and prefixes are found", arguments: [
        ("设计", ["响应式设计很重要", "数据存储与设计"]),
        ("设", ["响应式设计很重要", "数据存储与设计"]),
        ("计", ["响应式设计很重要", "数据存储与设计"]),
        ("响应式", ["响应式设计很重要"]),
        ("数据存储", ["数据存储与设计"]),
        ("\"存储服务\"", ["数据存储与设计"]),
        ("天气", ["今天天气很好"]),
        ("タワー", ["東京タワーに行きました"]),
        ("세계", ["안녕하세요 세계"]),
        ("leancloud", ["数据存储与设计", "LeanCloud migration guide"]),
        ("LEANCLOUD AND guide", ["LeanCloud migration guide"]),
        ("migr*", ["LeanCloud migration guide"]),
        ("cafe", ["Café résumé"]),
        ("title:设计", ["响应式设计很重要", "数据存储与设计"]),
        ("body:设计", ["响应式设计很重要"]),
        ("设计 AND NOT 重要", ["数据存储与设计"]),
        ("(天气 OR 세계) AND -好", ["안녕하세요 세계"]),
        ("score:[5 TO 8]", ["数据存储与设计", "LeanCloud migration guide", "Café résumé"]),
        ("设计 AND score:>4", ["数据存储与设计"]),
        ("_exists_:score AND 한국어", ["안녕하세요 세계"]),
        ("不存在的词", []),
    ])
    func finds(_ query: String, _ expected: [String]) async throws {
        try await Self.withPosts { client in
            let reply = try await client.send(.leancloud, .get, Self.q(query))
            #expect(reply.status == 200, "\(reply.bodyText)")
            #expect(Self.titles(reply) == Set(expected), "\(query): \(reply.bodyText)")
            #expect(reply.json["hits"]?.intValue == Int64(expected.count))
            #expect(reply.json["results"]?.arrayValue?.allSatisfy { $0["className"] == "Post" } == true)
        }
    }

    @Test("`*` finds every object, highlights mark the matched words on the original text, and className is given")
    func highlightsAndAll() async throws {
        try await Self.withPosts { client in
            #expect(try await client.send(.leancloud, .get, Self.q("*")).json["hits"]?.intValue == Int64(Self.posts.count))
            let reply = try await client.send(.leancloud, .get, Self.q("设计", "&highlights=title,body"))
            let byTitle = Dictionary(uniqueKeysWithValues: (reply.json["results"]?.arrayValue ?? []).map { ($0["title"]?.stringValue ?? "", $0) })
            #expect(byTitle["响应式设计很重要"]?["_highlight"]?["title"] == ["响应式<em>设计</em>很重要"], "\(reply.bodyText)")
            #expect(byTitle["响应式设计很重要"]?["_highlight"]?["body"] == ["移动端的页面<em>设计</em>"])
            #expect(byTitle["数据存储与设计"]?["_highlight"]?["body"] == nil)
            let english = try await client.send(.leancloud, .get, Self.q("leancloud", "&highlights=*"))
            let guide = english.json["results"]?.arrayValue?.first { $0["title"] == "LeanCloud migration guide" }
            #expect(guide?["_highlight"]?["title"] == ["<em>LeanCloud</em> migration guide"], "\(english.bodyText)")
            let plain = try await client.send(.leancloud, .get, Self.q("天气"))
            #expect(plain.json["results"]?.arrayValue?.first?["_highlight"] == .null, "no highlights unless asked")
        }
    }

    @Test("sid pages to the end: every hit once, then sid null; a forged or another search's sid is refused")
    func paging() async throws {
        try await Self.withPosts { client in
            var seen: [String] = []
            var reply = try await client.send(.leancloud, .get, Self.q("*", "&limit=3"))
            let hits = reply.json["hits"]?.intValue ?? 0
            for _ in 0..<10 {
                seen += reply.json["results"]?.arrayValue?.compactMap { $0["objectId"]?.stringValue } ?? []
                guard let sid = reply.json["sid"]?.stringValue else { break }
                reply = try await client.send(.leancloud, .get, Self.q("*", "&limit=3&sid=" + sid))
                #expect(reply.status == 200, "\(reply.bodyText)")
            }
            #expect(reply.json["sid"] == .null)
            #expect(seen.count == Int(hits) && Set(seen).count == seen.count, "every hit once: \(seen)")
            let first = try await client.send(.leancloud, .get, Self.q("*", "&limit=3"))
            let sid = try #require(first.json["sid"]?.stringValue)
            let forged = sid.dropLast(2) + (sid.hasSuffix("AA") ? "BB" : "AA")
            #expect(try await client.send(.leancloud, .get, Self.q("*", "&sid=" + forged)).status == 400)
            #expect(try await client.send(.leancloud, .get, Self.q("设计", "&sid=" + sid)).status == 400, "another query's sid")
        }
    }

    @Test("sid pages through objects tied on the sort, or at one distance, each exactly once", arguments: [
        ("order", "group"), ("order", "-group"), ("sort", #"[{"group":{"order":"asc"}}]"#),
        ("sort", #"[{"_geo_distance":{"order":"asc","unit":"km","location":{"lat":39.9,"lon":116.4}}}]"#),
    ])
    func pagingThroughTies(parameter: String, value: String) async throws {
        try await TestServer.with { client in
            let objects: [JSON] = (0..<24).map { n in
                let place: JSON = n % 2 == 0 ? ["__type": "GeoPoint", "latitude": 39.9, "longitude": 116.4] : ["__type": "GeoPoint", "latitude": 31.2, "longitude": 121.5]
                return ["title": .string("橙子\(n)"), "group": n % 2 == 0 ? "a" : "b", "location": place]
            }
            for object in objects { _ = try await client.create(.leancloud, "Orange", object) }
            let enabled = try await client.send(.leancloud, .put, "/1.1/schemas/Orange", json: ["search": ["fields": ["title"]]], auth: .master)
            #expect(enabled.status == 200, "\(enabled.bodyText)")
            let path = "/1.1/search/select?clazz=Orange&limit=5&q=" + URLQuery.encode("橙子") + "&\(parameter)=" + URLQuery.encode(value)
            var seen: [String] = []
            var reply = try await client.send(.leancloud, .get, path)
            for _ in 0..<10 {
                #expect(reply.status == 200, "\(reply.bodyText)")
                seen += reply.json["results"]?.arrayValue?.compactMap { $0["objectId"]?.stringValue } ?? []
                guard let sid = reply.json["sid"]?.stringValue else { break }
                reply = try await client.send(.leancloud, .get, path + "&sid=" + sid)
            }
            #expect(seen.count == 24 && Set(seen).count == 24, "every object once: \(seen.count) shown, \(Set(seen).count) distinct")
        }
    }

    @Test("hits count only what the caller may read, hidden fields are neither searched nor highlighted, and find permission applies")
    func readRights() async throws {
        try await Self.withPosts { client in
            let owner = try await client.signUp(.leancloud, "owner-\(UUID().uuidString.prefix(6))")
            let secret: JSON = ["title": "秘密设计文档", "body": "内部", "ACL": [owner.id: ["read": true, "write": true]]]
            _ = try await client.send(.leancloud, .post, "/1.1/classes/Post", json: secret, auth: .session(owner.token))
            let anonymous = try await client.send(.leancloud, .get, Self.q("秘密"))
            #expect(anonymous.json["hits"] == 0 && anonymous.json["results"] == [], "\(anonymous.bodyText)")
            #expect(try await client.send(.leancloud, .get, Self.q("设计")).json["hits"] == 2)
            let mine = try await client.send(.leancloud, .get, Self.q("秘密"), auth: .session(owner.token))
            #expect(mine.json["hits"] == 1)
            #expect(try await client.send(.leancloud, .get, Self.q("设计"), auth: .master).json["hits"] == 3)

            _ = try await client.send(.leancloud, .put, "/1.1/schemas/Post", json: ["fields": ["body": ["type": "String", "hidden": true]]], auth: .master)
            #expect(try await client.send(.leancloud, .get, Self.q("body:设计")).status == 400, "a hidden field is not searchable")
            let unqualified = try await client.send(.leancloud, .get, Self.q("页面", "&highlights=*"))
            #expect(unqualified.json["hits"] == 0, "words only in a hidden field find nothing: \(unqualified.bodyText)")
            #expect(try await client.send(.leancloud, .get, Self.q("页面"), auth: .master).json["hits"] == 1)

            _ = try await client.send(.leancloud, .put, "/1.1/schemas/Post", json: ["classLevelPermissions": ["find": [:]]], auth: .master)
            #expect(try await client.send(.leancloud, .get, Self.q("设计")).status == 403)
        }
    }

    @Test("every write keeps the index: an update finds the new words and not the old, a delete leaves it, a batch indexes")
    func upkeep() async throws {
        try await Self.withPosts { client in
            let id = try await client.create(.leancloud, "Post", ["title": "旧标题", "body": "x"])
            #expect(try await client.send(.leancloud, .get, Self.q("旧标题")).json["hits"] == 1)
            _ = try await client.send(.leancloud, .put, "/1.1/classes/Post/\(id)", json: ["title": "新标题"])
            #expect(try await client.send(.leancloud, .get, Self.q("旧标题")).json["hits"] == 0)
            #expect(try await client.send(.leancloud, .get, Self.q("新标题")).json["hits"] == 1)
            _ = try await client.send(.leancloud, .put, "/1.1/classes/Post/\(id)", json: ["score": 9])
            #expect(try await client.send(.leancloud, .get, Self.q("新标题 AND score:9")).json["hits"] == 1, "an update of another field keeps it")
            _ = try await client.send(.leancloud, .delete, "/1.1/classes/Post/\(id)")
            #expect(try await client.send(.leancloud, .get, Self.q("新标题")).json["hits"] == 0)
            let batch: JSON = ["requests": [["method": "POST", "path": "/1.1/classes/Post", "body": ["title": "批量写入"]]]]
            _ = try await client.send(.leancloud, .post, "/1.1/batch", json: batch)
            #expect(try await client.send(.leancloud, .get, Self.q("批量")).json["hits"] == 1)
            let off = try await client.send(.leancloud, .put, "/1.1/schemas/Post", json: ["search": .null], auth: .master)
            #expect(off.status == 200 && off.json["search"] == nil)
            #expect(try await client.send(.leancloud, .get, Self.q("批量")).status == 400, "search is off")
            _ = try await client.create(.leancloud, "Post", ["title": "关闭后写入"])
        }
    }

    @Test("without clazz every class with search on is searched, each result naming its class")
    func everyClass() async throws {
        try await Self.withPosts { client in
            _ = try await client.create(.leancloud, "Note", ["text": "设计笔记"])
            _ = try await client.create(.leancloud, "Hidden", ["text": "设计不搜索"])
            _ = try await client.send(.leancloud, .put, "/1.1/schemas/Note", json: ["search": ["fields": ["text"]]], auth: .master)
            let reply = try await client.send(.leancloud, .get, "/1.1/search/select?q=%E8%AE%BE%E8%AE%A1")
            #expect(reply.json["hits"] == 3, "\(reply.bodyText)")
            #expect(Set(reply.json["results"]?.arrayValue?.compactMap { $0["className"]?.stringValue } ?? []) == ["Note", "Post"])
        }
    }

    @Test("bad input gets a clear error", arguments: [
        "\"unbalanced", "(设计", "设计 AND", "nosuch:设计", "title:/re/", "ti?le", "score:[a TO b]", "fuzzy~", "",
    ])
    func badQueries(_ query: String) async throws {
        try await Self.withPosts { client in
            let reply = try await client.send(.leancloud, .get, Self.q(query))
            #expect(reply.status == 400, "\(query): \(reply.bodyText)")
            #expect(reply.json["error"]?.stringValue?.isEmpty == false)
        }
    }

    @Test("a huge limit, a class without search, sort with order, and analyze without the master key are refused")
    func badParameters() async throws {
        try await Self.withPosts { client in
            #expect(try await client.send(.leancloud, .get, Self.q("设计", "&limit=100000")).status == 400)
            #expect(try await client.send(.leancloud, .get, "/1.1/search/select?clazz=Other&q=x").status == 400)
            let both = Self.q("设计", "&order=score&sort=" + ("[{\"score\":{\"order\":\"desc\"}}]".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
            #expect(try await client.send(.leancloud, .get, both).status == 400)
            #expect(try await client.send(.leancloud, .get, "/1.1/search/analyze?text=abc").status == 400)
            let analyzed = try await client.send(.leancloud, .get, "/1.1/search/analyze?text=%E8%AE%BE%E8%AE%A1ok", auth: .master)
            #expect(analyzed.json["tokens"]?.arrayValue?.map { $0["token"] } == ["设计", "计", "ok"], "\(analyzed.bodyText)")
            let sorted = try await client.send(.leancloud, .get, Self.q("*", "&order=-score&limit=2"))
            #expect(sorted.json["results"]?.arrayValue?.map { $0["score"] } == [8, 6], "\(sorted.bodyText)")
        }
    }

    @Test("a _geo_distance sort puts the nearest first and objects without a point last")
    func distanceSort() async throws {
        try await TestServer.with { client in
            let places: [(String, JSON)] = [
                ("上海咖啡", ["__type": "GeoPoint", "latitude": 31.23, "longitude": 121.47]),
                ("北京咖啡", ["__type": "GeoPoint", "latitude": 39.90, "longitude": 116.40]),
                ("广州咖啡", ["__type": "GeoPoint", "latitude": 23.13, "longitude": 113.26]),
                ("无处咖啡", .null),
            ]
            for (name, location) in places {
                var body: [String: JSON] = ["title": .string(name)]
                if location != .null { body["location"] = location }
                _ = try await client.create(.leancloud, "Shop", .object(body))
            }
            _ = try await client.send(.leancloud, .put, "/1.1/schemas/Shop", json: ["search": ["fields": ["title"]]], auth: .master)
            let sort = #"[{"_geo_distance":{"location":{"lat":39.9,"lon":116.4},"order":"asc","unit":"km","mode":"min"}}]"#
            let path = "/1.1/search/select?clazz=Shop&q=%E5%92%96%E5%95%A1&sort=" + (sort.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            let reply = try await client.send(.leancloud, .get, path)
            #expect(reply.json["results"]?.arrayValue?.map { $0["title"] } == ["北京咖啡", "上海咖啡", "广州咖啡", "无处咖啡"], "\(reply.bodyText)")
            let far = try await client.send(.leancloud, .get, path.replacingOccurrences(of: "asc", with: "desc"))
            #expect(far.json["results"]?.arrayValue?.prefix(3).map { $0["title"] } == ["广州咖啡", "上海咖啡", "北京咖啡"], "\(far.bodyText)")
            let bad = #"[{"_geo_distance":{"location":{"lat":100,"lon":0}}}]"#
            #expect(try await client.send(.leancloud, .get, "/1.1/search/select?clazz=Shop&q=x&sort=" + (bad.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")).status == 400)
        }
    }

    @Test("more like this: objects sharing a text's words, or an object's (itself left out), with the caller's rights")
    func moreLikeThis() async throws {
        try await Self.withPosts { client in
            let like = "/1.1/search/mlt?clazz=Post&like=" + ("数据存储设计".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            let reply = try await client.send(.leancloud, .get, like)
            #expect(reply.status == 200 && reply.json["sid"] == .null, "\(reply.bodyText)")
            let titles = reply.json["results"]?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? []
            #expect(titles.first == "数据存储与设计", "the most alike first: \(titles)")
            #expect(Set(titles).isSuperset(of: ["响应式设计很重要"]) && !titles.contains("今天天气很好"))
            let source = try #require(try await client.send(.leancloud, .get, Self.q("响应式")).json["results"]?.arrayValue?.first?["objectId"]?.stringValue)
            let byObject = try await client.send(.leancloud, .get, "/1.1/search/mlt?clazz=Post&fields=title&likeObjectIds=" + source)
            let similar = byObject.json["results"]?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? []
            #expect(similar == ["数据存储与设计"], "\(byObject.bodyText)")
            #expect(try await client.send(.leancloud, .get, "/1.1/search/mlt?clazz=Post").status == 400)
        }
    }
}
