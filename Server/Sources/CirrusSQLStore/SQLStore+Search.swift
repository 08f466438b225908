import CirrusModel
import CirrusSQL
package import CirrusStorage

/// In-app search over the classes' search indexes.
extension SQLStore {
    /// The objects a rebuild reads and indexes per transaction.
    static var searchRebuildPage: Int { 500 }

    package func search(_ search: StorageSearch) async throws -> (hits: Int, objects: [StoredObject]) {
        try await reading(replica: true) { session in
            guard let table = try await self.existingTable(for: search.className, session) else { return (0, []) }
            let query = StorageQuery(className: search.className, schema: search.schema, condition: .always, order: search.order, readers: search.readers)
            let compiler = try await self.compiler(for: query, session)
            let statements = SearchStatements(dialect: self.dialect, table: table, fields: search.fields)
            let matching = try statements.condition(search.query, visibleFields: search.visibleFields, otherFields: search.otherFields, compiler: compiler)
            let condition: SQLFragment = "(" + matching + ") AND (" + compiler.compileReadable(.always) + ")"
            let countStatement = statements.count(where: condition)
            func counted() async throws -> Int { try await session.rows(countStatement).first?.first?.integer.map(Int.init) ?? 0 }
            guard search.limit > 0 else { return (try await counted(), []) }
            let statement = statements.find(
                where: condition, rankedTerms: search.query.positiveTerms, visibleFields: search.visibleFields,
                order: search.near.map { compiler.distanceOrder($0.path, from: $0.point, descending: $0.descending) } ?? compiler.orderTerms(search.order),
                limit: search.limit, skip: search.skip
            )
            let objects = try await session.rows(statement).map { try StoredRow.decode(Array($0.prefix(5)), className: search.className).object }
            // A short page that holds something (or starts at the first hit) is the last one: it tells the number of
            // hits without counting them again, which halves a rare term's work.
            if objects.count < search.limit, !objects.isEmpty || search.skip == 0 { return (search.skip + objects.count, objects) }
            return (try await counted(), objects)
        }
    }

    package func rebuildSearchIndex(className: String, fields: [String]?) async throws -> Int {
        guard let table = try await reading(lookup: false, { try await self.existingTable(for: className, $0) }) else {
            return 0
        }
        let statements = SearchStatements(dialect: dialect, table: table, fields: fields ?? [])
        try await writing { session in
            for statement in statements.drop { try await session.execute("\(raw: statement)") }
            if fields != nil { for statement in statements.create { try await session.execute("\(raw: statement)") } }
        }
        guard fields != nil else { return 0 }
        var indexed = 0
        var after: String?
        while true {
            let pageStatement = statements.page(after: after, limit: Self.searchRebuildPage)
            let page = try await writing { session -> [StoredObject] in
                let objects = try await session.rows(pageStatement)
                    .map { try StoredRow.decode($0, className: className).object }
                for object in objects {
                    for statement in statements.upsert(id: object.objectId, document: object.fields) { try await session.execute(statement) }
                }
                return objects
            }
            indexed += page.count
            guard page.count == Self.searchRebuildPage, let last = page.last else { return indexed }
            after = last.objectId
        }
    }
}
