import CirrusModel
import Foundation

/// The app's offline queue of ``LCObject/saveEventually()`` and ``LCObject/deleteEventually()`` (seed 001 "离线存储对象"):
/// each call becomes a request kept on disk (beside the current user, ``LCApplication/CurrentUserStorage``), and the
/// requests are sent one at a time, in the order of the calls, until each has an answer from the server. A request the
/// network or a server error (5xx) stopped is tried again after ``LCApplication/Configuration/eventuallyRetryInterval``;
/// one the server refused (a 4xx error code) is dropped, its error handed to its waiters and logged. Requests left
/// when the app quits are sent after its next start, as soon as the app is set up.
///
/// New objects are created by their first request; later requests for them (and pointers to them) name them by a local
/// id, `@local:<uuid>`, which the queue replaces with the server's objectId once the create was answered (kept on disk
/// too, so that it survives a restart).
final class EventuallyQueue: @unchecked Sendable {
    /// One queued request.
    struct Command: Sendable {
        var sequence: Int
        var method: String
        var path: String
        var body: JSON?
        /// The session token the request carries (taken when it was queued).
        var session: String?
        /// The local id of the object a create makes, to map it to its objectId.
        var creates: String?

        var json: JSON {
            var members: [String: JSON] = ["sequence": .int(Int64(sequence)), "method": .string(method), "path": .string(path)]
            if let body { members["body"] = body }
            if let session { members["session"] = .string(session) }
            if let creates { members["creates"] = .string(creates) }
            return .object(members)
        }

        init(sequence: Int, method: String, path: String, body: JSON?, session: String?, creates: String?) {
            self.sequence = sequence
            self.method = method
            self.path = path
            self.body = body
            self.session = session
            self.creates = creates
        }

        init?(json: JSON) {
            guard let sequence = json["sequence"]?.intValue, let method = json["method"]?.stringValue, let path = json["path"]?.stringValue else {
                return nil
            }
            self.init(
                sequence: Int(sequence), method: method, path: path, body: json["body"], session: json["session"]?.stringValue,
                creates: json["creates"]?.stringValue
            )
        }
    }

    /// What waits for a command in this process: the object it saves (to take the reply) and the callers to tell.
    private struct Pending {
        weak var object: LCObject?
        var operations: [String: Operation]
        var waiters: [@Sendable (LCError?) -> Void] = []
    }

    /// The prefix of a local id where an objectId goes.
    static let localPrefix = "@local:"

    private let lock = Lock()
    private weak var application: LCApplication?
    /// Where the commands and the id map are kept; `nil` keeps them in memory (``LCApplication/CurrentUserStorage/none``).
    let directory: URL?
    private var commands: [Command] = []
    private var ids: [String: String] = [:]
    private var pending: [Int: Pending] = [:]
    private var nextSequence = 1
    private var draining: Task<Void, Never>?
    private var wake: CheckedContinuation<Void, Never>?
    private var stopped = false

    init(application: LCApplication?, directory: URL?) {
        self.application = application
        self.directory = directory
        load()
    }

    /// The directory of an app's queue under `storage`.
    static func directory(storage: LCApplication.CurrentUserStorage, appId: String) -> URL? {
        switch storage {
        case .none: nil
        case .directory(let root): root.appendingPathComponent(appId, isDirectory: true).appendingPathComponent("eventually", isDirectory: true)
        case .automatic:
            CurrentUserStore.dataDirectory.appendingPathComponent(appId, isDirectory: true).appendingPathComponent("eventually", isDirectory: true)
        }
    }

    /// How many requests wait to be sent.
    var count: Int { lock.withLock { commands.count } }

    // MARK: Queueing

