import CirrusModel
import CirrusStorage

/// Drives a store the way the services do, with short helpers for the conformance checks: it builds
/// write commands from REST bodies, derives the field types they introduce, and reads objects back.
struct StorageConformanceDriver: Sendable {
    let store: any StorageAdapter

    /// The size limit used unless a check sets another.
    static let defaultMaximumSize = 131_072
    /// The time stamped on writes unless a check sets another.
    static let baseTime = Timestamp(millisecondsSince1970: 1_700_000_000_000)

    /// Which schema an update or query hands the store.
    enum SchemaChoice {
        /// The schema the store records now, as a fresh service cache would have it.
        case current
        /// No schema: a service that has never seen the class.
        case none
        /// Exactly this one, possibly stale.
        case given(ClassSchema)
    }

    // MARK: Writing

    /// The insert command for an object with `fields` (a JSON object in the REST encoding).
    func insertCommand(
        _ className: String, _ fields: JSON, id: String = ObjectID.make(.hex24), acl: JSON? = nil, createdAt: Timestamp = baseTime,
        relations: [(field: String, add: [Pointer])] = [], maximumSize: Int = defaultMaximumSize
    ) throws -> WriteCommand {
        let members = fields.objectValue ?? [:]
        var newFields: [String: FieldType] = [:]
        for (key, value) in members {
            if let type = try Value(wire: value).fieldType { newFields[key] = type }
        }
        for (field, targets) in relations {
            if let target = targets.first { newFields[field] = .relation(targetClass: target.className) }
        }
        let object = StoredObject(className: className, objectId: id, createdAt: createdAt, updatedAt: createdAt, acl: acl, fields: members)
        return .insert(WriteCommand.Insert(object: object, relations: relations, newFields: newFields, maximumSize: maximumSize))
    }

    /// Inserts an object and returns it as the store reported it.
    /// - Throws: ``ConformanceFailure`` when the store refuses it.
    @discardableResult
    func insert(
        _ className: String, _ fields: JSON, id: String = ObjectID.make(.hex24), acl: JSON? = nil, createdAt: Timestamp = baseTime,
        relations: [(field: String, add: [Pointer])] = [], fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) async throws -> StoredObject {
        let command = try insertCommand(className, fields, id: id, acl: acl, createdAt: createdAt, relations: relations)
        let result = try await perform(command)
        guard case .inserted(let object) = try verifySuccess(result, "inserting into \(className)", fileID: fileID, filePath: filePath, line: line) else {
            throw ConformanceFailure(message: "an insert did not report an inserted object", fileID: fileID, filePath: filePath, line: line, column: 1)
        }
        return object
    }

    /// The update command for a REST body such as `{"n":{"__op":"Increment"}}`.
    func updateCommand(
        _ className: String, _ objectId: String, _ body: JSON, condition: Condition? = nil, schema: SchemaChoice = .current,
        newFields: [String: FieldType]? = nil, updatedAt: Timestamp = Timestamp(millisecondsSince1970: baseTime.millisecondsSince1970 + 1000),
        maximumSize: Int = defaultMaximumSize
    ) async throws -> WriteCommand {
        let changes = try ObjectUpdate(body: body, isCreate: false)
        let known = try await resolve(schema, className)
        return .update(WriteCommand.Update(
            className: className, objectId: objectId, updatedAt: updatedAt, changes: changes, condition: condition, schema: known,
            newFields: newFields ?? Self.introducedTypes(changes, schema: known), maximumSize: maximumSize
        ))
    }

    /// Runs one update and returns the stored object after it, or the store's error.
    func update(
        _ className: String, _ objectId: String, _ body: JSON, condition: Condition? = nil, schema: SchemaChoice = .current,
        newFields: [String: FieldType]? = nil, maximumSize: Int = defaultMaximumSize
    ) async throws -> Result<StoredObject, StorageError> {
        let command = try await updateCommand(
            className, objectId, body, condition: condition, schema: schema, newFields: newFields, maximumSize: maximumSize
        )
        switch try await perform(command) {
        case .success(.updated(let object)): return .success(object)
        case .success(let other): throw StorageError.database("an update reported \(other)")
        case .failure(let error): return .failure(error)
        }
    }

    /// Runs an update that must succeed and returns the fields after it.
    @discardableResult
    func updated(
        _ className: String, _ objectId: String, _ body: JSON, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) async throws -> JSON {
        let result = try await update(className, objectId, body)
        let object = try verifySuccess(result, "updating \(className)/\(objectId) with \(JSONWriter.string(body))", fileID: fileID, filePath: filePath, line: line)
        return .object(object.fields)
    }

    /// The delete command for objects of a class.
    func deleteCommand(_ className: String, _ ids: [String], condition: Condition? = nil, schema: SchemaChoice = .current) async throws -> WriteCommand {
        .delete(WriteCommand.Delete(className: className, objectIds: ids, condition: condition, schema: try await resolve(schema, className)))
    }

