import Foundation

/// What a file of an export holds, read from its name: `<Class>.jsonl` (with directory prefixes and numeric
/// suffixes such as `_User.0.jsonl`), `_Join:<field>:<Class>.json` (also with `꞉`, U+A789, for `:`), `_schema.json`, or
/// nothing to import (`manifest.json`, file contents under `files/`, other extensions).
enum ExportFileName: Hashable {
    case schema
    case objects(className: String)
    case join(field: String, owningClass: String)
    case ignored

    init(path: String) {
        let components = path.split(separator: "/").map(String.init)
        guard let base = components.last else {
            self = .ignored
            return
        }
        // File contents of an export live under files/; they are never records.
        if components.dropLast().contains("files") {
            self = .ignored
            return
        }
        let lower = base.lowercased()
        guard lower.hasSuffix(".jsonl") || lower.hasSuffix(".json") else {
            self = .ignored
            return
        }
        let stem = base.replacingOccurrences(of: "\u{A789}", with: ":").split(separator: ".", omittingEmptySubsequences: false)[0]
        let name = String(stem)
        if name == "manifest" || name.isEmpty || base.hasPrefix(".") {
            self = .ignored
        } else if name == "_schema" {
            self = .schema
        } else if name.hasPrefix("_Join:") {
            let parts = name.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 3, !parts[1].isEmpty, !parts[2].isEmpty else {
                self = .ignored
                return
            }
            self = .join(field: String(parts[1]), owningClass: String(parts[2]))
        } else {
            self = .objects(className: name)
        }
    }

    /// The order of import: the schema, then files (other classes link to them), roles and users, other classes,
    /// and last the relation members and sessions (their owners and users exist by then).
    var phase: Int {
        switch self {
        case .schema: 0
        case .objects("_File"): 1
        case .objects("_Role"), .objects("_User"): 2
        case .objects("_Session"), .join: 4
        case .objects: 3
        case .ignored: 5
        }
    }

    /// The class the summary counts the file's records under.
    var summaryClass: String {
        switch self {
        case .schema: "_schema"
        case .objects(let className): className
        case .join(let field, let owningClass): "_Join:\(field):\(owningClass)"
        case .ignored: ""
        }
    }
}
