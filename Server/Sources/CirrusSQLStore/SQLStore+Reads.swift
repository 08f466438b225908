package import CirrusModel
import CirrusSQL
package import CirrusStorage

/// Reads: objects by id and by pointer, queries, counts, aggregates, relation members.
extension SQLStore {
    /// The `SELECT`s one pointer fetch joins at most (SQLite allows 500 terms in a compound `SELECT`).
    static var classesPerStatement: Int { 400 }
    /// The ids one statement binds at most (SQLite allows 32766 parameters, PostgreSQL 65535).
    static var idsPerStatement: Int { 30_000 }

    package func fetch(className: String, ids: [String]) async throws -> [StoredObject] {
        guard !ids.isEmpty else { return [] }
        return try await reading(lookup: true) { session in
            guard let table = try await self.existingTable(for: className, session) else { return [] }
            let statement = ObjectStatements(dialect: self.dialect, table: table).select(ids: ids)
            return try await session.rows(statement).map { try StoredRow.decode($0, className: className).object }
        }
    }

    package func find(_ query: StorageQuery) async throws -> [StoredObject] {
        try await reading(replica: true) { session in
            guard let table = try await self.existingTable(for: query.className, session) else { return [] }
            let (statement, ranking) = try await self.findStatement(query, table: table, session)
            return try await session.rows(statement).map { row in
                guard let ranking else { return try StoredRow.decode(row, className: query.className).object }
                var object = try StoredRow.decode(Array(row.prefix(5)), className: query.className).object
                if let field = query.textScoreField { object.fields[field] = ranking.score(row).map(JSON.double) ?? .null }
                return object
            }
        }
    }

    /// The statement ``find(_:)`` runs; without an explicit order, a `$nearSphere` query comes nearest first.
    /// Only objects the query's readers may read are found. A query reading `$score` joins the scores of the class's
    /// search index (its rows then end with the score, which `ranking` reads).
    func findStatement(_ query: StorageQuery, table: String, _ session: Driver.Session) async throws -> (
        statement: SQLFragment, ranking: SearchStatements?
    ) {
        let compiler = try await self.compiler(for: query, session)
        let condition = compiler.compileReadable(query.condition)
        guard query.ranksText else {
            let order = query.order.isEmpty ? compiler.nearOrder(query.condition).map { [$0] } ?? [] : compiler.orderTerms(query.order)
            return (ObjectStatements(dialect: dialect, table: table).find(where: condition, order: order, limit: query.limit, skip: query.skip), nil)
        }
        let terms = query.condition.rankedTextTerms
        guard !terms.isEmpty, let statements = compiler.searchStatements else {
            throw APIError(.invalidQuery, "$score needs a $text condition on a field of \(query.className).")
        }
        let statement = statements.find(
            where: condition, rankedTerms: terms, visibleFields: statements.fields, order: compiler.orderTerms(query.order),
            limit: query.limit, skip: query.skip
        )
        return (statement, statements)
    }

    package func count(_ query: StorageQuery) async throws -> Int {
        try await reading(replica: true) { session in
            guard let table = try await self.existingTable(for: query.className, session) else { return 0 }
            let compiler = try await self.compiler(for: query, session)
            let statement = ObjectStatements(dialect: self.dialect, table: table).count(where: compiler.compileReadable(query.condition))
            return try await session.rows(statement).first?.first?.integer.map(Int.init) ?? 0
        }
    }

    package func aggregate(_ request: StorageAggregation) async throws -> [JSON] {
        let query = request.query
        return try await reading(replica: true) { session in
            guard let table = try await self.existingTable(for: query.className, session) else { return [] }
            let condition = try await self.compiler(for: query, session).compileReadable(query.condition)
            let compiler = AggregationCompiler(dialect: self.dialect, schema: query.schema, dayOffsetMinutes: request.dayOffsetMinutes)
            let statement = compiler.statement(request.aggregation, table: table, where: condition)
            return try await session.rows(statement.sql).map { row in
                var members: [String: JSON] = [:]
                for (index, column) in statement.columns.enumerated() { members[column.key] = try column.decode(row[index]) }
                return .object(members)
            }
        }
    }