    /// Runs one command alone.
    func perform(_ command: WriteCommand) async throws -> Result<WriteResult, StorageError> {
        let results = try await store.perform([command], atomically: false)
        guard results.count == 1 else { throw StorageError.database("perform returned \(results.count) results for one command") }
        return results[0]
    }

    /// The field types an update introduces that `schema` does not record, as ``WritePlanner`` computes them.
    static func introducedTypes(_ changes: ObjectUpdate, schema: ClassSchema?) -> [String: FieldType] {
        var types: [String: FieldType] = [:]
        for (path, operation) in changes.operations where schema?.type(of: path.root) == nil {
            let type: FieldType? = path.isNested ? (FieldPath.isIndex(path.segments[1]) ? .array : .object) : operation.fieldType
            if let type { types[path.root] = type }
        }
        return types
    }

    // MARK: Reading

    func resolve(_ choice: SchemaChoice, _ className: String) async throws -> ClassSchema? {
        switch choice {
        case .current: try await store.loadSchema(of: className)
        case .none: nil
        case .given(let schema): schema
        }
    }

    /// One object, or `nil`.
    func fetch(_ className: String, _ objectId: String) async throws -> StoredObject? {
        try await store.fetch(className: className, ids: [objectId]).first { $0.objectId == objectId }
    }

    /// The fields of an object that must exist, as one JSON object.
    func fields(_ className: String, _ objectId: String, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line) async throws -> JSON {
        guard let object = try await fetch(className, objectId) else {
            throw ConformanceFailure(message: "\(className)/\(objectId) is missing", fileID: fileID, filePath: filePath, line: line, column: 1)
        }
        return .object(object.fields)
    }

    /// The ids a query returns, in the store's order.
    func findIds(
        _ className: String, _ condition: Condition = .always, schema: SchemaChoice = .current, order: [SortKey] = [], limit: Int = 1000,
        skip: Int = 0
    ) async throws -> [String] {
        let query = StorageQuery(
            className: className, schema: try await resolve(schema, className), condition: condition, order: order, limit: limit, skip: skip
        )
        return try await store.find(query).map(\.objectId)
    }

    /// How many objects match.
    func count(_ className: String, _ condition: Condition = .always, schema: SchemaChoice = .current) async throws -> Int {
        try await store.count(StorageQuery(className: className, schema: try await resolve(schema, className), condition: condition))
    }
}

// MARK: Expectations

/// A failure with `message`, located where this is called.
func failure(_ message: String, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) -> ConformanceFailure {
    ConformanceFailure(message: message, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Fails the check with `message` unless `condition` holds.
func verify(
    _ condition: Bool, _ message: @autoclosure () -> String, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    column: Int = #column
) throws {
    guard condition else { throw ConformanceFailure(message: message(), fileID: fileID, filePath: filePath, line: line, column: column) }
}

/// Fails the check unless `actual == expected`, describing both.
func verifyEqual<T: Equatable>(
    _ actual: T, _ expected: T, _ what: @autoclosure () -> String, fileID: String = #fileID, filePath: String = #filePath,
    line: Int = #line, column: Int = #column
) throws {
    guard actual != expected else { return }
    throw ConformanceFailure(
        message: "\(what()): expected \(describe(expected)), got \(describe(actual))", fileID: fileID, filePath: filePath, line: line, column: column
    )
}

/// The success value, or a failure naming the store's error.
@discardableResult
func verifySuccess<T>(
    _ result: Result<T, StorageError>, _ what: @autoclosure () -> String, fileID: String = #fileID, filePath: String = #filePath,
    line: Int = #line, column: Int = #column
) throws -> T {
    switch result {
    case .success(let value): return value
    case .failure(let error):
        throw ConformanceFailure(message: "\(what()) failed: \(error)", fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

/// Fails unless the result is exactly the failure `expected`.
func verifyFailure<T>(
    _ result: Result<T, StorageError>, _ expected: StorageError, _ what: @autoclosure () -> String, fileID: String = #fileID,
    filePath: String = #filePath, line: Int = #line, column: Int = #column
) throws {
    switch result {
    case .success:
        throw ConformanceFailure(message: "\(what()): expected \(expected), but it succeeded", fileID: fileID, filePath: filePath, line: line, column: column)
    case .failure(let error):
        guard error != expected else { return }
        throw ConformanceFailure(message: "\(what()): expected \(expected), got \(error)", fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

/// JSON as its canonical text, everything else as Swift describes it.
func describe<T>(_ value: T) -> String {
    if let json = value as? JSON { return JSONWriter.string(json) }
    if let json = value as? JSON? { return json.map(JSONWriter.string) ?? "nil (absent)" }
    return String(describing: value)
}
