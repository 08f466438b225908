import CirrusModel

/// One `POST /1.1/batch` request: its sub-requests, and the per-item replies.
struct BatchRequest {
    let application: LCApplication

    /// Saves each object with one sub-request, with the query parameters of its options (`params`).
    /// - Throws: the first item's error, after every successful item was recorded.
    func save(_ objects: [LCObject], options: [[LCObject.SaveOption]]? = nil) async throws {
        let sent = objects.map { $0.takeOperations() }
        let items = objects.indices.map { index in
            let request = objects[index].saveRequest(sent[index])
            return item(request.method, request.path, body: request.body, params: options?[index].parameters ?? [])
        }
        try await run(items) { index, reply in
            objects[index].didSave(reply)
        } failed: { index in
            objects[index].restoreOperations(sent[index])
        }
    }

    /// Deletes each object with one sub-request.
    func delete(_ objects: [LCObject]) async throws {
        let requests = try objects.map { try item("DELETE", Self.requirePath($0)) }
        try await run(requests) { _, _ in }
    }

    /// Fetches each object with one sub-request.
    func fetch(_ objects: [LCObject]) async throws {
        let requests = try objects.map { try item("GET", Self.requirePath($0)) }
        try await run(requests) { index, reply in try objects[index].didFetch(reply) }
    }

    private func item(_ method: String, _ path: String, body: JSON? = nil, params: [(String, String)] = []) -> JSON {
        var members: [String: JSON] = ["method": .string(method), "path": .string(RESTClient.prefix + path)]
        if let body { members["body"] = body }
        if !params.isEmpty {
            members["params"] = .object(Dictionary(params.map { ($0.0, JSON.string($0.1)) }, uniquingKeysWith: { _, last in last }))
        }
        return .object(members)
    }

    static func requirePath(_ object: LCObject) throws -> String {
        guard let path = object.objectEndpoint else { throw LCError.inconsistency("The object has no objectId.") }
        return path
    }

    /// Sends the sub-requests (none: no request) and hands each success to `record`, each failure (every item when the
    /// whole request fails) to `failed`.
    /// - Throws: the first failed item's error as an `LCError`.
    private func run(_ requests: [JSON], record: (Int, JSON) throws -> Void, failed: (Int) -> Void = { _ in }) async throws {
        guard !requests.isEmpty else { return }
        let reply: JSON
        do {
            reply = try await RESTClient(application: application).send("POST", "/batch", body: ["requests": .array(requests)])
        } catch {
            requests.indices.forEach(failed)
            throw error
        }
        guard let items = reply.arrayValue, items.count == requests.count else {
            requests.indices.forEach(failed)
            throw LCError.malformed("The batch reply does not hold one item per request.")
        }
        var firstError: (any Error)?
        for (index, item) in items.enumerated() {
            do {
                if let success = item["success"] {
                    try record(index, success)
                } else {
                    let error = item["error"]
                    throw LCError(code: error?["code"]?.intValue.map(Int.init) ?? 1, reason: error?["error"]?.stringValue)
                }
            } catch {
                failed(index)
                if firstError == nil { firstError = error }
            }
        }
        if let firstError { throw firstError }
    }
}
