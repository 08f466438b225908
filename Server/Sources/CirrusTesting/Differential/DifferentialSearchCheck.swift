import CirrusModel
import CirrusStorage

/// Runs generated searches over generated Chinese, Japanese, Korean, English and mixed text through a store's search
/// index and through the model's matcher (``SearchMatcher``, on the same tokens), and describes every search whose
/// objects differ. Objects are indexed by the rebuild (the first ones) and by the write path (the rest, then some
/// updated and deleted), so both ways of keeping the index are compared. The same check runs on every store.
package struct DifferentialSearchCheck: Sendable {
    package static let objectCount = 240
    package static let searchCount = 400
    package static let textSearchCount = 120
    static let className = "Article"
    static let fields = ["title", "body"]

    /// Words the text is made of: two- and three-character Chinese words sharing characters, Japanese, Korean,
    /// English with case and diacritics, and numbers.
    static let words = [
        "设计", "数据", "存储", "数据库", "服务", "天气", "响应式", "重要", "设备", "计算", "东京", "タワー", "とても", "세계", "안녕",
        "Design", "data", "CLOUD", "café", "cafe", "lean", "leancloud", "résumé", "2024",
    ]

    package struct Outcome: Sendable {
        package var mismatches: [String]
        /// How many searches found some but not all objects.
        package var selective: Int
    }

    private let makeSubject: @Sendable () async throws -> StorageConformance.Subject

    package init(makeSubject: @escaping @Sendable () async throws -> StorageConformance.Subject) {
        self.makeSubject = makeSubject
    }

    package func run(seed: UInt64) async throws -> Outcome {
        try await StorageConformance.Subject.using(makeSubject) { try await compare(seed: seed, store: $0) }
    }

    private func compare(seed: UInt64, store: any StorageAdapter) async throws -> Outcome {
        var random = SplitMix64(seed: seed)
        var documents = try await write(&random, into: store)
        // Some objects change their text and some go, through the write path.
        let schema = try await store.loadSchema(of: Self.className)
        for index in stride(from: 0, to: documents.count, by: 7) {
            var changes = ObjectUpdate()
            let title = Self.text(&random)
            changes.set("title", .set(.string(title)))
            var update = WriteCommand.Update(
                className: Self.className, objectId: documents[index].id, updatedAt: .now(), changes: changes, condition: nil, schema: schema,
                newFields: [:], maximumSize: 131_072
            )
            update.readers = nil
            _ = try await store.perform([.update(update)], atomically: true)
            documents[index].fields["title"] = .string(title)
        }
        let removed = stride(from: 3, to: documents.count, by: 11).map { documents[$0].id }
        _ = try await store.perform([.delete(WriteCommand.Delete(className: Self.className, objectIds: removed, condition: nil, schema: schema))], atomically: true)
        documents.removeAll { removed.contains($0.id) }

        var outcome = Outcome(mismatches: [], selective: 0)
        for number in 0..<Self.searchCount {
            let q = Self.query(&random)
            guard let query = try? SearchQueryParser.parse(q) else { continue }
            let expected = Set(documents.filter { Self.matches(query, $0) }.map(\.id))
            if !expected.isEmpty, expected.count < documents.count { outcome.selective += 1 }
            let found = try await store.search(StorageSearch(
                className: Self.className, schema: schema, fields: Self.fields, visibleFields: Self.fields, otherFields: ["score"], query: query,
                limit: 1000
            ))
            let ids = Set(found.objects.map(\.objectId))
            guard ids != expected || found.hits != expected.count, outcome.mismatches.count < 20 else { continue }
            outcome.mismatches.append("""
                seed \(seed), search #\(number): q=\(q) (\(query)); hits \(found.hits), expected \(expected.count)
                only in the store: \(ids.subtracting(expected).sorted().prefix(5).map { id in documents.first { $0.id == id }.map { "\($0.fields)" } ?? id })
                only in the matcher: \(expected.subtracting(ids).sorted().prefix(5).map { id in documents.first { $0.id == id }.map { "\($0.fields)" } ?? id })
                """)
        }
        try await compareTextConditions(&random, documents: documents, schema: schema, store: store, seed: seed, into: &outcome)
        return outcome
    }

    /// Parse's `$text` conditions (``TextSearch``) found by the store's `find` (and ranked by `$score`) against the
    /// model's evaluation of the same condition, which LiveQuery uses.
    private func compareTextConditions(
        _ random: inout SplitMix64, documents: [Document], schema: ClassSchema?, store: any StorageAdapter, seed: UInt64,
        into outcome: inout Outcome
    ) async throws {
        let stamp = Timestamp(millisecondsSince1970: 0)
        for number in 0..<Self.textSearchCount {
            let term = Self.textTerm(&random)
            let field = FieldPath(field: Self.fields[Int(random.next() % 2)])
            guard let search = try? TextSearch(field: field, term: term) else { continue }
            let condition = Condition.text(field, search)
            let expected = Set(documents.filter { document in
                condition.matches(ConditionSubject(className: Self.className, objectId: document.id, createdAt: stamp, updatedAt: stamp, fields: document.fields))
            }.map(\.id))
            var query = StorageQuery(className: Self.className, schema: schema, condition: condition, limit: 1000, textScoreField: "score")
            if number % 2 == 0 { query.order = [SortKey(path: .textScore)] }
            let found = try await store.find(query)
            let ids = Set(found.map(\.objectId))
            let scores = found.compactMap { $0.fields["score"]?.doubleValue }
            let ranked = query.order.isEmpty || zip(scores, scores.dropFirst()).allSatisfy { $0 >= $1 }
            guard ids != expected || scores.count != found.count || !ranked, outcome.mismatches.count < 20 else { continue }
            outcome.mismatches.append(
                "seed \(seed), $text #\(number) on \(field): \(term); found \(ids.count), expected \(expected.count); scores \(scores.prefix(8)) (best first: \(ranked))")
        }
    }

    struct Document {
        var id: String
        var fields: [String: JSON]
    }

    /// The objects: the first ten stored before search is on (the rebuild indexes them), the rest after.
    private func write(_ random: inout SplitMix64, into store: any StorageAdapter) async throws -> [Document] {
        var documents: [Document] = []
        for index in 0..<Self.objectCount {
            var fields: [String: JSON] = ["title": .string(Self.text(&random)), "score": .int(Int64(random.next() % 10))]
            if random.next() % 4 != 0 { fields["body"] = .string(Self.text(&random)) }
            if random.next() % 9 == 0 { fields["body"] = .array([.string(Self.text(&random)), .string(Self.text(&random))]) }
            let id = "a" + String(repeating: "0", count: 5 - String(index).count) + String(index)
            let stamp = Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(index) * 1000)
            var insert = WriteCommand.Insert(
                object: StoredObject(className: Self.className, objectId: id, createdAt: stamp, updatedAt: stamp, acl: nil, fields: fields),
                relations: [], newFields: index == 0 ? ["title": .string, "body": .string, "score": .number] : [:], maximumSize: 131_072
            )
            if index >= 10 { insert.searchFields = Self.fields }
            let results = try await store.perform([.insert(insert)], atomically: true)
            if case .failure(let error) = results[0] { throw error }
            if index == 9 {
                _ = try await store.defineClass(Self.className, newFields: [:], options: ClassOptions(searchFields: Self.fields))
                _ = try await store.rebuildSearchIndex(className: Self.className, fields: Self.fields)
            }
            documents.append(Document(id: id, fields: fields))
        }
        return documents
    }

    /// One to four words, joined directly (a CJK run across words) or by a space or punctuation.
    static func text(_ random: inout SplitMix64) -> String {
        let count = 1 + Int(random.next() % 4)
        var text = ""
        for index in 0..<count {
            if index > 0 { text += ["", " ", "，", "-", "。"][Int(random.next() % 5)] }
            text += words[Int(random.next() % UInt64(words.count))]
        }
        return text
    }

    /// A `q`: terms (whole words, a word's first or last characters, a prefix), phrases, fields, ranges, and their
    /// combinations.
    static func query(_ random: inout SplitMix64) -> String {
        func term() -> String {
            let word = words[Int(random.next() % UInt64(words.count))]
            let characters = Array(word)
            var text: String
            switch random.next() % 6 {
            case 0: text = String(characters.prefix(1))
            case 1: text = String(characters.suffix(min(2, characters.count)))
            case 2: text = String(characters.prefix(max(1, characters.count - 1))) + "*"
            case 3: text = "\"" + word + " " + words[Int(random.next() % UInt64(words.count))] + "\""
            default: text = word
            }
            switch random.next() % 5 {
            case 0: return "title:" + text
            case 1: return "body:" + text
            default: return text
            }
        }
        func clause(_ depth: Int) -> String {
            switch depth > 1 ? 0 : random.next() % 7 {
            case 0, 1, 2: return term()
            case 3: return "score:[\(random.next() % 5) TO \(5 + random.next() % 5)]"
            case 4: return "(" + clause(depth + 1) + " AND " + clause(depth + 1) + ")"
            case 5: return "(" + clause(depth + 1) + " OR " + clause(depth + 1) + ")"
            default: return "(" + clause(depth + 1) + " AND NOT " + clause(depth + 1) + ")"
            }
        }
        return clause(0)
    }

    /// A `$term`: one to three words or parts of words, some quoted as a phrase with another word, some excluded.
    static func textTerm(_ random: inout SplitMix64) -> String {
        (0..<(1 + Int(random.next() % 3))).map { _ in
            let word = words[Int(random.next() % UInt64(words.count))]
            let part = random.next() % 3 == 0 ? String(Array(word).prefix(max(1, word.count - 1))) : word
            switch random.next() % 6 {
            case 0: return "\"" + part + " " + words[Int(random.next() % UInt64(words.count))] + "\""
            case 1: return "-" + part
            default: return part
            }
        }.joined(separator: " ")
    }

    /// The model's answer: tokens of each field, the matcher for terms, numbers for ranges.
    static func matches(_ query: SearchQuery, _ document: Document) -> Bool {
        var fields: [FieldPath: [SearchToken]] = [:]
        for field in Self.fields { fields[FieldPath(field: field)] = SearchTokenizer.tokens(of: document.fields[field]) }
        return SearchMatcher.matches(query, fields: fields) { leaf in
            guard case .range(let range) = leaf, case .int(let score)? = document.fields[range.field.root] else { return false }
            return range.contains(.number(Double(score)))
        }
    }
}
