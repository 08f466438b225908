public import CirrusModel
public import CirrusStorage

/// Validation of writes, shared by single requests and batches.
extension ObjectService {
    /// Classes that clients may not write through the object API.
    static let protectedClasses: Set<String> = ["_User", "_Session"]

    func checkWritable(_ className: String) throws(APIError) {
        try ClassName.validate(className)
        if Self.protectedClasses.contains(className) {
            throw APIError(.forbidden, "\(className) objects are created through the user API, which this server does not offer yet.")
        }
    }

    /// Validates a create and builds its command.
    public func prepareCreate(_ className: String, body: JSON, options: WriteOptions, caller: Caller) async throws -> WriteCommand.Insert {
        try checkWritable(className)
        let update = try ObjectUpdate(body: body, isCreate: true, defaultOffsetMinutes: options.defaultOffsetMinutes)
        let schema = try await schemas.schema(of: className)
        let planner = WritePlanner(className: className, schema: schema, configuration: configuration)
        return try planner.insert(update, options: options, now: Timestamp.now())
    }

    /// Validates an update and builds its command; also returns the top-level keys it changes.
    /// - Throws: ``APIError`` ``APIError/Reason/classNotFound`` when the class does not exist.
    public func prepareUpdate(
        _ className: String, objectId: String, body: JSON, condition: Condition?, options: WriteOptions, caller: Caller
    ) async throws -> (WriteCommand.Update, [String]) {
        try checkWritable(className)
        try Self.checkObjectId(objectId)
        let update = try ObjectUpdate(body: body, isCreate: false, defaultOffsetMinutes: options.defaultOffsetMinutes)
        guard let schema = try await schemas.schema(of: className) else { throw Self.classNotFound(className) }
        let planner = WritePlanner(className: className, schema: schema, configuration: configuration)
        let command = try planner.update(objectId, update, condition: condition, now: Timestamp.now())
        var keys: [String] = []
        for (path, _) in update.operations where !keys.contains(path.root) { keys.append(path.root) }
        return (command, keys)
    }

    /// Validates a delete and builds its command.
    public func prepareDelete(_ className: String, objectIds: [String], condition: Condition?, caller: Caller) async throws -> WriteCommand.Delete {
        try checkWritable(className)
        guard !objectIds.isEmpty else { throw APIError(.missingObjectId, "An objectId is required.") }
        for id in objectIds { try Self.checkObjectId(id) }
        let schema = try await schemas.schema(of: className)
        return WriteCommand.Delete(className: className, objectIds: objectIds, condition: condition, schema: schema)
    }

    static func checkObjectId(_ id: String) throws(APIError) {
        guard ObjectID.isAcceptable(id) else { throw APIError(.missingObjectId, "Invalid objectId '\(id)'.") }
    }
}
