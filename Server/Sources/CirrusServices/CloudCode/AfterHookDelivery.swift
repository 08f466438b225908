import CirrusConcurrency
package import CirrusModel
package import CirrusStorage
package import Logging

/// Delivers cloud code's after-hook calls (`afterSave`, `afterUpdate`, `afterDelete`) from the queue the writes fill
/// in their own transactions: at least once, in the order of each object's writes, with retries (1 s, doubling, at
/// most 5 minutes apart) up to ``maximumAttempts``, after which the call is logged and dropped. Every instance on a
/// database delivers; a call one instance holds is left to it for ``lease``. The writer never waits for the engine.
package struct AfterHookDelivery: Sendable {
    let engine: CloudEngine
    let store: any StorageAdapter
    let logger: Logger
    /// Tries before a call is given up.
    package var maximumAttempts = 10
    /// How long a taken call is held before another instance (or this one, after a crash) may take it again.
    package var lease: Duration = .seconds(30)
    /// The pause when nothing was due (ten times longer while the engine lists no after-hook), cut short when this
    /// process queues a call (``CloudEngine/afterHookBell``): other instances' calls wait at most this long.
    package var idlePause: Duration = .seconds(1)
    /// The most calls taken at once.
    package var batchSize = 32

    package init(engine: CloudEngine, store: any StorageAdapter, logger: Logger) {
        self.engine = engine
        self.store = store
        self.logger = logger
    }

    /// Delivers until cancelled. While neither the engine nor a webhook serves an after-hook, the queue (which may still hold calls of a hook
    /// since removed) is looked at ten times less often.
    package func run() async {
        while !Task.isCancelled {
            guard await deliverDue() == 0 else { continue }
            let engineLists = engine.isConfigured && (engine.hooks?.contains { $0.classTrigger != nil && !$0.isBefore } ?? true)
            let listsAfterHooks = engineLists || !(engine.webhooks?.isEmpty ?? true)
            await engine.afterHookBell.wait(upTo: listsAfterHooks ? idlePause : idlePause * 10)
        }
    }

    /// Takes the calls due now and delivers them, different objects at once; answers how many it took.
    @discardableResult
    package func deliverDue(now: Timestamp = .now()) async -> Int {
        let calls: [QueuedHookCall]
        do {
            calls = try await store.claimHookCalls(now: now, leaseUntil: now.adding(lease), limit: batchSize)
        } catch {
            logger.warning("cannot read the queue of after-hook calls", metadata: ["error": "\(error)"])
            return 0
        }
        await withTaskGroup(of: Void.self) { group in
            for call in calls { group.addTask { await deliver(call) } }
        }
        return calls.count
    }

    /// One call: finished when the engine accepts it, else put back for later or, past the last try, given up.
    func deliver(_ call: QueuedHookCall) async {
        do {
            guard let hook = HookPoint(metadataName: call.hook) else { return try await store.finishHookCall(id: call.id) }
            var body: [String: JSON] = ["object": (try? JSONParser.parse(Array(call.object.utf8))) ?? [:]]
            if let userId = call.userId, let user = try await store.fetch(className: "_User", ids: [userId]).first {
                body["user"] = .object(user.restMembers)
            }
            if await engine.runAfter(hook, body: body) {
                try await store.finishHookCall(id: call.id)
            } else if call.attempts + 1 >= maximumAttempts {
                logger.error("gave up an after-hook call", metadata: [
                    "hook": "\(call.hook)", "objectId": "\(call.objectId)", "attempts": "\(call.attempts + 1)",
                ])
                try await store.finishHookCall(id: call.id)
            } else {
                let attempts = call.attempts + 1
                try await store.retryHookCall(id: call.id, attempts: attempts, dueAt: Timestamp.now().adding(Self.backoff(attempts)))
            }
        } catch {
            // The call stays queued; its lease ends and it is taken again.
            logger.warning("cannot update the queue of after-hook calls", metadata: ["error": "\(error)"])
        }
    }

    /// The wait before try `attempts + 1`: one second, doubling, at most five minutes.
    static func backoff(_ attempts: Int) -> Duration {
        .seconds(min(300, 1 << min(attempts - 1, 9)))
    }
}
