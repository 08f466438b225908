package import CirrusConcurrency
package import CirrusModel
package import CirrusStorage

/// Push settings: who may send, and how Apple's notifications are addressed.
package struct PushSettings: Sendable {
    /// Whether clients without the master key may send (LeanCloud's "allow pushes from clients", off by default).
    package var clientPush = false
    /// The bundle id notifications go to when an installation names none (`apnsTopic`).
    package var apnsTopic: String?
    /// Apple's development environment by default (a push's `prod` chooses for itself).
    package var apnsSandbox = false
    /// How long an installation lives after its device last saved it (LeanCloud's 90 days): older ones get no pushes
    /// and are removed. `nil` for ever.
    package var installationLifetime: Duration? = .seconds(90 * 86_400)

    package init() {}
}

/// Pushes: a request is checked, kept in the pushes table (at most once per `req_id` within five minutes), and sent
/// by the ``PushSender`` of some instance when it is due; its record is readable, a scheduled one cancellable.
package struct PushService: Sendable {
    let store: any StorageAdapter
    let settings: PushSettings
    /// Rung when a push is added, so that this instance's sender starts at once.
    package let bell: Doorbell

    package init(store: any StorageAdapter, settings: PushSettings, bell: Doorbell) {
        self.store = store
        self.settings = settings
        self.bell = bell
    }

    /// Keeps a push to be sent when due.
    /// - Parameter channelsOrWhere: Parse's rule for the audience (see ``PushRequest/reading(_:channelsOrWhere:now:)``).
    /// - Returns: the push as kept (an earlier one with the same `req_id` within five minutes, if any).
    /// - Throws: ``APIError``: ``APIError/Reason/masterKeyRequired`` for a client while client pushes are off, or
    ///   ``APIError/Reason/invalidPush``.
    package func send(_ body: JSON, channelsOrWhere: Bool, caller: Caller) async throws -> StoredPush {
        guard caller.isMaster || settings.clientPush else {
            throw APIError(.masterKeyRequired, "Pushes from clients are off: send with the master key.")
        }
        let now = Timestamp.now()
        let request = try PushRequest.reading(body, channelsOrWhere: channelsOrWhere, now: now)
        let push = StoredPush(
            objectId: ObjectID.make(.hex24), status: .scheduled, request: request.stored, pushTime: request.pushTime ?? now,
            expiresAt: request.expiresAt, requestId: request.requestId, createdAt: now, updatedAt: now
        )
        let kept = try await store.addPush(push, dedupeSince: Timestamp(millisecondsSince1970: now.millisecondsSince1970 - PushRequest.deduplicationWindow))
        if kept.added { bell.ring() }
        return kept.push
    }

    /// A push's record.
    package func record(objectId: String, caller: Caller) async throws -> StoredPush? {
        guard caller.isMaster else { throw APIError(.masterKeyRequired, "The master key is required.") }
        return try await store.push(objectId: objectId)
    }

    /// The most recent pushes, newest first.
    package func records(statuses: [StoredPush.Status] = StoredPush.Status.allCases, limit: Int, caller: Caller) async throws -> [StoredPush] {
        guard caller.isMaster else { throw APIError(.masterKeyRequired, "The master key is required.") }
        return try await store.pushes(statuses: statuses, limit: max(1, min(limit, 1000)))
    }

    /// Cancels a scheduled push by its number (LeanCloud's `scheduledPushMessages` id).
    /// - Throws: ``APIError/Reason/objectNotFound`` when none is scheduled with it.
    package func cancel(serial: Int64, caller: Caller) async throws {
        guard caller.isMaster else { throw APIError(.masterKeyRequired, "The master key is required.") }
        guard try await store.cancelPush(serial: serial, at: .now()) else {
            throw APIError(.objectNotFound, "No scheduled push \(serial).")
        }
    }
}
