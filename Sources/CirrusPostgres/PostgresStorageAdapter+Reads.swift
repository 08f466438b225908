import CirrusModel
import CirrusSQL
import CirrusSQLAdapter
import CirrusStorage
import PostgresNIO

extension PostgresStorageAdapter {
    /// The `PSQLError`'s server message and code, which its own description hides.
    static func describe(_ error: PSQLError) -> String {
        guard let info = error.serverInfo else { return String(reflecting: error) }
        return "\(info[.sqlState] ?? "?"): \(info[.message] ?? "")" + (info[.detail].map { " (\($0))" } ?? "")
    }

    /// Runs a read on a pooled connection, turning database errors into ``StorageError``s that say what failed, and
    /// failures the request caused into their ``APIError``.
    func read<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await withConnection(body)
        } catch let error as PSQLError {
            if let refusal = Self.refusal(error) { throw refusal }
            throw StorageError.database(Self.describe(error))
        }
    }

    /// The client's error for a failure its request caused: a pattern PostgreSQL's regular expressions refuse (or
    /// find too complex), a statement too deep for its parser, arithmetic beyond the largest double, a statement
    /// past the statement timeout; `nil` otherwise.
    static func refusal(_ error: PSQLError) -> APIError? {
        switch error.serverInfo?[.sqlState] {
        case "2201B": APIError(.invalidQuery, "Invalid regular expression: \(error.serverInfo?[.message] ?? "").")
        case "54001": APIError(.queryTooComplex, "Query too complex: the statement is too deep for the database.")
        case "22003": .numberOutOfRange
        // query_canceled: by the statement timeout (or an operator's pg_cancel_backend).
        case "57014": .statementTimeout
        default: nil
        }
    }

    public func fetch(className: String, ids: [String]) async throws -> [StoredObject] {
        guard !ids.isEmpty else { return [] }
        return try await read { connection in
            guard let table = try await self.existingTable(for: className, connection) else { return [] }
            let statement = ObjectStatements(dialect: self.dialect, table: table).select(ids: ids)
            return try await self.rows(connection, statement).map { try StoredRow.decode($0, className: className).object }
        }
    }

    public func find(_ query: StorageQuery) async throws -> [StoredObject] {
        try await self.query { connection in
            guard let table = try await self.existingTable(for: query.className, connection) else { return [] }
            let statement = try await self.findStatement(query, table: table, connection)
            return try await self.rows(connection, statement).map { try StoredRow.decode($0, className: query.className).object }
        }
    }

    /// The statement ``find(_:)`` runs; without an explicit order, a `$nearSphere` query comes nearest first.
    func findStatement(_ query: StorageQuery, table: String, _ connection: PostgresConnection) async throws -> SQLFragment {
        let compiler = try await self.compiler(for: query, connection)
        let order = query.order.isEmpty ? compiler.nearOrder(query.condition).map { [$0] } ?? [] : compiler.orderTerms(query.order)
        return ObjectStatements(dialect: dialect, table: table).find(
            where: compiler.compileReadable(query.condition), order: order, limit: query.limit, skip: query.skip
        )
    }

    public func count(_ query: StorageQuery) async throws -> Int {
        try await self.query { connection in
            guard let table = try await self.existingTable(for: query.className, connection) else { return 0 }
            let compiler = try await self.compiler(for: query, connection)
            let statement = ObjectStatements(dialect: self.dialect, table: table).count(where: compiler.compileReadable(query.condition))
            return try await self.rows(connection, statement).first?.first?.integer.map(Int.init) ?? 0
        }
    }

    public func relationTargets(className: String, objectId: String, field: String) async throws -> [Pointer] {
        let statement = RegistryStatements(dialect: dialect).members(owner: className, field: field, objectId: objectId)
        return try await read { connection in
            try await self.rows(connection, statement).compactMap { row in
                guard let target = row[0].text, let id = row[1].text else { return nil }
                return Pointer(className: target, objectId: id)
            }
        }
    }

    public func relationMembers(ownerClass: String, field: String, after: RelationMember?, limit: Int) async throws -> [RelationMember] {
        let statement = RegistryStatements(dialect: dialect).allMembers(
            owner: ownerClass, field: field, after: after.map { ($0.owningId, $0.relatedId) }, limit: limit
        )
        return try await read { connection in
            try await self.rows(connection, statement).compactMap { row in
                guard let owner = row[0].text, let related = row[1].text else { return nil }
                return RelationMember(owningId: owner, relatedId: related)
            }
        }
    }

    /// The compiler for a query's condition, knowing the tables and schemas of the classes its sub-queries read.
    func compiler(for query: StorageQuery, _ connection: PostgresConnection) async throws -> ConditionCompiler {
        var tables = ClassTables()
        for className in query.condition.tableClassNames.sorted() {
            guard let table = try await existingTable(for: className, connection) else { continue }
            tables.record(className, table: table, schema: try await recordedSchema(of: className, connection))
        }
        return ConditionCompiler(dialect: dialect, schema: query.schema, className: query.className, tables: tables, readers: query.readers)
    }

    /// Bound parameters one statement may carry: PostgreSQL allows 65535.
    static let idsPerStatement = 30_000
    static let classesPerStatement = 400

    public func fetch(_ pointers: [Pointer], readers: [String]?) async throws -> [StoredObject] {
        var idsByClass: [String: Set<String>] = [:]
        for pointer in pointers { idsByClass[pointer.className, default: []].insert(pointer.objectId) }
        let requested = idsByClass.sorted { $0.key < $1.key }
        guard !requested.isEmpty else { return [] }
        return try await read { connection in
            var tables: [(className: String, table: String, ids: [String])] = []
            for (className, ids) in requested {
                guard let table = try await self.existingTable(for: className, connection) else { continue }
                tables.append((className, table, ids.sorted()))
            }
            var objects: [StoredObject] = []
            for chunk in FetchPart.statements(tables, idsPerStatement: Self.idsPerStatement, partsPerStatement: Self.classesPerStatement) {
                let statement = ObjectStatements.select(chunk.map { ($0.table, $0.ids) }, dialect: self.dialect, readers: readers)
                for row in try await self.rows(connection, statement) {
                    guard let part = row[5].integer.map(Int.init), chunk.indices.contains(part) else { continue }
                    objects.append(try StoredRow.decode(row, className: chunk[part].className).object)
                }
            }
            return objects
        }
    }

    public func aggregate(_ request: StorageAggregation) async throws -> [JSON] {
        let query = request.query
        return try await self.query { connection in
            guard let table = try await self.existingTable(for: query.className, connection) else { return [] }
            let condition = try await self.compiler(for: query, connection).compileReadable(query.condition)
            let compiler = AggregationCompiler(dialect: self.dialect, schema: query.schema, dayOffsetMinutes: request.dayOffsetMinutes)
            let statement = compiler.statement(request.aggregation, table: table, where: condition)
            return try await self.rows(connection, statement.sql).map { row in
                var members: [String: JSON] = [:]
                for (index, column) in statement.columns.enumerated() { members[column.key] = try column.decode(row[index]) }
                return .object(members)
            }
        }
    }
}

extension PostgresStorageAdapter {
    /// The lines of `EXPLAIN` for the statement ``find(_:)`` runs for `query`, planned with sequential scans
    /// disabled, so that the plan shows whether an index *can* answer the condition however few rows the table
    /// holds; empty when the class does not exist. For tests and diagnostics.
    package func queryPlan(for query: StorageQuery) async throws -> [String] {
        try await transaction { connection in
            guard let table = try await self.existingTable(for: query.className, connection) else { return [] }
            try await self.execute(connection, "SET LOCAL enable_seqscan = off")
            let statement = try await self.findStatement(query, table: table, connection)
            return try await self.rows(connection, SQLFragment("EXPLAIN ") + statement).compactMap { row in
                if case .text(let line)? = row.first { line } else { nil }
            }
        }
    }
}
