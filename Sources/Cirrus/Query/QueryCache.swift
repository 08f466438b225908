import CirrusModel
import Foundation

/// Query replies kept on disk, one file per key, in the app's cache directory
/// (``LCApplication/Configuration/queryCacheDirectory``). A file's modification date is the reply's age.
struct QueryCache: Sendable {
    let application: LCApplication

    private var directory: URL? {
        guard let id = application.id else { return nil }
        return (application.configuration.queryCacheDirectory ?? Self.defaultDirectory)
            .appendingPathComponent(id, isDirectory: true).appendingPathComponent("queries", isDirectory: true)
    }

    /// The cached reply of `key`, unless it is older than `maxAge` seconds.
    func load(_ key: String, maxAge: TimeInterval?) -> JSON? {
        guard let file = directory?.appendingPathComponent(key) else { return nil }
        if let maxAge {
            let modified = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.modificationDate] as? Date
            guard let modified, Date().timeIntervalSince(modified) <= maxAge else { return nil }
        }
        guard let data = try? Data(contentsOf: file) else { return nil }
        return try? JSONParser.parse(data)
    }

    /// Keeps `reply` under `key`, then trims the cache (``trim()``).
    func store(_ reply: JSON, key: String) {
        guard let directory else { return }
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? Data(JSONWriter.bytes(reply)).write(to: directory.appendingPathComponent(key), options: .atomic)
        trim()
    }

    /// Removes the entries older than ``LCApplication/Configuration/queryCacheLifetime``, then the oldest ones until
    /// the rest fit in ``LCApplication/Configuration/queryCacheSizeLimit``.
    func trim() {
        guard let directory else { return }
        let configuration = application.configuration
        let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey]
        guard let files = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys) else { return }
        var entries = files.compactMap { file -> (file: URL, modified: Date, size: Int)? in
            guard let values = try? file.resourceValues(forKeys: Set(keys)) else { return nil }
            return (file, values.contentModificationDate ?? .distantPast, values.fileSize ?? 0)
        }.sorted { $0.modified > $1.modified }
        if let lifetime = configuration.queryCacheLifetime {
            let oldest = Date().addingTimeInterval(-lifetime)
            for entry in entries where entry.modified < oldest { try? FileManager.default.removeItem(at: entry.file) }
            entries.removeAll { $0.modified < oldest }
        }
        var total = 0
        for entry in entries {
            total += entry.size
            if total > configuration.queryCacheSizeLimit { try? FileManager.default.removeItem(at: entry.file) }
        }
    }

    /// The reply under `policy`: from the cache (`key`, not older than `maxAge`), from `network` (whose reply is
    /// cached unless the policy is ``LCQuery/CachePolicy/ignoreCache``), or both in the policy's order.
    /// - Throws: `LCError` 120 when ``LCQuery/CachePolicy/onlyCache`` finds nothing; the network's error; an
    ///   inconsistency for ``LCQuery/CachePolicy/cacheThenNetwork``, which only completion handlers can take.
    func reply(
        key: String, policy: LCQuery.CachePolicy, maxAge: TimeInterval?, network: () async throws -> JSON
    ) async throws -> JSON {
        func fromNetwork() async throws -> JSON {
            let reply = try await network()
            if policy != .ignoreCache { store(reply, key: key) }
            return reply
        }
        switch policy {
        case .ignoreCache, .onlyNetwork:
            return try await fromNetwork()
        case .onlyCache:
            guard let reply = load(key, maxAge: maxAge) else { throw LCError(code: 120, reason: "No cached result for this query.") }
            return reply
        case .cacheElseNetwork:
            if let reply = load(key, maxAge: maxAge) { return reply }
            return try await fromNetwork()
        case .networkElseCache:
            do {
                return try await fromNetwork()
            } catch {
                guard let reply = load(key, maxAge: maxAge) else { throw error }
                return reply
            }
        case .cacheThenNetwork:
            throw LCError.inconsistency("cacheThenNetwork calls back twice; use the completion-handler form.")
        }
    }

    /// The key of a request: its path, parameters and the session it is made in.
    static func key(path: String, parameters: [(String, String)], session: String?) -> String {
        MD5.hex(path + "?" + parameters.map { "\($0.0)=\($0.1)" }.joined(separator: "&") + "#" + (session ?? ""))
    }

    func remove(_ key: String) {
        guard let file = directory?.appendingPathComponent(key) else { return }
        try? FileManager.default.removeItem(at: file)
    }

    func removeAll() {
        guard let directory else { return }
        try? FileManager.default.removeItem(at: directory)
    }

    /// The platform's caches directory (`~/Library/Caches` on Apple platforms, `$XDG_CACHE_HOME` or `~/.cache`
    /// elsewhere), then `cirrus`.
    static var defaultDirectory: URL {
        #if canImport(Darwin)
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first ?? FileManager.default.temporaryDirectory
        return caches.appendingPathComponent("cirrus", isDirectory: true)
        #else
        if let xdg = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("cirrus", isDirectory: true)
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/cirrus", isDirectory: true)
        #endif
    }
}
