package import CirrusModel

/// An after-hook a write owes the cloud-code engine once it commits. The store queues the call in the write's own
/// transaction: a rolled-back write queues none, and a crash after the commit loses none.
package struct AfterHookRequest: Sendable, Hashable {
    /// The hook's name in the engine's list (`__after_save_for_Review`).
    package var hook: String
    /// The user who wrote, handed to the hook as its `user`; `nil` for none.
    package var userId: String?

    package init(hook: String, userId: String?) {
        self.hook = hook
        self.userId = userId
    }
}

/// A queued after-hook call, as the store hands it out for delivery.
package struct QueuedHookCall: Sendable, Hashable {
    package var id: Int64
    package var hook: String
    package var className: String
    package var objectId: String
    /// The object the hook receives (LeanCloud's REST form: fields, objectId, dates, ACL; `_updatedKeys` for an
    /// update), as JSON text.
    package var object: String
    package var userId: String?
    /// The failed deliveries so far.
    package var attempts: Int

    package init(id: Int64, hook: String, className: String, objectId: String, object: String, userId: String?, attempts: Int) {
        self.id = id
        self.hook = hook
        self.className = className
        self.objectId = objectId
        self.object = object
        self.userId = userId
        self.attempts = attempts
    }

    /// The queued form of the after-hook `request` of the change `record`: the object after a create or update (with
    /// `_updatedKeys`), before a delete.
    package static func object(of record: ChangeRecord) -> String {
        guard let object = record.after ?? record.before else { return "{}" }
        var members = object.restMembers
        if record.kind == .updated { members["_updatedKeys"] = .array(record.updatedKeys.map(JSON.string)) }
        return JSONWriter.string(.object(members))
    }
}

/// The queue of after-hook calls, shared by every instance on the database.
package protocol HookCallStorage: Sendable {
    /// Takes up to `limit` calls due at `now`, oldest first, and never a call whose object has an earlier call still
    /// queued (an object's hooks run in the order of its writes); each is held until `leaseUntil`, when another
    /// instance may take it if it has not been finished or retried by then.
    func claimHookCalls(now: Timestamp, leaseUntil: Timestamp, limit: Int) async throws -> [QueuedHookCall]

    /// Removes a call that was delivered or given up.
    func finishHookCall(id: Int64) async throws

    /// Puts a failed call back for another try at `dueAt`, with its count of failed tries.
    func retryHookCall(id: Int64, attempts: Int, dueAt: Timestamp) async throws
}

extension WriteCommand {
    /// The after-hook the command owes once it commits, if any.
    package var afterHook: AfterHookRequest? {
        switch self {
        case .insert(let insert): insert.afterHook
        case .update(let update): update.afterHook
        case .delete(let delete): delete.afterHook
        case .account: nil
        }
    }
}
