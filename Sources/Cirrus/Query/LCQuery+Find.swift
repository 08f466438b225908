import CirrusModel
import Foundation

extension LCQuery {
    /// The objects matching the query.
    public func find() async throws -> [LCObject] {
        try await find(limit: nil)
    }

    /// The first object matching the query.
    /// - Throws: `LCError` 101 when none matches.
    public func getFirst() async throws -> LCObject {
        guard let first = try await find(limit: 1).first else { throw LCError.objectNotFound() }
        return first
    }

    /// The object with `objectId`, with the query's keys and includes.
    /// - Throws: `LCError` 101 when it does not exist or may not be read.
    public func get(_ objectId: String) async throws -> LCObject {
        let reply = try await client.send("GET", "/classes/\(className)/\(objectId)", query: fetchParameters)
        let object = ObjectRegistry.make(application: application, className: className)
        try object.didFetch(reply)
        return object
    }

    /// How many objects match the query.
    public func count() async throws -> Int {
        let reply = try await client.send("GET", "/classes/\(className)", query: parameters(count: true))
        guard let count = reply["count"]?.intValue else { throw LCError.malformed("The count reply has no count.") }
        return Int(count)
    }

    private var client: RESTClient { RESTClient(application: application) }

    private func find(limit: Int?) async throws -> [LCObject] {
        let reply = try await client.send("GET", "/classes/\(className)", query: parameters(limit: limit))
        guard let results = reply["results"]?.arrayValue else { throw LCError.malformed("The find reply has no results.") }
        let decoder = ObjectDecoder(application: application)
        let resultClass = reply["className"]?.stringValue ?? className
        return results.map { decoder.object($0, className: resultClass) }
    }
}

// The completion-handler and blocking forms of LCQuery's calls.
extension LCQuery {
    /// Finds the matching objects; `completion` gets `.success(objects:)` or `.failure(error:)` on `completionQueue`.
    @discardableResult
    public func find(completionQueue: DispatchQueue = .main, completion: @escaping (LCQueryResult<LCObject>) -> Void) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await self.find() }
    }

    /// Finds the matching objects, blocking the calling thread.
    public func find() -> LCQueryResult<LCObject> {
        Call.wait { try await self.find() }
    }

    /// Gets the first matching object; `completion` gets `.success(object:)` or `.failure(error:)`.
    @discardableResult
    public func getFirst(completionQueue: DispatchQueue = .main, completion: @escaping (LCValueResult<LCObject>) -> Void) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await self.getFirst() }
    }

    /// Gets the first matching object, blocking the calling thread.
    public func getFirst() -> LCValueResult<LCObject> {
        Call.wait { try await self.getFirst() }
    }

    /// Gets the object with `objectId`; `completion` gets `.success(object:)` or `.failure(error:)`.
    @discardableResult
    public func get(
        _ objectId: String, completionQueue: DispatchQueue = .main, completion: @escaping (LCValueResult<LCObject>) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await self.get(objectId) }
    }

    /// Gets the object with `objectId`, blocking the calling thread.
    public func get(_ objectId: String) -> LCValueResult<LCObject> {
        Call.wait { try await self.get(objectId) }
    }

    /// Counts the matching objects; `completion` gets `.success(count:)` or `.failure(error:)`.
    @discardableResult
    public func count(completionQueue: DispatchQueue = .main, completion: @escaping (LCCountResult) -> Void) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await self.count() }
    }

    /// Counts the matching objects, blocking the calling thread.
    public func count() -> LCCountResult {
        Call.wait { try await self.count() }
    }
}
