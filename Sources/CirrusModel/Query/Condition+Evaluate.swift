/// An object as a condition sees it: its built-in fields and the document of the others.
public struct ConditionSubject: Sendable, Hashable {
    public var className: String
    public var objectId: String
    public var createdAt: Timestamp
    public var updatedAt: Timestamp
    /// Every field but the built-in ones, in the canonical REST encoding (as stores keep them).
    public var fields: [String: JSON]

    public init(className: String, objectId: String, createdAt: Timestamp, updatedAt: Timestamp, fields: [String: JSON]) {
        self.className = className
        self.objectId = objectId
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.fields = fields
    }
}

extension ConditionSubject {
    /// The stored value at `path` among the fields (never a built-in one), read as conditions read it: below
    /// the top level an all-digit segment indexes an array or names an object member. `nil` when absent.
    public func value(at path: FieldPath) -> JSON? {
        ConditionEvaluator(object: self, resolver: StaticConditionResolver()).node(at: path)
    }
}

/// Supplies what conditions over other objects need: the results of sub-queries and relation members.
///
/// A live-query engine answers from its own state; ``StaticConditionResolver`` answers from tables.
public protocol ConditionResolver {
    /// The objectIds of the objects `query` finds (at most `query.limit` of them).
    func objectIds(foundBy query: SubQuery) -> Set<String>
    /// The values of `key` (canonical REST JSON) on the objects `query` finds; objects without it give none.
    /// For `objectId` these are the ids as strings, for `createdAt` and `updatedAt` the Dates (`Value.date(…).wire`).
    func values(of key: FieldPath, foundBy query: SubQuery) -> [JSON]
    /// The members of the Relation field `key` of `owner`.
    func relationMembers(of owner: Pointer, key: String) -> Set<Pointer>
}

/// A ``ConditionResolver`` answering from fixed tables; what a table lacks finds nothing.
public struct StaticConditionResolver: ConditionResolver, Sendable {
    public var objectIds: [SubQuery: Set<String>]
    public var values: [SubQuery: [FieldPath: [JSON]]]
    public var relations: [Pointer: [String: Set<Pointer>]]

    public init(
        objectIds: [SubQuery: Set<String>] = [:], values: [SubQuery: [FieldPath: [JSON]]] = [:], relations: [Pointer: [String: Set<Pointer>]] = [:]
    ) {
        self.objectIds = objectIds
        self.values = values
        self.relations = relations
    }

    public func objectIds(foundBy query: SubQuery) -> Set<String> {
        objectIds[query] ?? []
    }

    public func values(of key: FieldPath, foundBy query: SubQuery) -> [JSON] {
        values[query]?[key] ?? []
    }

    public func relationMembers(of owner: Pointer, key: String) -> Set<Pointer> {
        relations[owner]?[key] ?? []
    }
}

/// In-memory evaluation of a condition on one object, with exactly the semantics of the SQL that
/// `ConditionCompiler` generates (see its documentation): equality on an array field means "contains",
/// `$ne` and `$nin` match objects without the field, `{"f": null}` matches a missing or null field, values of
/// different types never compare equal, and ordering compares numbers with numbers (integers and doubles by
/// value), strings with strings (by UTF-8 bytes) and dates with dates.
extension Condition {
    /// Whether `object` satisfies the condition.
    /// - Parameter resolver: answers sub-queries and relations; the default finds nothing.
    public func matches(_ object: ConditionSubject, resolver: any ConditionResolver = StaticConditionResolver()) -> Bool {
        ConditionEvaluator(object: object, resolver: resolver).evaluate(self)
    }
}

/// Evaluates conditions on one object.
struct ConditionEvaluator {
    let object: ConditionSubject
    let resolver: any ConditionResolver

    func evaluate(_ condition: Condition) -> Bool {
        switch condition {
        case .always: return true
        case .and(let parts): return parts.allSatisfy(evaluate)
        case .or(let parts): return parts.contains(where: evaluate)
        case .nor(let parts): return !parts.contains(where: evaluate)
        case .compare(let path, let op, let value): return compare(path, op, value)
        case .inList(let path, let values, let negated): return matchesAny(path, values) != negated
        case .containsAll(let path, let values): return !values.isEmpty && values.allSatisfy { equals(path, $0) }
        case .exists(let path, let flag):
            if BuiltIn(path) != nil { return flag }
            return (node(at: path) != nil) == flag
        case .size(let path, let count):
            guard case .array(let elements) = node(at: path) else { return false }
            return Int64(elements.count) == count
        case .regex(let path, let pattern, let options): return regex(path, pattern, options)
        case .inQuery, .select, .relatedTo: return evaluateReference(condition)
        case .near, .withinBox, .withinPolygon, .withinSphere: return evaluateGeo(condition)
        case .text(let path, let search):
            let tokens = SearchTokenizer.tokens(of: node(at: path))
            return SearchMatcher.matches(search.query, fields: [path: tokens]) { _ in false }
        }
    }

    /// `$inQuery`, `$select` and `$relatedTo`, from the resolver.
    private func evaluateReference(_ condition: Condition) -> Bool {
        switch condition {
        case .inQuery(let path, let query, let negated):
            let ids = resolver.objectIds(foundBy: query)
            let found = onFieldOrElements(path) { node in
                guard case .object(let members) = node, members["className"]?.stringValue == query.className,
                    let id = members["objectId"]?.stringValue
                else { return false }
                return ids.contains(id)
            }
            return found != negated
        case .select(let path, let query, let key, let negated):
            return selects(path, resolver.values(of: key, foundBy: query)) != negated
        case .relatedTo(let owner, let key):
            return resolver.relationMembers(of: owner, key: key).contains(Pointer(className: object.className, objectId: object.objectId))
        default:
            return false
        }
    }

    /// `$select`: the field, or an element of it, equals one of the selected values: numbers by value, strings
    /// exactly, objects and arrays as trees, `null` only a present null. The built-in fields take part as a
    /// string (`objectId`) and as Dates (`createdAt`, `updatedAt`).
    private func selects(_ path: FieldPath, _ values: [JSON]) -> Bool {
        if let column = BuiltIn(path) {
            let own: JSON = switch column {
            case .objectId: .string(object.objectId)
            case .createdAt: Value.date(object.createdAt).wire
            case .updatedAt: Value.date(object.updatedAt).wire
            }
            return values.contains { Self.sameTree(own, $0) }
        }
        return onFieldOrElements(path) { node in values.contains { Self.sameTree(node, $0) } }
    }

    private func regex(_ path: FieldPath, _ pattern: String, _ options: String) -> Bool {
        if !path.isNested, path.root == "objectId" { return Self.regexMatches(object.objectId, pattern, options) }
        return onFieldOrElements(path) { node in
            guard case .string(let text) = node else { return false }
            return Self.regexMatches(text, pattern, options)
        }
    }

    /// An invalid pattern matches nothing (the decoder refuses it before a query runs).
    private static func regexMatches(_ text: String, _ pattern: String, _ options: String) -> Bool {
        (try? RegexPattern.matches(text, pattern: pattern, options: options)) ?? false
    }
}
