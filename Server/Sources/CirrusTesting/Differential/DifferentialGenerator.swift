import CirrusModel

/// SplitMix64: a small deterministic generator, so that a failing seed reproduces the same data and queries.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Generates objects with mixed-type fields and conditions over them, from one seed.
struct DifferentialGenerator {
    var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    static let className = "Thing"
    static let baseTime: Int64 = 1_700_000_000_000

    /// The fields whose type is recorded in the schema (their values keep that type); the others mix types.
    static let typedFields: [String: FieldType] = [
        "num": .number, "text": .string, "when": .date, "tags": .array, "owner": .pointer(targetClass: "Owner"), "info": .object,
        "loc": .geoPoint, "flag": .boolean,
    ]

    /// Paths the conditions name: typed and mixed fields, dot paths, array indexes, absent and built-in fields.
    static let paths = [
        "mixed", "alt", "num", "text", "when", "tags", "owner", "info", "info.k", "info.deep.x", "info.list", "info.0", "tags.0",
        "tags.1", "mixed.0", "mixed.k", "alt.1.k", "absent", "objectId", "createdAt", "updatedAt", "loc", "flag",
    ].map { FieldPath($0.split(separator: ".").map(String.init)) }

    // MARK: Choice

    mutating func chance(_ percent: Int) -> Bool {
        Int.random(in: 0..<100, using: &random) < percent
    }

    mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int.random(in: 0..<choices.count, using: &random)]
    }

    mutating func count(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &random)
    }

    // MARK: Values

    static let strings = ["a", "b", "ab", "abc", "B", "A", "", "x1", "é", "e\u{301}", "zz", "1", "a\"b", "c\\d", "😀", "[1]", "true"]
    static let ints: [Int64] = [-3, -1, 0, 1, 2, 3, 5, 10, 9_007_199_254_740_993, .max]
    static let doubles = [-1.5, 0.5, 1.0, 2.0, 2.5, 3.25, 10.0, 9_007_199_254_740_992.0, 9_223_372_036_854_775_808.0, -0.0]
    static let owners: [String] = ["o1", "o2", "o3", "o4"]

    mutating func date() -> Value {
        .date(Timestamp(millisecondsSince1970: Self.baseTime + Int64(count(0...6)) * 86_400_000 + pick([0, 1, 999])))
    }

    mutating func pointer() -> Value {
        .pointer(Pointer(className: chance(85) ? "Owner" : "Other", objectId: pick(Self.owners)))
    }

    mutating func geoPoint() -> Value {
        // Points clustered around a few places, some near the antimeridian.
        let centers: [(Double, Double)] = [(39.9, 116.4), (40.0, 116.5), (-33.9, 151.2), (0, 179.5), (0, -179.5), (51.5, -0.1)]
        let (latitude, longitude) = pick(centers)
        let jitter = { (generator: inout DifferentialGenerator) in Double(generator.count(-50...50)) / 100 }
        let point = try! GeoPoint(latitude: latitude + jitter(&self), longitude: max(-180, min(180, longitude + jitter(&self))))
        return .geoPoint(point)
    }

    /// A scalar of any kind.
    mutating func scalar() -> Value {
        switch count(0...9) {
        case 0: .null
        case 1: .bool(chance(50))
        case 2, 3: .int(pick(Self.ints))
        case 4: .double(pick(Self.doubles))
        case 5, 6: .string(pick(Self.strings))
        case 7: date()
        case 8: pointer()
        default: geoPoint()
        }
    }

    /// Any value: mostly scalars, some arrays and nested objects.
    mutating func value(depth: Int = 0) -> Value {
        guard depth < 2 else { return scalar() }
        switch count(0...9) {
        case 0, 1: return array(depth: depth)
        case 2: return object(depth: depth)
        default: return scalar()
        }
    }

    mutating func array(depth: Int = 0) -> Value {
        .array((0..<count(0...3)).map { _ in chance(85) ? scalar() : value(depth: depth + 1) })
    }

    mutating func object(depth: Int = 0) -> Value {
        var members: [String: Value] = [:]
        for key in ["k", "x", "1", "0"] where chance(50) {
            members[key] = value(depth: depth + 1)
        }
        return .object(members)
    }

    // MARK: Objects

    /// The fields of one object in the canonical REST encoding.
    mutating func fields() -> [String: JSON] {
        var fields: [String: Value] = [:]
        if chance(80) { fields["mixed"] = value() }
        if chance(60) { fields["alt"] = value() }
        if chance(80) { fields["num"] = chance(10) ? .null : chance(50) ? .int(pick(Self.ints)) : .double(pick(Self.doubles)) }
        if chance(80) { fields["text"] = chance(10) ? .null : .string(pick(Self.strings)) }
        if chance(70) { fields["when"] = date() }
        if chance(70) { fields["tags"] = array() }
        if chance(70) { fields["owner"] = .pointer(Pointer(className: "Owner", objectId: pick(Self.owners))) }
        if chance(70) { fields["info"] = info() }
        if chance(60) { fields["loc"] = geoPoint() }
        if chance(70) { fields["flag"] = .bool(chance(50)) }
        return fields.mapValues(\.wire)
    }

    private mutating func info() -> Value {
        var members: [String: Value] = [:]
        if chance(70) { members["k"] = value(depth: 1) }
        if chance(50) { members["deep"] = .object(chance(70) ? ["x": scalar()] : [:]) }
        if chance(50) { members["list"] = array(depth: 1) }
        if chance(30) { members["0"] = scalar() }
        return .object(members)
    }

    // MARK: Conditions

    /// A condition of any kind, nested up to `depth` levels of `$and`/`$or`/`$nor`.
    mutating func condition(ids: [String], depth: Int = 0, geo: Bool, references: Bool) -> Condition {
        if depth < 3, chance(depth == 0 ? 25 : 15) {
            let parts = (0..<count(0...3)).map { _ in condition(ids: ids, depth: depth + 1, geo: geo, references: references) }
            return pick([Condition.and(parts), .or(parts), .nor(parts)])
        }
        return references && chance(15) ? referenceLeaf() : leaf(ids: ids, geo: geo)
    }

    /// An operand suited to `path`: ids for `objectId`, dates for the timestamps, otherwise any value.
    private mutating func operand(for path: FieldPath, ids: [String]) -> Value {
        switch path.description {
        case "objectId" where chance(80): return .string(pick(ids))
        case "createdAt", "updatedAt":
            return chance(85) ? .date(Timestamp(millisecondsSince1970: Self.baseTime + Int64(count(0...220)) * 1000)) : scalar()
        default: return value(depth: 1)
        }
    }

    private mutating func operands(for path: FieldPath, ids: [String]) -> [Value] {
        (0..<count(0...3)).map { _ in operand(for: path, ids: ids) }
    }

    private mutating func leaf(ids: [String], geo: Bool) -> Condition {
        let path = pick(Self.paths)
        switch count(0...(geo ? 10 : 8)) {
        case 0, 1, 2: return .compare(path, pick(Condition.Comparison.allCases), operand(for: path, ids: ids))
        case 3: return .inList(path, operands(for: path, ids: ids), negated: chance(50))
        case 4: return .containsAll(path, operands(for: path, ids: ids))
        case 5: return .exists(path, chance(50))
        case 6: return .size(path, Int64(count(0...3)))
        case 7, 8:
            let pattern = pick(["^a", "b$", "A", "^$", "\\d", "a.c", "^\\Qab\\E", "é", "(?i)^b"])
            return .regex(path, pattern: pattern, options: pick(["", "i", "m"]))
        default: return geoLeaf(path: chance(80) ? FieldPath(field: "loc") : path)
        }
    }

    private mutating func geoLeaf(path: FieldPath) -> Condition {
        guard case .geoPoint(let center) = geoPoint() else { preconditionFailure("geoPoint() makes GeoPoints") }
        let radius = pick([0.001, 0.005, 0.01, 0.05, 1.0])
        switch count(0...3) {
        case 0:
            return .near(path, center, maximumDistance: chance(70) ? radius : nil, minimumDistance: chance(30) ? radius / 2 : nil)
        case 1: return .withinSphere(path, center: center, radius: radius)
        case 2:
            let span = pick([0.2, 0.5, 1.0])
            let southwest = try! GeoPoint(latitude: max(-90, center.latitude - span), longitude: max(-180, center.longitude - span))
            let east = center.longitude + span > 180 ? center.longitude + span - 360 : center.longitude + span
            let northeast = try! GeoPoint(latitude: min(90, center.latitude + span), longitude: east)
            return .withinBox(path, southwest: southwest, northeast: northeast)
        default:
            let span = pick([0.3, 0.6])
            let vertices = [(-span, -span), (-span, span), (span, span * 1.5), (span, -span)].map { offset in
                try! GeoPoint(latitude: center.latitude + offset.0, longitude: max(-180, min(180, center.longitude + offset.1)))
            }
            return .withinPolygon(path, vertices)
        }
    }
}

