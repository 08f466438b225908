@testable import Cirrus
import CirrusModel
import CirrusTesting
import Foundation
import Testing

/// `LCSearchQuery` against an in-process server over HTTP (docs/SEARCH.md): Chinese and English words, highlights,
/// `sid` paging to the end, and a query the server refuses.
@Suite("In-app search through the SDK")
struct SearchSDKTests {
    @Test("a search finds Chinese and English words with highlights and pages with sid until hasMore is false")
    func searchAndPage() async throws {
        try await withLiveApp { application, server in
            for index in 0..<5 {
                let post = LCObject(application: application, className: "Post")
                try post.set("title", value: index.isMultiple(of: 2) ? "响应式设计 \(index)" : "LeanCloud guide \(index)")
                try await post.save()
            }
            let (status, body) = try await server.master("PUT", "/1.1/schemas/Post", body: #"{"search":{"fields":["title"]}}"#)
            #expect(status == 200, "\(body)")

            let chinese = LCSearchQuery(application: application, queryString: "设计", className: "Post")
            chinese.highlights = ["title"]
            let found = try await chinese.find()
            #expect(found.count == 3 && chinese.hits == 3 && !chinese.hasMore)
            #expect(found.allSatisfy { $0.className == "Post" })
            #expect(found.compactMap { $0.highlights?["title"]?.first }.allSatisfy { $0.contains("<em>设计</em>") })
            #expect(found.compactMap { $0.highlights }.count == 3)

            let all = LCSearchQuery(application: application, queryString: "*", className: "Post")
            all.limit = 2
            var ids: [String] = []
            for _ in 0..<5 {
                ids += try await all.find().compactMap { $0.objectId?.value }
                if !all.hasMore { break }
            }
            #expect(ids.count == 5 && Set(ids).count == 5, "every object once across the pages: \(ids)")
            #expect(all.hits == 5)

            let bad = LCSearchQuery(application: application, queryString: "\"unbalanced", className: "Post")
            let error = try await #require(throws: LCError.self) { try await bad.find() }
            #expect(error.code == 1)
        }
    }
}
