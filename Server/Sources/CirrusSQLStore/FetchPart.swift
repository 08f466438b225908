/// The ids to read from one class table in a pointer fetch.
package struct FetchPart: Sendable {
    package let className: String
    package let table: String
    package let ids: [String]

    package init(className: String, table: String, ids: [String]) {
        self.className = className
        self.table = table
        self.ids = ids
    }

    /// The ids of each class, split into parts of at most `idsPerPart` ids, then grouped into statements of at most
    /// `partsPerStatement` parts and `idsPerStatement` bound ids: normally one statement for all of them.
    package static func statements(
        _ requested: [(className: String, table: String, ids: [String])], idsPerStatement: Int, partsPerStatement: Int
    ) -> [[FetchPart]] {
        var parts: [FetchPart] = []
        for (className, table, ids) in requested {
            for start in stride(from: 0, to: ids.count, by: idsPerStatement) {
                parts.append(FetchPart(className: className, table: table, ids: Array(ids[start..<min(start + idsPerStatement, ids.count)])))
            }
        }
        var statements: [[FetchPart]] = []
        var current: [FetchPart] = []
        var bound = 0
        for part in parts {
            if !current.isEmpty, current.count == partsPerStatement || bound + part.ids.count > idsPerStatement {
                statements.append(current)
                current = []
                bound = 0
            }
            current.append(part)
            bound += part.ids.count
        }
        if !current.isEmpty { statements.append(current) }
        return statements
    }
}
