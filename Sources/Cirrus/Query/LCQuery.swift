import CirrusModel
public import Foundation

/// A query on one class: conditions (`whereKey`), order, keys, includes, `limit` and `skip`.
///
/// ```swift
/// let query = LCQuery(className: "Todo")
/// query.whereKey("priority", .greaterThanOrEqualTo(2))
/// query.whereKey("createdAt", .descending)
/// query.limit = 10
/// let todos = try await query.find()
/// ```
public final class LCQuery: @unchecked Sendable {
    /// The app queried.
    public let application: LCApplication
    /// The class queried.
    public let className: String

    private let lock = Lock()
    /// The conditions in the order given, each on a key (or `$or`/`$and`) with its operator (`""` for an equality).
    private var conditions: [ConditionEntry] = []
    private var orders: [String] = []
    private var selectedKeys: [String] = []
    private var includedKeys: [String] = []
    private var limitValue: Int?
    private var skipValue: Int?
    private var relation: (object: LCObject, key: String)?
    private var redirect: String?
    private var policy: CachePolicy = .ignoreCache
    private var cacheAge: TimeInterval?
    private var statistics = Statistics()
    private var returnsACL = false

    public init(application: LCApplication = .default, className: String) {
        self.application = application
        self.className = className
    }

    /// The most objects a find returns (the server's default is 100, its maximum 1000).
    public var limit: Int? {
        get { lock.withLock { limitValue } }
        set { lock.withLock { limitValue = newValue } }
    }

    /// How many matching objects a find skips.
    public var skip: Int? {
        get { lock.withLock { skipValue } }
        set { lock.withLock { skipValue = newValue } }
    }

    /// How finds use the result cache when they are not given a policy; ``CachePolicy/ignoreCache`` by default.
    public var cachePolicy: CachePolicy {
        get { lock.withLock { policy } }
        set { lock.withLock { policy = newValue } }
    }

    /// The age in seconds beyond which a cached result is not used (`24 * 3600` for a day); `nil` for no limit.
    public var maxCacheAge: TimeInterval? {
        get { lock.withLock { cacheAge } }
        set { lock.withLock { cacheAge = newValue } }
    }

    /// Whether found objects carry their ACL (`returnACL=true`); the server leaves it out otherwise.
    public var includeACL: Bool {
        get { lock.withLock { returnsACL } }
        set { lock.withLock { returnsACL = newValue } }
    }

    /// The statistics asked for.
    var statisticsSnapshot: Statistics { lock.withLock { statistics } }

    /// Changes the statistics asked for.
    func updateStatistics(_ change: (inout Statistics) -> Void) {
        lock.withLock { change(&statistics) }
    }

    /// The object and key of a relation query (`$relatedTo`).
    var relatedTo: (object: LCObject, key: String)? {
        get { lock.withLock { relation } }
        set { lock.withLock { relation = newValue } }
    }

    /// `redirectClassNameForKey`: the server answers with the members' class.
    var redirectKey: String? {
        get { lock.withLock { redirect } }
        set { lock.withLock { redirect = newValue } }
    }

    /// Adds a constraint on `key`: a condition, an ordering, a key to return or a pointer to include.
    public func whereKey(_ key: String, _ constraint: Constraint) {
        switch constraint {
        case .selected: lock.withLock { selectedKeys.append(key) }
        case .included: lock.withLock { includedKeys.append(key) }
        case .ascending: lock.withLock { orders.append(key) }
        case .descending: lock.withLock { orders.append("-" + key) }
        case .relatedTo(let object): relatedTo = (object, key)
        default:
            guard let (name, condition) = ConstraintEncoder.condition(constraint, on: key) else { return }
            add(key, name, condition)
        }
    }

    /// Adds a condition on `key`. An equality replaces every condition on the key; an operator replaces the equality
    /// and an earlier use of the same operator.
    private func add(_ key: String, _ name: String, _ condition: Condition) {
        lock.withLock {
            conditions.removeAll { $0.key == key && (name.isEmpty || $0.operator.isEmpty || $0.operator == name) }
            conditions.append((key, name, condition))
        }
    }

    /// A query for objects matching this query or `query` (`$or`).
    public func or(_ query: LCQuery) -> LCQuery {
        combine(query, "$or")
    }

