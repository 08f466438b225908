import CirrusModel

/// A full-text search of LeanCloud's in-app search (`GET /1.1/search/select`): objects of one class (or of every class
/// the app made searchable) matching a query string, with their highlighted fragments.
///
/// ```swift
/// let query = LCSearchQuery(queryString: "dennis", className: "GameScore")
/// query.highlights = ["playerName"]
/// query.limit = 20
/// let scores = try await query.find()
/// query.hits                                     // how many objects match in all
/// scores.first?.highlights?["playerName"]        // ["<em>dennis</em> ZX"]
/// while query.hasMore { more = try await query.find() }   // the next pages, through the server's sid
/// ```
/// `queryString` is the server's query syntax (terms, `"phrases"`, `field:value`, `AND`/`OR`, `*`, …). Each find keeps
/// the `sid` the server answers and sends it with the next find, which continues where the last one stopped;
/// ``hasMore`` is `false` once the server answers `"sid": null`, and ``reset()`` starts again. Results respect ACLs:
/// the request carries the current user's session token.
public final class LCSearchQuery: @unchecked Sendable {
    /// The app searched.
    public let application: LCApplication
    /// The class searched; `nil` searches every searchable class (each result names its own).
    public let className: String?

    private let lock = Lock()
    private var options = Options()

    /// What the app set, and what the last reply said.
    struct Options {
        var queryString: String
        var limit: Int?
        var skip: Int?
        var sid: String?
        var highlights: [String]?
        var fields: [String]?
        var include: [String]?
        var order: String?
        var sortBuilder: LCSearchSortBuilder?
        var hits = 0
        var hasMore = true

        init(queryString: String = "") {
            self.queryString = queryString
        }
    }

    /// A search for `queryString` in `className` (every searchable class when `nil`).
    public init(application: LCApplication = .default, queryString: String, className: String? = nil) {
        self.application = application
        self.className = className
        options = Options(queryString: queryString)
    }

    /// The query string (`q`); a find without one fails before sending.
    public var queryString: String {
        get { lock.withLock { options.queryString } }
        set { lock.withLock { options.queryString = newValue } }
    }

    /// The most objects a find returns (the server's default is 100, its maximum 1000).
    public var limit: Int? {
        get { lock.withLock { options.limit } }
        set { lock.withLock { options.limit = newValue } }
    }

    /// How many matching objects a find skips.
    public var skip: Int? {
        get { lock.withLock { options.skip } }
        set { lock.withLock { options.skip = newValue } }
    }

    /// The server's cursor (scroll id) of the search, which the next find continues from: set by each find from the
    /// reply, `nil` once the last page was read. Set it only to resume a search of this query string and order.
    public var sid: String? {
        get { lock.withLock { options.sid } }
        set { lock.withLock { options.sid = newValue } }
    }

    /// The fields whose matches come back highlighted (``LCObject/highlights``); `["*"]` for every field.
    public var highlights: [String]? {
        get { lock.withLock { options.highlights } }
        set { lock.withLock { options.highlights = newValue } }
    }

    /// The fields the results hold (and `objectId`, `createdAt`, `updatedAt`); `nil` for all.
    public var fields: [String]? {
        get { lock.withLock { options.fields } }
        set { lock.withLock { options.fields = newValue } }
    }

    /// Pointer fields whose objects come back with their fields; dots go deeper (`post.author`).
    public var include: [String]? {
        get { lock.withLock { options.include } }
        set { lock.withLock { options.include = newValue } }
    }

    /// The order of the results as `LCQuery` writes it: fields separated by commas, `-` for largest first
    /// (`-score,createdAt`). Without an order or a ``sortBuilder`` the server orders by relevance.
    public var order: String? {
        get { lock.withLock { options.order } }
        set { lock.withLock { options.order = newValue } }
    }

    /// A sort with modes, missing values and distances, sent as `sort`; a query may not have both it and an ``order``.
    public var sortBuilder: LCSearchSortBuilder? {
        get { lock.withLock { options.sortBuilder } }
        set { lock.withLock { options.sortBuilder = newValue } }
    }

    /// How many objects match in all, as the last find's reply said (`hits`); 0 before any.
    public var hits: Int { lock.withLock { options.hits } }

    /// Whether a find may return more: `true` until a reply's `sid` is `null`.
    public var hasMore: Bool { lock.withLock { options.hasMore } }

    /// Forgets the `sid` and `hits` of earlier finds: the next find starts the search again.
    public func reset() {
        lock.withLock {
            options.sid = nil
            options.hits = 0
            options.hasMore = true
        }
    }

    /// The query parameters of a find: `q`, then `clazz`, `limit`, `skip`, `sid`, `highlights`, `fields`, `include`,
    /// `order` and `sort` when set.
    /// - Throws: `LCError` ``LCError/InternalErrorCode/inconsistency`` without a query string, or with both an
    ///   ``order`` and a ``sortBuilder`` (as LeanCloud's JavaScript SDK refuses them).
    func parameters() throws -> [(String, String)] {
        let options = lock.withLock { self.options }
        guard !options.queryString.isEmpty else { throw LCError.inconsistency("A search needs a query string.") }
        let sort = options.sortBuilder.flatMap { $0.isEmpty ? nil : $0 }
        if sort != nil, let order = options.order, !order.isEmpty {
            throw LCError.inconsistency("A search has either a sort or an order, not both.")
        }
        var parameters: [(String, String)] = [("q", options.queryString)]
        if let className { parameters.append(("clazz", className)) }
        if let limit = options.limit { parameters.append(("limit", String(limit))) }
        if let skip = options.skip { parameters.append(("skip", String(skip))) }
        if let sid = options.sid { parameters.append(("sid", sid)) }
        for (name, list) in [("highlights", options.highlights), ("fields", options.fields), ("include", options.include)] {
            if let list, !list.isEmpty { parameters.append((name, list.joined(separator: ","))) }
        }
        if let order = options.order, !order.isEmpty { parameters.append(("order", order)) }
        if let sort { parameters.append(("sort", sort.build())) }
        return parameters
    }

    /// Records what a reply says of the search: its `sid` (the end when `null` or absent) and `hits`.
    func record(_ reply: JSON) {
        lock.withLock {
            options.sid = reply["sid"]?.stringValue
            options.hasMore = options.sid != nil
            options.hits = reply["hits"]?.intValue.map { Int($0) } ?? 0
        }
    }
}