    /// Queues a request, after every one queued before it, and starts sending if it is not.
    /// - Parameters:
    ///   - object: the object the request saves, which takes its reply; `operations` go back to it if it is dropped.
    /// - Returns: the request's sequence number, to wait for it.
    @discardableResult
    func enqueue(
        method: String, path: String, body: JSON?, session: String?, creates: String?, object: LCObject?, operations: [String: Operation]
    ) throws -> Int {
        let command = try lock.withLock { () throws -> Command in
            let command = Command(sequence: nextSequence, method: method, path: path, body: body, session: session, creates: creates)
            try write(command)
            nextSequence += 1
            commands.append(command)
            pending[command.sequence] = Pending(object: object, operations: operations)
            return command
        }
        LCApplication.log(.debug, "queued for later: \(command.method) \(command.path) (#\(command.sequence))")
        start()
        return command.sequence
    }

    /// Calls `done` once request `sequence` was answered (`nil`) or dropped (its error); at once when it is not queued.
    func whenDone(_ sequence: Int, _ done: @escaping @Sendable (LCError?) -> Void) {
        let queued = lock.withLock { () -> Bool in
            guard pending[sequence] != nil else { return false }
            pending[sequence]?.waiters.append(done)
            return true
        }
        if !queued { done(nil) }
    }

    /// Waits until request `sequence` was answered.
    /// - Throws: the server's error when it refused the request.
    func wait(for sequence: Int) async throws {
        let error: LCError? = await withCheckedContinuation { continuation in whenDone(sequence) { continuation.resume(returning: $0) } }
        if let error { throw error }
    }

    /// The objectId of `local`, once its create was answered.
    func objectId(ofLocal local: String) -> String? {
        lock.withLock { ids[local] }
    }

    // MARK: Sending

    /// Starts sending the queued requests unless that is under way; a wait between retries ends at once.
    func start() {
        lock.withLock {
            if let wake {
                self.wake = nil
                wake.resume()
            }
            guard draining == nil, !stopped, !commands.isEmpty else { return }
            draining = Task { [weak self] in await self?.drain() }
        }
    }

    /// Stops sending, as quitting the app does: the requests stay on disk for the next start. For tests.
    func stop() {
        let (task, sleeping) = lock.withLock { () -> (Task<Void, Never>?, CheckedContinuation<Void, Never>?) in
            defer {
                stopped = true
                wake = nil
            }
            return (draining, wake)
        }
        task?.cancel()
        sleeping?.resume()
    }

    private func drain() async {
        while application != nil, !Task.isCancelled, let command = lock.withLock({ stopped ? nil : commands.first }) {
            let outcome = await send(command)
            switch outcome {
            case .retry(let error):
                LCApplication.log(.debug, "the queued \(command.method) \(command.path) waits for the network: \(error)")
                await pause()
            case .done(let reply, let error):
                finish(command, reply: reply, error: error)
            }
        }
        let stop = lock.withLock { () -> Bool in
            draining = nil
            return stopped
        }
        // A request queued after the loop saw an empty queue starts another loop.
        if !stop, count > 0 { start() }
    }

    private enum Outcome {
        case retry(LCError)
        case done(JSON?, LCError?)
    }

    private func send(_ command: Command) async -> Outcome {
        let resolved: (path: String, body: JSON?)
        do {
            resolved = try resolve(command)
        } catch {
            return .done(nil, LCError(error: error))
        }
        guard let application else { return .retry(LCError.inconsistency("The application is gone.")) }
        do {
            let reply = try await RESTClient(application: application).send(command.method, resolved.path, body: resolved.body, session: .token(command.session))
            return .done(reply, nil)
        } catch {
            let failure = LCError(error: error)
            return Self.isRetryable(failure) ? .retry(failure) : .done(nil, failure)
        }
    }

    /// Whether a failure may pass later: no answer (a URL error, negative codes), an error around the request, or a
    /// server error (5xx). An error code of the server's (4xx, LeanCloud's codes) will not.
    static func isRetryable(_ error: LCError) -> Bool {
        error.code < 0 || error.code == LCError.InternalErrorCode.underlyingError.rawValue || (500...599).contains(error.code)
    }