    /// A query for objects matching this query and `query` (`$and`).
    public func and(_ query: LCQuery) -> LCQuery {
        combine(query, "$and")
    }

    private func combine(_ query: LCQuery, _ name: String) -> LCQuery {
        let combined = LCQuery(application: application, className: className)
        let parts = [whereCondition, query.whereCondition]
        combined.add(name, name, name == "$or" ? .or(parts) : .and(parts))
        return combined
    }

    /// The condition of `where`.
    var whereCondition: Condition {
        let snapshot: (entries: [ConditionEntry], relation: (object: LCObject, key: String)?) = lock.withLock {
            (conditions, relation)
        }
        return Self.condition(of: snapshot.entries, relation: snapshot.relation)
    }

    private static func condition(
        of entries: [ConditionEntry], relation: (object: LCObject, key: String)?
    ) -> Condition {
        var parts = entries.map(\.condition)
        if let relation { parts.append(.relatedTo(ValueCoder.pointer(relation.object), key: relation.key)) }
        return .all(parts)
    }

    /// The `where` document. The query of ``and(_:)`` keeps LeanCloud's `{"$and":[<where>, <where>]}` rather than the
    /// one object the model writes for an AND of conditions on different keys (the two mean the same).
    var whereJSON: JSON {
        let explicit = lock.withLock { conditions.first { $0.key == "$and" }?.condition }
        guard case .and(let parts) = explicit else { return whereCondition.wire }
        let others = lock.withLock { conditions.filter { $0.key != "$and" } }
        let rest = Self.condition(of: others, relation: relatedTo)
        var members = rest.wire.objectValue ?? [:]
        members["$and"] = .array((members["$and"]?.arrayValue ?? []) + parts.map(\.wire))
        return .object(members)
    }

    /// The `where` document as text.
    var whereText: String { JSONWriter.string(whereJSON) }

    /// The inner query of `$inQuery` and `$select`, with its `limit` and `skip` (seed 003: an inner query finds 100
    /// objects unless its limit says otherwise, up to 1000, and pages with `skip`).
    var subQuery: SubQuery {
        let (limit, skip) = lock.withLock { (limitValue, skipValue) }
        return SubQuery(className: className, condition: whereCondition, limit: limit ?? 100, skip: skip ?? 0)
    }

    /// The query parameters of a find (`count` adds `count=1&limit=0`).
    func parameters(count: Bool = false, limit overridden: Int? = nil) -> [(String, String)] {
        var parameters: [(String, String)] = [("where", whereText)]
        let options = lock.withLock {
            Options(orders: orders, selected: selectedKeys, included: includedKeys, limit: limitValue, skip: skipValue, redirect: redirect)
        }
        if !options.orders.isEmpty { parameters.append(("order", options.orders.joined(separator: ","))) }
        if !options.selected.isEmpty { parameters.append(("keys", options.selected.joined(separator: ","))) }
        if !options.included.isEmpty { parameters.append(("include", options.included.joined(separator: ","))) }
        if count {
            parameters += [("count", "1"), ("limit", "0")]
        } else {
            if let limit = overridden ?? options.limit { parameters.append(("limit", String(limit))) }
            if let skip = options.skip { parameters.append(("skip", String(skip))) }
        }
        if let redirect = options.redirect { parameters.append(("redirectClassNameForKey", redirect)) }
        if includeACL { parameters.append(("returnACL", "true")) }
        return parameters
    }

    /// A condition on a key (or `$or`/`$and`) with its operator (`""` for an equality).
    typealias ConditionEntry = (key: String, operator: String, condition: Condition)

    /// The parts of a find other than `where`.
    private struct Options {
        let orders: [String]
        let selected: [String]
        let included: [String]
        let limit: Int?
        let skip: Int?
        let redirect: String?
    }

    /// The keys, includes and `returnACL` of a `get`.
    var fetchParameters: [(String, String)] {
        parameters().filter { ["keys", "include", "returnACL"].contains($0.0) }
    }
}

extension LCObject {
    /// A query on this Swift class's class name: `LCUser.query()` finds users, `Product.query()` a registered
    /// subclass's objects, which come back as instances of it.
    public class func query(application: LCApplication = .default) -> LCQuery {
        LCQuery(application: application, className: objectClassName())
    }
}
