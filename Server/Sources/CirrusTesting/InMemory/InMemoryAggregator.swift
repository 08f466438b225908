import CirrusModel
import CirrusStorage

/// Statistics over objects, as the SQL stores' `AggregationCompiler` computes them: group keys are JSON values (Date
/// fields, `createdAt` and `updatedAt` group by day), `sum` and `average` read numbers only, `max` and `min` also the
/// strings of a String field and the instants of Date fields; `having`, order and page apply to the result rows.
struct InMemoryAggregator {
    let request: StorageAggregation

    private var aggregation: Aggregation { request.aggregation }
    private var schema: ClassSchema? { request.query.schema }

    /// What a result column holds, which decides what `having` compares it with.
    enum Kind {
        /// A field's JSON value: compared as `where` compares fields.
        case json
        case number
        case text
        case date
    }

    /// One result column: its key and how to compute it over a group.
    struct Output {
        let key: String
        let kind: Kind
        let isGroup: Bool
        let value: ([StoredObject]) -> JSON?
    }

    /// The result rows.
    func rows(of objects: [StoredObject]) -> [JSON] {
        let outputs = self.outputs()
        let groups = outputs.filter(\.isGroup)
        var rows: [[String: JSON?]] = []
        if groups.isEmpty {
            rows = [row(objects, outputs)]
        } else {
            var members: [[JSON?]: [StoredObject]] = [:]
            var keys: [[JSON?]] = []
            for object in objects {
                let key = groups.map { $0.value([object]) }
                if members[key] == nil { keys.append(key) }
                members[key, default: []].append(object)
            }
            rows = keys.map { row(members[$0] ?? [], outputs) }
        }
        let kinds = Dictionary(outputs.map { ($0.key, $0.kind) }, uniquingKeysWith: { first, _ in first })
        if let having = aggregation.having { rows = rows.filter { Having(kinds: kinds, row: $0).holds(having) } }
        let ordered = sorted(rows, outputs)
        return ordered.dropFirst(max(aggregation.skip, 0)).prefix(max(aggregation.limit, 0)).map { row in
            JSON.object(row.mapValues { $0 ?? .null })
        }
    }

    private func row(_ objects: [StoredObject], _ outputs: [Output]) -> [String: JSON?] {
        Dictionary(outputs.map { ($0.key, $0.value(objects)) }, uniquingKeysWith: { first, _ in first })
    }

    /// The requested order, then the group keys it does not name, ascending.
    private func sorted(_ rows: [[String: JSON?]], _ outputs: [Output]) -> [[String: JSON?]] {
        let known = Set(outputs.map(\.key))
        var keys: [SortKey] = []
        var named: Set<String> = []
        for key in aggregation.order where known.contains(key.path.description) && named.insert(key.path.description).inserted {
            keys.append(key)
        }
        for group in outputs where group.isGroup && !named.contains(group.key) {
            keys.append(SortKey(path: FieldPath(field: group.key)))
        }
        return rows.sorted { first, second in
            for key in keys {
                let name = key.path.description
                switch ObjectOrdering.order(first[name].flatMap { $0 }, second[name].flatMap { $0 }) {
                case .same: continue
                case .ascending: return !key.descending
                case .descending: return key.descending
                }
            }
            return false
        }
    }

    // MARK: Columns

    /// Group keys first, then computed values, then `_count`; a repeated key is computed once.
    private func outputs() -> [Output] {
        var outputs: [Output] = []
        var keys: Set<String> = []
        for path in aggregation.groupBy where keys.insert(path.description).inserted {
            outputs.append(group(path))
        }
        for (function, field) in aggregation.functions {
            let key = Aggregation.resultKey(function, field)
            guard keys.insert(key).inserted else { continue }
            outputs.append(computed(function, field, key: key))
        }
        if aggregation.countsGroups, keys.insert("_count").inserted {
            outputs.append(Output(key: "_count", kind: .number, isGroup: false) { .int(Int64($0.count)) })
        }
        return outputs
    }