    /// Waits ``LCApplication/Configuration/eventuallyRetryInterval``, or until ``start()`` is called.
    private func pause() async {
        let interval = application?.configuration.eventuallyRetryInterval ?? 1
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.withLock { wake = continuation }
            Task {
                try? await Task.sleep(nanoseconds: UInt64(max(0.01, interval) * 1_000_000_000))
                let sleeping = lock.withLock { () -> CheckedContinuation<Void, Never>? in
                    defer { wake = nil }
                    return wake
                }
                sleeping?.resume()
            }
        }
    }

    /// Records an answered (or dropped) request: the reply on the object (or its changes back), the created object's
    /// id, the request off the queue, then the waiters. The object has the reply before the queue looks empty.
    private func finish(_ command: Command, reply: JSON?, error: LCError?) {
        let object = lock.withLock { pending[command.sequence]?.object }
        if let error {
            LCApplication.log(.error, "a queued \(command.method) \(command.path) was refused and dropped: \(error)")
            if let object {
                object.restoreOperations(lock.withLock { pending[command.sequence]?.operations } ?? [:])
                // A refused create leaves the object new: save() may create it again.
                if command.creates != nil { object.lock.withLock { object.state.localId = nil } }
            }
        } else if let reply, command.method != "DELETE", let object {
            object.didSave(reply)
        }
        let done = lock.withLock { () -> Pending? in
            if let local = command.creates, let id = reply?["objectId"]?.stringValue {
                ids[local] = id
                writeIds()
            }
            remove(command)
            commands.removeFirst()
            if commands.isEmpty, !ids.isEmpty {
                // No request names a local id any more.
                ids = [:]
                writeIds()
            }
            return pending.removeValue(forKey: command.sequence)
        }
        for waiter in done?.waiters ?? [] { waiter(error) }
    }

    /// The path and body with the objectIds of the local ids they name.
    /// - Throws: when a local id has no objectId: its create was refused.
    private func resolve(_ command: Command) throws -> (path: String, body: JSON?) {
        let map = lock.withLock { ids }
        func id(_ text: String) throws -> String {
            guard text.hasPrefix(Self.localPrefix) else { return text }
            guard let id = map[String(text.dropFirst(Self.localPrefix.count))] else {
                throw LCError(code: LCError.ServerErrorCode.objectNotFound.rawValue, reason: "The object \(text) was never created: its save was refused.")
            }
            return id
        }
        let path = try command.path.split(separator: "/", omittingEmptySubsequences: false).map { try id(String($0)) }.joined(separator: "/")
        func body(_ json: JSON) throws -> JSON {
            switch json {
            case .object(var members):
                if members.wireType == .pointer, let objectId = members["objectId"]?.stringValue { members["objectId"] = .string(try id(objectId)) }
                return .object(try members.mapValues(body))
            case .array(let items): return .array(try items.map(body))
            default: return json
            }
        }
        return (path, try command.body.map(body))
    }

    // MARK: Disk

    private func load() {
        guard let directory, let files = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil) else { return }
        commands = files.filter { $0.pathExtension == "json" && $0.lastPathComponent != "ids.json" }
            .compactMap { try? Data(contentsOf: $0) }.compactMap { try? JSONParser.parse($0) }.compactMap(Command.init(json:))
            .sorted { $0.sequence < $1.sequence }
        if let data = try? Data(contentsOf: directory.appendingPathComponent("ids.json")), case .object(let members)? = try? JSONParser.parse(data) {
            ids = members.compactMapValues(\.stringValue)
        }
        nextSequence = (commands.last?.sequence ?? 0) + 1
    }

    private func file(_ sequence: Int) -> URL? {
        directory?.appendingPathComponent(String(format: "%012d.json", sequence))
    }

    private func write(_ command: Command) throws {
        guard let directory, let file = file(command.sequence) else { return }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(JSONWriter.bytes(command.json)).write(to: file, options: .atomic)
            try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        } catch {
            throw LCError(code: .underlyingError, reason: "The offline queue could not keep the request: \(error)", underlyingError: error)
        }
    }

    private func remove(_ command: Command) {
        guard let file = file(command.sequence) else { return }
        try? FileManager.default.removeItem(at: file)
    }

    private func writeIds() {
        guard let directory else { return }
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? Data(JSONWriter.bytes(.object(ids.mapValues(JSON.string)))).write(to: directory.appendingPathComponent("ids.json"), options: .atomic)
    }
}
