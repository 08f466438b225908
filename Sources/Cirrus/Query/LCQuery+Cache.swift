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
        let session = application.currentUser?.sessionToken?.value ?? ""
        let parameters = request.parameters.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        return MD5.hex(request.path + "?" + parameters + "#" + session)
    }

    /// The reply of `request` under `policy`.
    func send(_ request: Request, policy: CachePolicy) async throws -> JSON {
        let cache = QueryCache(application: application)
        let key = cacheKey(request)
        let network: @Sendable () async throws -> JSON = {
            let reply = try await RESTClient(application: self.application).send("GET", request.path, query: request.parameters)
            if policy != .ignoreCache { cache.store(reply, key: key) }
            return reply
        }
        let cached = { cache.load(key, maxAge: self.maxCacheAge) }
        switch policy {
        case .ignoreCache, .onlyNetwork:
            return try await network()
        case .onlyCache:
            guard let reply = cached() else { throw LCError(code: 120, reason: "No cached result for this query.") }
            return reply
        case .cacheElseNetwork:
            if let reply = cached() { return reply }
            return try await network()
        case .networkElseCache:
            do {
                return try await network()
            } catch {
                guard let reply = cached() else { throw error }
                return reply
            }
        case .cacheThenNetwork:
            throw LCError.inconsistency("cacheThenNetwork calls back twice; use the completion-handler form.")
        }
    }
}