    private func group(_ path: FieldPath) -> Output {
        let offset = request.dayOffsetMinutes
        func text(_ value: @escaping (StoredObject) -> JSON?) -> Output {
            Output(key: path.description, kind: .text, isGroup: true) { $0.first.flatMap(value) }
        }
        if !path.isNested {
            switch path.root {
            case "objectId": return text { .string($0.objectId) }
            case "createdAt": return text { .string(Self.day($0.createdAt, offset)) }
            case "updatedAt": return text { .string(Self.day($0.updatedAt, offset)) }
            default: break
            }
        }
        if schema?.type(at: path) == .date {
            return text { object in
                guard let iso = object.subject.value(at: path)?["iso"]?.stringValue, let stamp = Timestamp(parsing: iso) else { return nil }
                return .string(Self.day(stamp, offset))
            }
        }
        return Output(key: path.description, kind: .json, isGroup: true) { $0.first?.subject.value(at: path) }
    }

    private func computed(_ function: Aggregation.Function, _ field: FieldPath, key: String) -> Output {
        switch function {
        case .sum: return Output(key: key, kind: .number, isGroup: false) { Self.sum(Self.numbers($0, field)) }
        case .average:
            return Output(key: key, kind: .number, isGroup: false) { objects in
                let numbers = Self.numbers(objects, field)
                guard !numbers.isEmpty, let total = Self.sum(numbers).doubleValue else { return nil }
                return .double(total / Double(numbers.count))
            }
        case .maximum, .minimum:
            let (kind, operand) = extremeOperand(field)
            return Output(key: key, kind: kind, isGroup: false) { objects in
                let values = objects.compactMap(operand)
                let extreme = function == .maximum
                    ? values.max { ObjectOrdering.order($0, $1) == .ascending }
                    : values.min { ObjectOrdering.order($0, $1) == .ascending }
                return extreme
            }
        }
    }

    /// What `max` and `min` read from an object: numbers, or the strings of a String field, the Dates of a Date field,
    /// the built-in columns.
    private func extremeOperand(_ field: FieldPath) -> (Kind, (StoredObject) -> JSON?) {
        if !field.isNested {
            switch field.root {
            case "objectId": return (.text, { .string($0.objectId) })
            case "createdAt": return (.date, { Value.date($0.createdAt).wire })
            case "updatedAt": return (.date, { Value.date($0.updatedAt).wire })
            default: break
            }
        }
        switch schema?.type(at: field) {
        case .string?:
            return (.text, { object in Self.kept(object.subject.value(at: field)) { $0.stringValue != nil } })
        case .date?:
            return (.date, { object in object.subject.value(at: field)?["iso"]?.stringValue.map { JSON.date(iso: $0) } })
        default:
            return (.number, { object in Self.kept(object.subject.value(at: field), if: \.isNumber) })
        }
    }

    // MARK: Arithmetic

    /// The numbers (not booleans) at `field`.
    private static func numbers(_ objects: [StoredObject], _ field: FieldPath) -> [JSON] {
        objects.compactMap { object in kept(object.subject.value(at: field), if: \.isNumber) }
    }

    /// `value` when it passes `test`, else `nil` (never JSON `null`).
    private static func kept(_ value: JSON?, if test: (JSON) -> Bool) -> JSON? {
        guard let value, test(value) else { return nil }
        return value
    }

    /// The sum: exact while every number is an integer and the total fits in 64 bits, else the nearest double.
    static func sum(_ numbers: [JSON]) -> JSON {
        guard numbers.allSatisfy({ $0.intValue != nil && !Self.isDouble($0) }) else {
            return .double(numbers.reduce(0) { $0 + ($1.doubleValue ?? 0) })
        }
        var total: Int64 = 0
        var wraps: Int64 = 0
        for case .int(let number) in numbers {
            let (partial, overflow) = total.addingReportingOverflow(number)
            if overflow { wraps += number < 0 ? -1 : 1 }
            total = partial
        }
        return wraps == 0 ? .int(total) : .double(Double(wraps) * 18_446_744_073_709_551_616.0 + Double(total))
    }

    private static func isDouble(_ json: JSON) -> Bool {
        if case .double = json { return true }
        return false
    }

    /// The day (`YYYY-MM-DD`) of an instant at `offsetMinutes` east of UTC.
    static func day(_ stamp: Timestamp, _ offsetMinutes: Int) -> String {
        String(Timestamp(millisecondsSince1970: stamp.millisecondsSince1970 + Int64(offsetMinutes) * 60_000).iso8601.prefix(10))
    }
}
