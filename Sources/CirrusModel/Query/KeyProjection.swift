/// Applies `keys` (`a,b.c,-d`) to an object's members; built-in keys stay unless excluded.
public enum KeyProjection {
    public static let alwaysKept: Set<String> = ["objectId", "createdAt", "updatedAt", WireType.key, "className"]

    public static func apply(_ selection: KeySelection, to members: inout [String: JSON]) {
        if !selection.included.isEmpty { keep(selection.included.map(\.segments), in: &members) }
        for path in selection.excluded { remove(path.segments[...], from: &members) }
    }

    private static func keep(_ paths: [[String]], in members: inout [String: JSON]) {
        var byRoot: [String: [[String]]] = [:]
        for path in paths { byRoot[path[0], default: []].append(Array(path.dropFirst())) }
        for key in Array(members.keys) where byRoot[key] == nil && !alwaysKept.contains(key) {
            members.removeValue(forKey: key)
        }
        for (root, tails) in byRoot where !tails.contains(where: \.isEmpty) {
            guard case .object(var nested) = members[root] else { continue }
            keep(tails, in: &nested)
            members[root] = .object(nested)
        }
    }

    private static func remove(_ path: ArraySlice<String>, from members: inout [String: JSON]) {
        guard let first = path.first else { return }
        if path.count == 1 {
            members.removeValue(forKey: first)
        } else if case .object(var nested) = members[first] {
            remove(path.dropFirst(), from: &nested)
            members[first] = .object(nested)
        }
    }
}
