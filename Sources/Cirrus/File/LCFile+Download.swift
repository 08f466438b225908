import CirrusModel
public import Foundation

/// Downloads, kept in the app's file cache: a file whose URL has not changed is downloaded once (seed 001 "文件下载",
/// 003, and `LCFileManager getDataOfFileInBackground:` of seed 002).
extension LCFile {
    /// Downloads the contents into the file cache (`<cache directory>/<app id>/files`, beside the query cache of
    /// ``LCApplication/Configuration/queryCacheDirectory``) unless they are there already, and returns the local file.
    /// - Parameter progress: called with the percentage received, 0 to 100 (100 at once for a cached file).
    /// - Throws: `LCError` for a file without a URL, a failed download (the HTTP status as its code) or a failed write.
    public func download(progress: (@Sendable (Int) -> Void)? = nil) async throws -> URL {
        guard let address = url?.value, let remote = URL(string: address) else { throw LCError.inconsistency("The file has no URL to download.") }
        let local = try FileCache(application: application).location(of: address, name: name?.value ?? remote.lastPathComponent)
        if FileManager.default.fileExists(atPath: local.path) {
            progress?(100)
            return local
        }
        progress?(0)
        var fractions: (@Sendable (Double) -> Void)?
        if let progress { fractions = { fraction in progress(Int((fraction * 100).rounded(.down))) } }
        let request = TransportRequest(method: "GET", url: remote, downloadProgress: fractions)
        let response: TransportResponse
        do {
            response = try await application.send(request)
        } catch {
            throw LCError(error: error)
        }
        guard (200..<300).contains(response.status) else {
            throw LCError(code: response.status, reason: "The download of \(address) failed with HTTP status \(response.status).")
        }
        do {
            try FileManager.default.createDirectory(at: local.deletingLastPathComponent(), withIntermediateDirectories: true)
            try response.body.write(to: local, options: .atomic)
        } catch {
            throw LCError(code: .underlyingError, reason: "The download could not be kept: \(error)", underlyingError: error)
        }
        progress?(100)
        return local
    }

    /// The contents, from the file cache or downloaded into it.
    public func getData(progress: (@Sendable (Int) -> Void)? = nil) async throws -> Data {
        let local = try await download(progress: progress)
        do {
            return try Data(contentsOf: local)
        } catch {
            throw LCError(code: .underlyingError, reason: "The cached file could not be read: \(error)", underlyingError: error)
        }
    }

    /// Removes this file's contents from the cache (`clearPersistentCache`); the next download fetches them again.
    public func clearPersistentCache() {
        guard let address = url?.value, let folder = try? FileCache(application: application).folder(of: address) else { return }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Removes every cached file of the app (`clearAllPersistentCache`).
    /// - Returns: whether the cache is empty afterwards.
    @discardableResult
    public static func clearAllPersistentCache(application: LCApplication = .default) -> Bool {
        guard let root = try? FileCache(application: application).root else { return false }
        try? FileManager.default.removeItem(at: root)
        return !FileManager.default.fileExists(atPath: root.path)
    }
}

/// Where downloaded files are kept: `<cache directory>/<app id>/files/<md5 of the URL>/<name>`, so that each URL has a
/// folder of its own and the file keeps its name (and extension).
struct FileCache {
    let application: LCApplication

    var root: URL {
        get throws {
            let settings = try application.requireSettings()
            return (settings.configuration.queryCacheDirectory ?? QueryCache.defaultDirectory)
                .appendingPathComponent(settings.id, isDirectory: true).appendingPathComponent("files", isDirectory: true)
        }
    }

    func folder(of url: String) throws -> URL {
        try root.appendingPathComponent(MD5.hex(url), isDirectory: true)
    }

    func location(of url: String, name: String) throws -> URL {
        let safe = name.replacingOccurrences(of: "/", with: "_")
        return try folder(of: url).appendingPathComponent(safe.isEmpty || safe == "." || safe == ".." ? "file" : safe)
    }
}

// The completion-handler and blocking forms of downloads.
extension LCFile {
    /// Downloads the file into the cache (`downloadWithProgress:completionHandler:`); `progress` gets the percentage
    /// on `completionQueue`, `completion` the local file's URL.
    @discardableResult
    public func download(
        progress: ((Int) -> Void)? = nil, completionQueue: DispatchQueue = .main, completion: @escaping (LCValueResult<URL>) -> Void
    ) -> LCRequest {
        let report = Self.onQueue(progress, completionQueue)
        return Call.start(on: completionQueue, completion: completion) { try await self.download(progress: report) }
    }

    /// Downloads the file into the cache, blocking the calling thread; `progress` is called on the thread the
    /// download reports from.
    public func download(progress: (@Sendable (Int) -> Void)? = nil) -> LCValueResult<URL> {
        Call.wait { try await self.download(progress: progress) }
    }

    /// The contents (`getDataOfFileInBackground:`); `completion` gets them on `completionQueue`.
    @discardableResult
    public func getData(
        progress: ((Int) -> Void)? = nil, completionQueue: DispatchQueue = .main, completion: @escaping (LCValueResult<Data>) -> Void
    ) -> LCRequest {
        let report = Self.onQueue(progress, completionQueue)
        return Call.start(on: completionQueue, completion: completion) { try await self.getData(progress: report) }
    }

    /// The contents, blocking the calling thread.
    public func getData(progress: (@Sendable (Int) -> Void)? = nil) -> LCValueResult<Data> {
        Call.wait { try await self.getData(progress: progress) }
    }

    /// A progress handler called on `queue`.
    private static func onQueue(_ progress: ((Int) -> Void)?, _ queue: DispatchQueue) -> (@Sendable (Int) -> Void)? {
        guard let progress else { return nil }
        let box = UncheckedBox(progress)
        return { percent in queue.async { box.value(percent) } }
    }
}
