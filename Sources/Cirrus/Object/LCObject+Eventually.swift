import CirrusModel
public import Foundation

/// Saves and deletes that wait for the network (seed 001 "离线存储对象", 003): queued on disk and sent in the order of the
/// calls when the server can be reached, after a restart too (``EventuallyQueue``). Calling them several times on one
/// object is safe: each call sends the changes made since the last one.
extension LCObject {
    /// Queues the object's changes (and the creation of new objects it points to, first) and returns at once; they
    /// are sent when the server can be reached. `completion`, when given, gets the server's answer on
    /// `completionQueue` once they were sent in this run of the app (or the reason they could not be queued: a new
    /// ``LCFile``, whose upload needs ``save(options:)``, or a disk that refused the request). Without one, this is
    /// the Objective-C SDK's fire-and-forget `saveEventually`.
    public func saveEventually(completionQueue: DispatchQueue = .main, completion: ((LCBooleanResult) -> Void)? = nil) {
        Self.report(completionQueue, completion) { (try self.application.eventuallyQueue(), try self.queueSave()) }
    }

    /// Queues the object's changes and waits until the server has them (which may be long: as long as the network is
    /// away).
    /// - Throws: the server's error when it refused them (they go back to the object), or why they could not be queued.
    public func saveEventually() async throws {
        try await application.eventuallyQueue().wait(for: try queueSave())
    }

    /// Queues the object's deletion, sent after every request queued before it; `completion`, when given, gets the
    /// server's answer on `completionQueue`.
    public func deleteEventually(completionQueue: DispatchQueue = .main, completion: ((LCBooleanResult) -> Void)? = nil) {
        Self.report(completionQueue, completion) { (try self.application.eventuallyQueue(), try self.queueDelete()) }
    }

    /// Queues the object's deletion and waits until the server has done it.
    public func deleteEventually() async throws {
        try await application.eventuallyQueue().wait(for: try queueDelete())
    }

    /// Hands the outcome of a queued request to `completion` on `queue` (at once when queueing failed); without a
    /// completion, a failure to queue is logged.
    private static func report(
        _ queue: DispatchQueue, _ completion: ((LCBooleanResult) -> Void)?, _ enqueue: () throws -> (EventuallyQueue, Int)
    ) {
        let handler = completion.map(UncheckedBox.init)
        do {
            let (eventually, sequence) = try enqueue()
            guard let handler else { return }
            eventually.whenDone(sequence) { error in queue.async { handler.value(error.map { .failure(error: $0) } ?? .success) } }
        } catch {
            let failure = LCError(error: error)
            guard let handler else { return LCApplication.log(.error, "saveEventually could not queue the request: \(failure)") }
            queue.async { handler.value(.failure(error: failure)) }
        }
    }

    /// The local id of a new object queued to be created.
    var localId: String? { lock.withLock { state.localId } }

    /// Queues the save of this object (after the creation of the new objects it points to).
    /// - Returns: the sequence number of its request (0 when there was nothing to send).
    func queueSave() throws -> Int {
        let queue = try application.eventuallyQueue()
        if self is LCFile, objectId == nil {
            throw LCError.inconsistency("A new file is uploaded by save(); it cannot wait in the offline queue.")
        }
        for dependency in unsavedReferences() where dependency.localId == nil { _ = try dependency.queueSave() }
        ObjectSaver(application: application).giveDefaultACL([self])
        try validateBeforeSaving()
        let operations = takeOperations()
        var request = saveRequest(operations)
        var creates: String?
        if objectId == nil, !(self is LCInstallation) {
            if let local = localId {
                request = SaveRequest(method: "PUT", path: endpoint + "/" + EventuallyQueue.localPrefix + local, body: Self.body(operations))
            } else {
                let local = UUID().uuidString.lowercased()
                lock.withLock { state.localId = local }
                creates = local
            }
        }
        if request.method == "PUT", operations.isEmpty { return 0 }
        let session = RESTClient(application: application).sessionToken(sessionForWrites)
        do {
            return try queue.enqueue(
                method: request.method, path: request.path, body: request.body, session: session, creates: creates, object: self, operations: operations
            )
        } catch {
            restoreOperations(operations)
            throw error
        }
    }

    /// Queues the deletion of this object (nothing for one never saved nor queued).
    func queueDelete() throws -> Int {
        let queue = try application.eventuallyQueue()
        let path: String
        if let id = objectId?.value {
            path = endpoint + "/" + id
        } else if let local = localId {
            path = endpoint + "/" + EventuallyQueue.localPrefix + local
        } else {
            return 0
        }
        let session = RESTClient(application: application).sessionToken(sessionForWrites)
        return try queue.enqueue(method: "DELETE", path: path, body: nil, session: session, creates: nil, object: nil, operations: [:])
    }
}
