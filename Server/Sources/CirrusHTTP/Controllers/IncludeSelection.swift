import CirrusModel

/// The `include` parameter: pointer paths to expand (`post`, `post.author`, comma lists), and Bmob's field
/// picking `post[title|content]`, which keeps only those fields of the included object (and its built-in keys).
struct IncludeSelection: Sendable, Equatable {
    var paths: [FieldPath] = []
    /// The fields kept in the objects included at each path.
    var picks: [FieldPath: [String]] = [:]

    init(paths: [FieldPath] = [], picks: [FieldPath: [String]] = [:]) {
        self.paths = paths
        self.picks = picks
    }

    /// Parses `a,b.c,post[title|content]`; `*` and empty items are ignored, and a repeated path counts once.
    /// - Throws: ``APIError`` ``APIError/Reason/invalidQuery`` for an invalid key or a malformed `[…]`.
    init(parsing text: String) throws(APIError) {
        var seen: Set<FieldPath> = []
        for raw in text.split(separator: ",") {
            let item = raw.trimmingCharacters(in: " ")
            guard !item.isEmpty, item != "*" else { continue }
            var name = Substring(item)
            var fields: [String]?
            if let open = item.firstIndex(of: "[") {
                guard item.hasSuffix("]") else { throw Self.invalid(item) }
                name = item[..<open]
                fields = item[item.index(after: open)..<item.index(before: item.endIndex)].split(separator: "|").map {
                    $0.trimmingCharacters(in: " ")
                }
                guard let fields, !fields.isEmpty, fields.allSatisfy({ FieldName.isIdentifier($0) }) else { throw Self.invalid(item) }
            }
            guard let path = try? FieldPath(parsing: String(name)) else { throw Self.invalid(item) }
            if seen.insert(path).inserted { paths.append(path) }
            if let fields { picks[path, default: []] += fields }
        }
    }

    private static func invalid(_ item: String) -> APIError {
        APIError(.invalidQuery, "Invalid include key '\(item)'.")
    }

    /// Applies the picks to an encoded object: at each picked path (through objects and arrays of them), the
    /// included objects keep the picked fields and their built-in keys.
    func applyPicks(to members: inout [String: JSON]) {
        for (path, fields) in picks {
            let kept = Set(fields).union(KeyProjection.alwaysKept)
            guard let value = members[path.root] else { continue }
            members[path.root] = Self.pick(value, below: path.segments.dropFirst(), keeping: kept)
        }
    }

    private static func pick(_ value: JSON, below segments: ArraySlice<String>, keeping kept: Set<String>) -> JSON {
        switch value {
        case .array(let elements):
            return .array(elements.map { pick($0, below: segments, keeping: kept) })
        case .object(var members):
            guard let first = segments.first else { return .object(members.filter { kept.contains($0.key) }) }
            if let inner = members[first] { members[first] = pick(inner, below: segments.dropFirst(), keeping: kept) }
            return .object(members)
        default:
            return value
        }
    }
}
