import CirrusModel
public import Foundation

extension LCQuery {
    /// The objects matching the query.
    /// - Parameter cachePolicy: how the result cache is used; `nil` for the query's ``cachePolicy``.
    public func find(cachePolicy: CachePolicy? = nil) async throws -> [LCObject] {
        try await find(limit: nil, policy: cachePolicy ?? self.cachePolicy)
    }

    /// The first object matching the query.
    /// - Throws: `LCError` 101 when none matches.
    public func getFirst(cachePolicy: CachePolicy? = nil) async throws -> LCObject {
        guard let first = try await find(limit: 1, policy: cachePolicy ?? self.cachePolicy).first else { throw LCError.objectNotFound() }
        return first
    }

    /// The object with `objectId`, with the query's keys and includes.
    /// - Throws: `LCError` 101 when it does not exist or may not be read.
    public func get(_ objectId: (any LCStringConvertible)?, cachePolicy: CachePolicy? = nil) async throws -> LCObject {
        guard let id = objectId?.lcString.value, !id.isEmpty else { throw LCError.inconsistency("get needs an objectId.") }
        let request = Request(path: "/classes/\(className)/\(id)", parameters: fetchParameters)
        let reply = try await send(request, policy: cachePolicy ?? self.cachePolicy)
        let object = ObjectRegistry.make(application: application, className: className)
        try object.didFetch(reply)
        return object
    }

    /// How many objects match the query.
    public func count(cachePolicy: CachePolicy? = nil) async throws -> Int {
        let request = Request(path: "/classes/\(className)", parameters: parameters(count: true))
        let reply = try await send(request, policy: cachePolicy ?? self.cachePolicy)
        guard let count = reply["count"]?.intValue else { throw LCError.malformed("The count reply has no count.") }
        return Int(count)
    }

    /// A `GET` of the query: its path and parameters.
    struct Request: Sendable {
        let path: String
        let parameters: [(String, String)]
    }

    private func find(limit: Int?, policy: CachePolicy) async throws -> [LCObject] {
        let reply = try await send(Request(path: "/classes/\(className)", parameters: parameters(limit: limit)), policy: policy)
        guard let results = reply["results"]?.arrayValue else { throw LCError.malformed("The find reply has no results.") }
        let decoder = ObjectDecoder(application: application)
        let resultClass = reply["className"]?.stringValue ?? className
        return results.map { decoder.object($0, className: resultClass) }
    }
}

// The completion-handler and blocking forms of LCQuery's calls.
extension LCQuery {
    /// Finds the matching objects; `completion` gets `.success(objects:)` or `.failure(error:)` on `completionQueue`
    /// (twice for ``CachePolicy/cacheThenNetwork`` when a cached result exists: the cached one, then the network's).
    @discardableResult
    public func find(
        cachePolicy: CachePolicy? = nil, completionQueue: DispatchQueue = .main, completion: @escaping (LCQueryResult<LCObject>) -> Void
    ) -> LCRequest {
        start(cachePolicy, completionQueue, completion) { try await self.find(cachePolicy: $0) }
    }

    /// Finds the matching objects, blocking the calling thread.
    public func find(cachePolicy: CachePolicy? = nil) -> LCQueryResult<LCObject> {
        Call.wait { try await self.find(cachePolicy: cachePolicy) }
    }

    /// Gets the first matching object; `completion` gets `.success(object:)` or `.failure(error:)`.
    @discardableResult
    public func getFirst(
        cachePolicy: CachePolicy? = nil, completionQueue: DispatchQueue = .main, completion: @escaping (LCValueResult<LCObject>) -> Void
    ) -> LCRequest {
        start(cachePolicy, completionQueue, completion) { try await self.getFirst(cachePolicy: $0) }
    }

    /// Gets the first matching object, blocking the calling thread.
    public func getFirst(cachePolicy: CachePolicy? = nil) -> LCValueResult<LCObject> {
        Call.wait { try await self.getFirst(cachePolicy: cachePolicy) }
    }

    /// Gets the object with `objectId`; `completion` gets `.success(object:)` or `.failure(error:)`.
    @discardableResult
    public func get(
        _ objectId: (any LCStringConvertible)?, cachePolicy: CachePolicy? = nil, completionQueue: DispatchQueue = .main,
        completion: @escaping (LCValueResult<LCObject>) -> Void
    ) -> LCRequest {
        let id = objectId?.lcString
        return start(cachePolicy, completionQueue, completion) { try await self.get(id, cachePolicy: $0) }
    }

    /// Gets the object with `objectId`, blocking the calling thread.
    public func get(_ objectId: (any LCStringConvertible)?, cachePolicy: CachePolicy? = nil) -> LCValueResult<LCObject> {
        let id = objectId?.lcString
        return Call.wait { try await self.get(id, cachePolicy: cachePolicy) }
    }

    /// Counts the matching objects; `completion` gets `.success(count:)` or `.failure(error:)`.
    @discardableResult
    public func count(
        cachePolicy: CachePolicy? = nil, completionQueue: DispatchQueue = .main, completion: @escaping (LCCountResult) -> Void
    ) -> LCRequest {
        start(cachePolicy, completionQueue, completion) { try await self.count(cachePolicy: $0) }
    }

    /// Counts the matching objects, blocking the calling thread.
    public func count(cachePolicy: CachePolicy? = nil) -> LCCountResult {
        Call.wait { try await self.count(cachePolicy: cachePolicy) }
    }

    /// Starts `operation` under `policy` (the query's ``cachePolicy`` when `nil`).
    private func start<R: CallResult>(
        _ policy: CachePolicy?, _ queue: DispatchQueue, _ completion: @escaping (R) -> Void,
        _ operation: @escaping @Sendable (CachePolicy) async throws -> R.Success
    ) -> LCRequest {
        Call.start(policy: policy ?? cachePolicy, on: queue, completion: completion, operation)
    }
}
