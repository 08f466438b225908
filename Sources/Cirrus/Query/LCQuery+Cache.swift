import CirrusModel
import Foundation

extension LCQuery {
    /// How a find, `get`, `getFirst` or `count` uses the result cache, kept on disk per app.
    public enum CachePolicy: Sendable, Hashable {
        /// The network only; the cache is neither read nor written (the default).
        case ignoreCache
        /// The network only; the result is cached.
        case onlyNetwork
        /// The cache only; no cached result (or one older than ``LCQuery/maxCacheAge``) fails with `LCError` 120.
        case onlyCache
        /// The cache, else the network (whose result is cached).
        case cacheElseNetwork
        /// The network (whose result is cached), else the cache; the network's error when both fail.
        case networkElseCache
        /// The cached result, then the network's: completion handlers are called twice. The `async` and blocking
        /// forms refuse it.
        case cacheThenNetwork
    }

    /// Whether a cached result (not older than ``maxCacheAge``) exists for the query's find.
    public func hasCachedResult() -> Bool {
        QueryCache(application: application).load(cacheKey(findRequest), maxAge: maxCacheAge) != nil
    }

    /// Removes the cached result of the query's find.
    public func clearCachedResult() {
        QueryCache(application: application).remove(cacheKey(findRequest))
    }

    /// Removes every cached query result of `application`.
    public static func clearAllCachedResults(application: LCApplication = .default) {
        QueryCache(application: application).removeAll()
    }

    private var findRequest: Request { Request(path: "/classes/\(className)", parameters: parameters(limit: nil)) }

    /// The cache key of a request: its path, parameters and the session it is made in.
    private func cacheKey(_ request: Request) -> String {
        QueryCache.key(path: request.path, parameters: request.parameters, session: application.currentUser?.sessionToken?.value)
    }

    /// The reply of `request` under `policy`.
    func send(_ request: Request, policy: CachePolicy) async throws -> JSON {
        try await QueryCache(application: application).reply(key: cacheKey(request), policy: policy, maxAge: maxCacheAge) {
            try await RESTClient(application: self.application).send("GET", request.path, query: request.parameters)
        }
    }
}

extension Call {
    /// Starts `operation` under `policy` with a completion handler; ``LCQuery/CachePolicy/cacheThenNetwork`` runs
    /// it from the cache first (a result is handed over only if there is one), then from the network.
    static func start<R: CallResult>(
        policy: LCQuery.CachePolicy, on queue: DispatchQueue, completion: @escaping (R) -> Void,
        _ operation: @escaping @Sendable (LCQuery.CachePolicy) async throws -> R.Success
    ) -> LCRequest {
        guard policy == .cacheThenNetwork else { return start(on: queue, completion: completion) { try await operation(policy) } }
        let handler = UncheckedBox(completion)
        let pending = PendingCalls.current
        pending?.begin()
        return LCRequest(task: Task {
            if let cached = try? await operation(.onlyCache) {
                deliver(R(success: cached), to: handler, on: queue, pending: pending, last: false)
            }
            let result = await run(R.self) { try await operation(.onlyNetwork) }
            deliver(result, to: handler, on: queue, pending: pending, last: true)
        })
    }
}
