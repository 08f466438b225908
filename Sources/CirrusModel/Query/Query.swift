/// A find or count over one class, as decoded from query parameters.
public struct Query: Sendable, Hashable {
    public var className: String
    public var condition: Condition
    public var order: [SortKey]
    public var limit: Int
    public var skip: Int
    /// Keys to return; `nil` returns every key.
    public var keys: KeySelection?
    /// Pointer paths to expand.
    public var include: [FieldPath]

    public init(
        className: String, condition: Condition = .always, order: [SortKey] = [], limit: Int = 100, skip: Int = 0,
        keys: KeySelection? = nil, include: [FieldPath] = []
    ) {
        self.className = className
        self.condition = condition
        self.order = order
        self.limit = limit
        self.skip = skip
        self.keys = keys
        self.include = include
    }
}

/// One ordering key: `score` ascending, `-score` descending.
public struct SortKey: Sendable, Hashable {
    public var path: FieldPath
    public var descending: Bool

    public init(path: FieldPath, descending: Bool = false) {
        self.path = path
        self.descending = descending
    }

    /// Parses `a,-b` (spaces around commas allowed); a key repeated later (in either direction) is dropped, since
    /// it cannot change the order the first one gives.
    /// - Throws: ``APIError`` for an invalid key.
    public static func parseList(_ text: String) throws(APIError) -> [SortKey] {
        var keys: [SortKey] = []
        for raw in text.split(separator: ",") {
            var name = raw.trimmingSpaces
            guard !name.isEmpty else { continue }
            let descending = name.hasPrefix("-")
            if descending || name.hasPrefix("+") { name.removeFirst() }
            if name == FieldPath.textScore.root {
                keys.append(SortKey(path: .textScore, descending: descending))
                continue
            }
            guard let path = try? FieldPath(parsing: name) else {
                throw APIError(.invalidQuery, "Invalid order key '\(raw)'.")
            }
            keys.append(SortKey(path: path, descending: descending))
        }
        return keys.withoutRepeatedKeys
    }
}

extension FieldPath {
    /// `$score` in `order`: the relevance of a `$text` query (``Condition/text(_:_:)``), best first (`-$score`: worst
    /// first). Not a field: no object holds it.
    public static let textScore = FieldPath(field: "$score")
}

extension [SortKey] {
    /// The keys without those whose path came earlier: a later key on the same path cannot change the order.
    public var withoutRepeatedKeys: [SortKey] {
        var seen: Set<FieldPath> = []
        return filter { seen.insert($0.path).inserted }
    }
}

/// The `keys` parameter: the keys to keep, or (with `-key`) the keys to drop.
public struct KeySelection: Sendable, Hashable {
    public var included: [FieldPath]
    public var excluded: [FieldPath]
    /// Whether `$score` was named: each object found by a `$text` query carries its relevance in ``textScoreKey``
    /// (which ``included`` then holds), as Parse Server answers.
    public var includesTextScore: Bool

    /// The key of the relevance `$score` asks for.
    public static let textScoreKey = "score"

    public init(included: [FieldPath] = [], excluded: [FieldPath] = [], includesTextScore: Bool = false) {
        self.included = included
        self.excluded = excluded
        self.includesTextScore = includesTextScore
    }

    /// Parses `a,b.c,-d`.
    /// - Throws: ``APIError`` for an invalid key.
    public init(parsing text: String) throws(APIError) {
        var included: [FieldPath] = []
        var excluded: [FieldPath] = []
        var includesTextScore = false
        for raw in text.split(separator: ",") {
            var name = raw.trimmingSpaces
            guard !name.isEmpty else { continue }
            let isExclusion = name.hasPrefix("-")
            if isExclusion { name.removeFirst() }
            if name == FieldPath.textScore.root, !isExclusion {
                included.append(FieldPath(field: Self.textScoreKey))
                includesTextScore = true
                continue
            }
            guard let path = try? FieldPath(parsing: name) else {
                throw APIError(.invalidQuery, "Invalid key '\(raw)' in keys.")
            }
            if isExclusion { excluded.append(path) } else { included.append(path) }
        }
        self.init(included: included, excluded: excluded, includesTextScore: includesTextScore)
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
