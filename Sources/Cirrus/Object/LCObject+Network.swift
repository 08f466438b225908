extension LCObject {
    /// Saves the object's changes: `POST` when it is new, `PUT` with the changed fields and operations otherwise.
    /// New objects and files it points to are saved first.
    /// - Parameter options: ``SaveOption/query(_:)`` to save only when the object matches, ``SaveOption/fetchWhenSave``
    ///   to read back the saved values.
    /// - Throws: `LCError` with the server's code (305 when the query matched nothing).
    public func save(options: [SaveOption] = []) async throws {
        try await ObjectSaver(application: application).save(self, options: options)
    }

    /// Reads the object's fields from the server (all, or only `keys`), replacing the local values and discarding
    /// unsaved changes to them, as the LeanCloud guides say. Pointer fields among `keys` come back as the objects they
    /// point to (`include`), as `fetchInBackgroundWithKeys:` does.
    /// - Throws: `LCError` 101 when the object does not exist or may not be read.
    public func fetch(keys: [String]? = nil) async throws {
        let path = try BatchRequest.requirePath(self)
        var query: [(String, String)] = []
        if let keys, !keys.isEmpty { query = [("keys", keys.joined(separator: ",")), ("include", keys.joined(separator: ","))] }
        let reply = try await RESTClient(application: application).send("GET", path, query: query, session: sessionForRequests)
        try didFetch(reply, keys: keys)
    }

    /// Fetches the object unless its data is here already (``isDataAvailable``).
    public func fetchIfNeeded(keys: [String]? = nil) async throws {
        guard !isDataAvailable else { return }
        try await fetch(keys: keys)
    }

    /// Deletes the object on the server.
    public func delete() async throws {
        let path = try BatchRequest.requirePath(self)
        _ = try await RESTClient(application: application).send("DELETE", path, session: sessionForWrites)
    }

    /// Saves `objects` (and the new objects they point to) with batch requests.
    /// - Parameter options: apply to each of `objects`: ``SaveOption/fetchWhenSave`` reads back each one's saved
    ///   values, ``SaveOption/query(_:)`` saves each only when it matches (an object that does not fails with 305).
    /// - Throws: the first failed object's error; the others are saved.
    public static func save(_ objects: [LCObject], options: [SaveOption] = []) async throws {
        guard let application = objects.first?.application else { return }
        try await ObjectSaver(application: application).save(objects, options: options)
    }

    /// Deletes `objects` with one batch request.
    public static func delete(_ objects: [LCObject]) async throws {
        guard let application = objects.first?.application else { return }
        try await BatchRequest(application: application).delete(objects)
    }

    /// Fetches `objects` with one batch request.
    /// - Throws: `LCError` 101 for an object that does not exist; the others are fetched.
    public static func fetch(_ objects: [LCObject]) async throws {
        guard let application = objects.first?.application else { return }
        try await BatchRequest(application: application).fetch(objects)
    }
}