    /// The compiler for a query's condition: it knows the tables and recorded schemas of the classes the query's
    /// sub-queries and relation owners read (classes that do not exist are left out), and the query's readers.
    func compiler(for query: StorageQuery, _ session: Driver.Session) async throws -> ConditionCompiler {
        var tables = ClassTables()
        for className in query.condition.tableClassNames.sorted() {
            guard let table = try await existingTable(for: className, session) else { continue }
            tables.record(className, table: table, schema: try await recordedSchema(of: className, session))
        }
        if query.condition.hasTextSearch, let table = try await existingTable(for: query.className, session) {
            tables.record(query.className, table: table, schema: query.schema)
        }
        try query.condition.checkTextSearchable(in: query.className) { $0 == query.className ? query.schema : tables.entry(for: $0)?.schema }
        return ConditionCompiler(dialect: dialect, schema: query.schema, className: query.className, tables: tables, readers: query.readers)
    }

    package func fetch(_ pointers: [Pointer], readers: [String]?) async throws -> [StoredObject] {
        var idsByClass: [String: Set<String>] = [:]
        for pointer in pointers { idsByClass[pointer.className, default: []].insert(pointer.objectId) }
        let requested = idsByClass.sorted { $0.key < $1.key }
        guard !requested.isEmpty else { return [] }
        return try await reading(lookup: true) { session in
            var tables: [(className: String, table: String, ids: [String])] = []
            for (className, ids) in requested {
                guard let table = try await self.existingTable(for: className, session) else { continue }
                tables.append((className, table, ids.sorted()))
            }
            var objects: [StoredObject] = []
            for chunk in FetchPart.statements(tables, idsPerStatement: Self.idsPerStatement, partsPerStatement: Self.classesPerStatement) {
                let statement = ObjectStatements.select(chunk.map { ($0.table, $0.ids) }, dialect: self.dialect, readers: readers)
                for row in try await session.rows(statement) {
                    guard let part = row[5].integer.map(Int.init), chunk.indices.contains(part) else { continue }
                    objects.append(try StoredRow.decode(row, className: chunk[part].className).object)
                }
            }
            return objects
        }
    }

    package func relationTargets(className: String, objectId: String, field: String) async throws -> [Pointer] {
        let statement = registry.members(owner: className, field: field, objectId: objectId)
        return try await reading { session in
            try await session.rows(statement).compactMap { row in
                guard let target = row[0].text, let id = row[1].text else { return nil }
                return Pointer(className: target, objectId: id)
            }
        }
    }

    package func relationMembers(ownerClass: String, field: String, after: RelationMember?, limit: Int) async throws -> [RelationMember] {
        let statement = registry.allMembers(owner: ownerClass, field: field, after: after.map { ($0.owningId, $0.relatedId) }, limit: limit)
        return try await reading { session in
            try await session.rows(statement).compactMap { row in
                guard let owner = row[0].text, let related = row[1].text else { return nil }
                return RelationMember(owningId: owner, relatedId: related)
            }
        }
    }

    /// The plan the database chooses for the statement ``find(_:)`` runs for `query`, a line per step, told to prefer
    /// indexes (``SQLDialect/queryPlan(of:)``): whether an index *can* answer the condition however few rows the
    /// table holds. Empty when the class does not exist. For tests and diagnostics.
    package func queryPlan(for query: StorageQuery) async throws -> [String] {
        try await writing { session in
            guard let table = try await self.existingTable(for: query.className, session) else { return [] }
            let plan = self.dialect.queryPlan(of: try await self.findStatement(query, table: table, session).statement)
            for statement in plan.setup { _ = try await session.rows(statement) }
            return try await session.rows(plan.explain).compactMap { $0[plan.detailColumn].text }
        }
    }
}
