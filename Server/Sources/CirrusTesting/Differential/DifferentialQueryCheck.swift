package import CirrusModel
import CirrusStorage

/// Runs generated conditions on generated objects through a store's SQL and through the in-memory evaluator
/// (``Condition/matches(_:resolver:)``), and describes every condition whose objects differ. The same check runs on
/// every store (Server/Tests/CirrusSQLiteTests and Server/Tests/CirrusPostgresTests), each on stores from its own
/// factory.
package struct DifferentialQueryCheck: Sendable {
    package static let objectCount = 200
    package static let conditionCount = 500

    /// Values at the edges of the stores' JSON functions: integers beyond 2^53, the largest integer, -0.0.
    package static let edgeNumbers: [JSON] = [
        9_007_199_254_740_993, 9_007_199_254_740_992.0, 9_007_199_254_740_992, .int(.max), 9_223_372_036_854_775_808.0, -0.0, 0,
    ]
    /// Strings with an embedded NUL character: SQLite's JSON functions cut them short, PostgreSQL's JSONB refuses them.
    package static let nulStrings: [JSON] = ["nul\u{0}x", "nul", "nul\u{0}y", ["nul\u{0}x"], ["nul"]]

    /// What one seed's run found.
    package struct Outcome: Sendable {
        /// One description per differing condition (at most 20).
        package var mismatches: [String]
        /// How many conditions selected some but not all objects: the comparison proves little unless many do.
        package var selective: Int
    }

    private let makeSubject: @Sendable () async throws -> StorageConformance.Subject

    /// A check over new, empty stores from `makeSubject`, one per run.
    package init(makeSubject: @escaping @Sendable () async throws -> StorageConformance.Subject) {
        self.makeSubject = makeSubject
    }

    /// Generates objects and conditions from `seed` and compares SQL with memory, with and without the class schema.
    package func run(seed: UInt64) async throws -> Outcome {
        try await withStore { store in
            var generator = DifferentialGenerator(seed: seed)
            let subjects = try await insertObjects(&generator, into: store)
            let ids = subjects.map(\.objectId)
            let resolver = try await insertOwners(&generator, members: ids, into: store)
            let schema = try await store.loadSchema(of: DifferentialGenerator.className)
            var outcome = Outcome(mismatches: [], selective: 0)
            for number in 0..<Self.conditionCount {
                let condition = generator.condition(ids: ids, geo: true, references: true)
                let expected = Set(subjects.filter { condition.matches($0, resolver: resolver) }.map(\.objectId))
                if !expected.isEmpty, expected.count < subjects.count { outcome.selective += 1 }
                for (label, known) in [("schema", schema), ("no schema", nil)] {
                    let query = StorageQuery(className: DifferentialGenerator.className, schema: known, condition: condition, limit: 1000)
                    let found = Set(try await store.find(query).map(\.objectId))
                    guard found != expected, outcome.mismatches.count < 20 else { continue }
                    outcome.mismatches.append("""
                        seed \(seed), condition #\(number) (\(label)): \(condition)
                        only in SQL: \(describe(found.subtracting(expected), subjects))
                        only in memory: \(describe(expected.subtracting(found), subjects))
                        """)
                }
            }
            return outcome
        }
    }

    /// Stores one object per value in `values`, runs every comparison with `operand` both ways, and describes each
    /// condition whose results differ.
    /// - Throws: the store's error when it refuses one of the values.
    package func edgeMismatches(_ operand: JSON, among values: [JSON]) async throws -> [String] {
        try await withStore { store in
            let stamp = Timestamp(millisecondsSince1970: DifferentialGenerator.baseTime)
            let subjects = values.enumerated().map { index, value in
                ConditionSubject(className: "Edge", objectId: "e\(index)", createdAt: stamp, updatedAt: stamp, fields: ["v": value])
            }
            let commands = subjects.map { subject in
                let object = StoredObject(
                    className: "Edge", objectId: subject.objectId, createdAt: stamp, updatedAt: stamp, acl: nil, fields: subject.fields
                )
                return WriteCommand.insert(WriteCommand.Insert(object: object, relations: [], newFields: [:], maximumSize: 131_072))
            }
            try await Self.insert(commands, into: store)
            let value = try Value(wire: operand)
            let path = FieldPath(field: "v")
            let conditions: [Condition] = Condition.Comparison.allCases.map { .compare(path, $0, value) } + [
                .inList(path, [value], negated: false), .containsAll(path, [value]), .regex(path, pattern: "^nul$", options: ""),
            ]
            var mismatches: [String] = []
            for condition in conditions {
                let expected = Set(subjects.filter { condition.matches($0) }.map(\.objectId))
                let query = StorageQuery(className: "Edge", schema: nil, condition: condition, limit: 1000)
                let found = Set(try await store.find(query).map(\.objectId))
                if found != expected { mismatches.append("\(condition): SQL found \(found.sorted()), memory \(expected.sorted())") }
            }
            return mismatches
        }
    }

    /// Runs `body` on a prepared store from the factory (``StorageConformance/Subject/using(_:_:)``).
    private func withStore<T: Sendable>(_ body: (any StorageAdapter) async throws -> T) async throws -> T {
        try await StorageConformance.Subject.using(makeSubject, body)
    }

    /// Inserts the generated objects in one transaction, recording the types of the typed fields.
    private func insertObjects(_ generator: inout DifferentialGenerator, into store: any StorageAdapter) async throws -> [ConditionSubject] {
        var subjects: [ConditionSubject] = []
        var commands: [WriteCommand] = []
        for index in 0..<Self.objectCount {
            let fields = generator.fields()
            let stamp = Timestamp(millisecondsSince1970: DifferentialGenerator.baseTime + Int64(index) * 1000)
            let id = "id" + String(repeating: "0", count: 4 - String(index).count) + String(index)
            let object = StoredObject(
                className: DifferentialGenerator.className, objectId: id, createdAt: stamp, updatedAt: stamp, acl: nil, fields: fields
            )
            let types = DifferentialGenerator.typedFields.filter { field, _ in fields[field].map { !$0.isNull } ?? false }
            commands.append(.insert(WriteCommand.Insert(object: object, relations: [], newFields: types, maximumSize: 131_072)))
            subjects.append(ConditionSubject(className: object.className, objectId: id, createdAt: stamp, updatedAt: stamp, fields: fields))
        }
        try await Self.insert(commands, into: store)
        return subjects
    }

    /// Inserts the owners that pointers, sub-queries and relations reach, and returns a resolver over them.
    private func insertOwners(_ generator: inout DifferentialGenerator, members ids: [String], into store: any StorageAdapter) async throws
        -> OwnerResolver
    {
        var owners: [ConditionSubject] = []
        var relations: [Pointer: [String: Set<Pointer>]] = [:]
        var commands: [WriteCommand] = []
        for (index, id) in DifferentialGenerator.ownerIds.enumerated() {
            let fields = generator.ownerFields()
            let members = generator.members(of: ids)
            let stamp = Timestamp(millisecondsSince1970: DifferentialGenerator.baseTime + Int64(index) * 1000)
            let object = StoredObject(
                className: DifferentialGenerator.ownerClass, objectId: id, createdAt: stamp, updatedAt: stamp, acl: nil, fields: fields
            )
            commands.append(.insert(WriteCommand.Insert(
                object: object, relations: [(field: "members", add: members)], newFields: DifferentialGenerator.ownerTypes, maximumSize: 131_072
            )))
            owners.append(ConditionSubject(className: object.className, objectId: id, createdAt: stamp, updatedAt: stamp, fields: fields))
            relations[Pointer(className: object.className, objectId: id)] = ["members": Set(members)]
        }
        try await Self.insert(commands, into: store)
        return OwnerResolver(owners: owners, relations: relations)
    }

    private static func insert(_ commands: [WriteCommand], into store: any StorageAdapter) async throws {
        for result in try await store.perform(commands, atomically: true) {
            if case .failure(let error) = result { throw error }
        }
    }

    /// The ids with their documents, to show why they differ.
    private func describe(_ ids: Set<String>, _ subjects: [ConditionSubject]) -> String {
        guard !ids.isEmpty else { return "none" }
        return subjects.filter { ids.contains($0.objectId) }.prefix(5).map { "\($0.objectId) \(JSONWriter.string(.object($0.fields)))" }
            .joined(separator: "\n  ")
    }
}
