package import CirrusModel
package import CirrusStorage

/// In-app search (LeanCloud's `/1.1/search/select`, docs/SEARCH.md): `q` over the search fields of the classes
/// that have search on, with the caller's read rights as every query (the class's find permission, ACLs in SQL,
/// hidden and personal fields neither searched nor highlighted), ranked by relevance unless ordered, with the
/// matched words of the search fields highlighted on the original text.
package struct SearchService: Sendable {
    let objects: ObjectService

    package init(objects: ObjectService) {
        self.objects = objects
    }

    /// The most results one page returns (LeanCloud's limit).
    package static let maximumLimit = 1000

    package struct Request: Sendable {
        package var q: String
        /// `nil`: every class with search on, one after the other (by name).
        package var className: String?
        package var limit: Int
        package var skip: Int
        /// Empty: by relevance.
        package var order: [SortKey]
        /// The search fields to highlight; `["*"]` for all of them, empty for none.
        package var highlights: [String]
        package var include: [FieldPath]
        /// `_geo_distance`: nearest to a point first (``StorageSearch/near``).
        package var near: (path: FieldPath, point: GeoPoint, descending: Bool)?

        package init(
            q: String, className: String?, limit: Int = 100, skip: Int = 0, order: [SortKey] = [], highlights: [String] = [], include: [FieldPath] = [],
            near: (path: FieldPath, point: GeoPoint, descending: Bool)? = nil
        ) {
            self.q = q
            self.className = className
            self.limit = limit
            self.skip = skip
            self.order = order
            self.highlights = highlights
            self.include = include
            self.near = near
        }
    }

    /// One result: the object (fields the caller may read) and its highlights, by field (`nil`: none asked or none).
    package struct Hit: Sendable {
        package var object: StoredObject
        package var highlight: [String: [String]]?
    }

    /// A page of results and the number of all hits.
    /// - Throws: ``APIError``: `invalidQuery` for a `q` outside the documented syntax or naming a field that is not
    ///   searchable, `invalidParameter` for a class without search or a limit beyond 1000, the class's find permission.
    package func select(_ request: Request, caller: Caller) async throws -> (hits: Int, results: [Hit]) {
        guard (0...Self.maximumLimit).contains(request.limit) else {
            throw APIError(.invalidParameter, "'limit' is 0 to \(Self.maximumLimit), got \(request.limit).")
        }
        return try await run(try SearchQueryParser.parse(request.q), request, caller: caller)
    }

    /// ``select(_:caller:)`` of a parsed query.
    private func run(_ query: SearchQuery, _ request: Request, caller: Caller) async throws -> (hits: Int, results: [Hit]) {
        let classes = try await searchable(request.className)
        var hits = 0
        var results: [Hit] = []
        var skip = request.skip
        for (className, schema) in classes {
            let fields = schema.options.searchFields ?? []
            try objects.policy.check(.find, on: className, schema: schema, caller: caller)
            let protected = caller.isMaster ? [] : ClassSchema.protectedFields(of: className, schema: schema)
            let visible = fields.filter { !protected.contains($0) }
            let others = Set(schema.fields.keys).subtracting(protected).subtracting(fields)
            try await authorizeNaming(query, className: className, schema: schema, searchFields: visible, otherFields: others, caller: caller)
            let sorting = request.order.map(\.path) + (request.near.map { [$0.path] } ?? [])
            if !sorting.isEmpty { try await objects.authorizeNaming(className, schema: schema, condition: .always, sorting: sorting, caller: caller) }
            let wanted = max(request.limit - results.count, 0)
            var search = StorageSearch(
                className: className, schema: schema, fields: fields, visibleFields: visible, otherFields: others, query: query, order: request.order,
                limit: wanted, skip: skip, readers: caller.readers
            )
            search.near = request.near
            let found = try await objects.store.search(search)
            hits += found.hits
            skip = max(skip - found.hits, 0)
            var page = found.objects
            for index in page.indices { objects.visibility.redact(&page[index], schema: schema, for: caller) }
            try await objects.includer(caller).expand(&page, paths: request.include)
            try await FileExpander(store: objects.store, visibility: objects.visibility).expand(&page)
            let highlighted = request.highlights == ["*"] ? visible : request.highlights.filter(visible.contains)
            results += page.map { Hit(object: $0, highlight: Self.highlight($0, fields: highlighted, query: query)) }
        }
        return (hits, results)
    }

    /// `/1.1/search/mlt`: the objects most like a text (`like`) or like some objects (`likeObjectIds`, read with the
    /// caller's rights; themselves left out): any of the text's most frequent words (at most 25, each at least
    /// `minimumTermFrequency` times in it) in `fields` (every search field when empty), by relevance.
    package func moreLikeThis(
        _ request: Request, like: String?, likeObjectIds: [String], fields: [String], minimumTermFrequency: Int, caller: Caller
    ) async throws -> [Hit] {
        guard let className = request.className else { throw APIError(.missingRequiredField, "'clazz' is required: the class to search.") }
        guard like != nil || !likeObjectIds.isEmpty else { throw APIError(.missingRequiredField, "'like' or 'likeObjectIds' is required.") }
        guard likeObjectIds.count <= 100 else { throw APIError(.invalidParameter, "At most 100 likeObjectIds.") }
        var texts = like.map { [$0] } ?? []
        if !likeObjectIds.isEmpty, let schema = try await objects.schemas.schema(of: className) {
            let searched = fields.isEmpty ? (schema.options.searchFields ?? []) : fields
            let protected = caller.isMaster ? [] : ClassSchema.protectedFields(of: className, schema: schema)
            for object in try await objects.store.fetch(likeObjectIds.map { Pointer(className: className, objectId: $0) }, readers: caller.readers) {
                for field in searched where !protected.contains(field) {
                    let text = SearchTokenizer.text(of: object.fields[field])
                    if !text.isEmpty { texts.append(text) }
                }
            }
        }
        var counts: [String: Int] = [:]
        for text in texts { for token in SearchTokenizer.tokens(in: text) { counts[token.text, default: 0] += 1 } }
        let words = counts.filter { $0.value >= max(minimumTermFrequency, 1) }.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(25).map(\.key)
        guard !words.isEmpty else { return [] }
        let targets: [FieldPath?] = fields.isEmpty ? [nil] : fields.map { FieldPath(field: $0) }
        let terms: [SearchQuery] = words.flatMap { word in
            targets.map { field in .leaf(.term(SearchTerm(field: field, text: word, tokens: [SearchQueryToken(word, isPrefix: false)]))) }
        }
        var query = SearchQuery.or(terms)
        if !likeObjectIds.isEmpty {
            let excluded = likeObjectIds.map { id in SearchQuery.leaf(.term(SearchTerm(field: FieldPath(field: "objectId"), text: id, tokens: []))) }
            query = .and([query, .not(.or(excluded))])
        }
        return try await run(query, request, caller: caller).results
    }

    /// The classes a search covers, with their schemas: the one named (which must have search on), or every class
    /// with search on.
    private func searchable(_ className: String?) async throws -> [(String, ClassSchema)] {
        if let className {
            try ClassName.validate(className)
            guard let schema = try await objects.schemas.schema(of: className), schema.options.searchFields != nil else {
                throw APIError(.invalidParameter, "Search is not enabled for the class \(className) (docs/SEARCH.md: `cirrus search`).")
            }
            return [(className, schema)]
        }
        return try await objects.store.loadSchemas().filter { $0.options.searchFields != nil }.sorted { $0.className < $1.className }
            .map { ($0.className, $0) }
    }

    /// The read rights of the fields `q` names outside the index (ranges, `_exists_`, exact terms): as a `where`
    /// naming them; a term on a field the search cannot look in is refused here.
    private func authorizeNaming(
        _ query: SearchQuery, className: String, schema: ClassSchema, searchFields: [String], otherFields: Set<String>, caller: Caller
    ) async throws {
        var named: [Condition] = []
        for leaf in query.leaves {
            switch leaf {
            case .range(let range): named.append(range.condition)
            case .exists(let path): named.append(.exists(path, true))
            case .term(let term):
                if case .exact(let condition) = try term.target(searchFields: searchFields, otherFields: otherFields) { named.append(condition) }
            }
        }
        guard !named.isEmpty else { return }
        try await objects.authorizeNaming(className, schema: schema, condition: .and(named), sorting: [], caller: caller)
    }

    /// `{"field": ["…<em>word</em>…"]}` for the fields whose text the query matched; `nil` when none did.
    static func highlight(_ object: StoredObject, fields: [String], query: SearchQuery) -> [String: [String]]? {
        var highlights: [String: [String]] = [:]
        for field in fields {
            let terms = query.highlightTerms(for: FieldPath(field: field))
            guard !terms.isEmpty else { continue }
            let fragments = SearchHighlighter().fragments(of: SearchTokenizer.text(of: object.fields[field]), terms: terms)
            if !fragments.isEmpty { highlights[field] = fragments }
        }
        return highlights.isEmpty ? nil : highlights
    }

    /// `/1.1/search/analyze`: the tokens the server indexes for `text` (master key only, as LeanCloud's).
    package func analyze(_ text: String, caller: Caller) throws(APIError) -> [SearchToken] {
        guard caller.isMaster else { throw APIError(.masterKeyRequired, "The request must be signed by master key.") }
        return SearchTokenizer.tokens(in: text)
    }

    /// Turns search on for a class with these fields (or off with `nil`) and builds its index from its objects; returns
    /// the objects indexed.
    /// - Throws: ``APIError/Reason/masterKeyRequired``; `invalidParameter` for a field the class lacks or that is
    ///   not a String or Array.
    @discardableResult
    package func configure(_ className: String, fields: [String]?, caller: Caller) async throws -> Int {
        guard caller.isMaster, !caller.isReadOnly else { throw APIError(.masterKeyRequired, "The request must be signed by master key.") }
        try ClassName.validate(className)
        guard var schema = try await objects.store.loadSchema(of: className) else { throw ObjectService.classNotFound(className) }
        if let fields {
            guard !fields.isEmpty, Set(fields).count == fields.count, fields.count <= 32 else {
                throw APIError(.invalidParameter, "Search fields are 1 to 32 distinct fields of the class.")
            }
            for field in fields {
                guard let type = schema.type(of: field), [.string, .array].contains(type) else {
                    throw APIError(.invalidParameter, "'\(field)' is not a String or Array field of \(className).")
                }
            }
        }
        schema.options.searchFields = fields
        _ = try await objects.store.defineClass(className, newFields: [:], options: schema.options)
        objects.schemas.invalidate(className)
        await objects.store.announce(.schema(className: className))
        return try await objects.store.rebuildSearchIndex(className: className, fields: fields)
    }
}