/// The owner class that sub-queries and `$relatedTo` reach: its objects are the targets of the `Owner` pointers.
extension DifferentialGenerator {
    static let ownerClass = "Owner"
    static let ownerIds = owners + ["o5"]
    static let ownerTypes: [String: FieldType] = ["rank": .number, "name": .string, "members": .relation(targetClass: className)]

    /// The fields of one owner: a rank, a name and a mixed-type `city` that `$select` reads.
    mutating func ownerFields() -> [String: JSON] {
        var fields: [String: Value] = ["rank": .int(Int64(count(0...5))), "name": .string(pick(Self.strings))]
        if chance(80) { fields["city"] = value(depth: 1) }
        return fields.mapValues(\.wire)
    }

    /// The members of an owner's `members` relation, among the things.
    mutating func members(of ids: [String]) -> [Pointer] {
        ids.filter { _ in chance(10) }.map { Pointer(className: Self.className, objectId: $0) }
    }

    private mutating func subQuery() -> SubQuery {
        let rank = FieldPath(field: "rank")
        let condition: Condition = switch count(0...4) {
        case 0: .always
        case 1: .compare(rank, pick(Condition.Comparison.allCases), .int(Int64(count(0...5))))
        case 2: .inList(FieldPath(field: "name"), (0..<count(1...4)).map { _ in .string(pick(Self.strings)) }, negated: chance(30))
        case 3: .exists(FieldPath(field: "city"), chance(70))
        default: .or([.compare(rank, .lessThan, .int(2)), .compare(FieldPath(field: "city"), .equal, scalar())])
        }
        return SubQuery(className: chance(90) ? Self.ownerClass : "Missing", condition: condition)
    }

    /// `$inQuery`, `$select` (and their negations) and `$relatedTo`.
    mutating func referenceLeaf() -> Condition {
        let path = chance(50) ? pick([FieldPath(field: "owner"), FieldPath(field: "tags"), FieldPath(field: "mixed")]) : pick(Self.paths)
        switch count(0...2) {
        case 0: return .inQuery(path, subQuery(), negated: chance(30))
        case 1:
            let key = pick(["city", "name", "rank", "objectId", "createdAt", "absent", "city.k", "city.0"])
            return .select(path, subQuery(), key: FieldPath(key.split(separator: ".").map(String.init)), negated: chance(30))
        default:
            return .relatedTo(Pointer(className: Self.ownerClass, objectId: pick(Self.ownerIds)), key: chance(90) ? "members" : "other")
        }
    }
}

/// Answers sub-queries and relations from the generated owners, evaluating inner conditions in memory.
struct OwnerResolver: ConditionResolver {
    let owners: [ConditionSubject]
    let relations: [Pointer: [String: Set<Pointer>]]

    private func found(_ query: SubQuery) -> [ConditionSubject] {
        guard query.className == DifferentialGenerator.ownerClass else { return [] }
        return Array(owners.filter { query.condition.matches($0, resolver: self) }.prefix(query.limit))
    }

    func objectIds(foundBy query: SubQuery) -> Set<String> {
        Set(found(query).map(\.objectId))
    }

    func values(of key: FieldPath, foundBy query: SubQuery) -> [JSON] {
        found(query).compactMap { owner in
            if !key.isNested, key.root == "objectId" { return .string(owner.objectId) }
            if !key.isNested, key.root == "createdAt" { return Value.date(owner.createdAt).wire }
            if !key.isNested, key.root == "updatedAt" { return Value.date(owner.updatedAt).wire }
            return owner.value(at: key)
        }
    }

    func relationMembers(of owner: Pointer, key: String) -> Set<Pointer> {
        relations[owner]?[key] ?? []
    }
}
