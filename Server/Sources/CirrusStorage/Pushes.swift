package import CirrusModel

/// A push notification as the store keeps it, from its request to its last page sent: what to send (`request`), to
/// whom (its audience condition in `request`), when, and how far the sending got.
package struct StoredPush: Sendable, Hashable {
    package enum Status: String, Sendable, CaseIterable {
        /// Waiting for its push time.
        case scheduled
        /// Being sent (by the instance holding its lease, or waiting for another to take it over).
        case sending
        case done
        case cancelled
        /// Its expiration passed before it was sent to everyone.
        case expired
    }

    package var objectId: String
    /// A number of its own: LeanCloud's `scheduledPushMessages` id.
    package var serial: Int64
    package var status: Status
    /// What the push sends and to whom, as JSON text (the services' to read).
    package var request: String
    /// When it is (or was) due.
    package var pushTime: Timestamp
    package var expiresAt: Timestamp?
    /// The client's `req_id`: a second push with it within five minutes is the first one.
    package var requestId: String?
    /// The last installation (by objectId) whose page was sent; `nil` before the first.
    package var cursor: String?
    package var sent: Int
    package var failed: Int
    /// Devices whose tokens the providers reported dead (their installations are removed).
    package var invalid: Int
    package var createdAt: Timestamp
    package var updatedAt: Timestamp

    package init(
        objectId: String, serial: Int64 = 0, status: Status, request: String, pushTime: Timestamp, expiresAt: Timestamp? = nil,
        requestId: String? = nil, cursor: String? = nil, sent: Int = 0, failed: Int = 0, invalid: Int = 0, createdAt: Timestamp,
        updatedAt: Timestamp
    ) {
        self.objectId = objectId
        self.serial = serial
        self.status = status
        self.request = request
        self.pushTime = pushTime
        self.expiresAt = expiresAt
        self.requestId = requestId
        self.cursor = cursor
        self.sent = sent
        self.failed = failed
        self.invalid = invalid
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// The pushes, shared by every instance on the database: each is sent by one instance at a time (a lease), page after
/// page, so that an instance that stops mid-send leaves the rest to another.
package protocol PushStorage: Sendable {
    /// Adds a push. With a `requestId`, a push with the same one created at or after `dedupeSince` is answered instead
    /// (`added` false), in the same transaction, so concurrent requests add one.
    func addPush(_ push: StoredPush, dedupeSince: Timestamp) async throws -> (push: StoredPush, added: Bool)

    /// Takes the oldest push due at `now` (scheduled, or sending with a lapsed lease), marks it sending and holds it
    /// until `leaseUntil`; `nil` when none is due.
    func claimPush(now: Timestamp, leaseUntil: Timestamp) async throws -> StoredPush?

    /// Records a page sent: the counts are added, the cursor moves, the lease is renewed.
    func recordPushPage(objectId: String, cursor: String, sent: Int, failed: Int, invalid: Int, leaseUntil: Timestamp) async throws

    /// Ends a push with `status`.
    func finishPush(objectId: String, status: StoredPush.Status, at time: Timestamp) async throws

    /// One push, or `nil`.
    func push(objectId: String) async throws -> StoredPush?

    /// Pushes in these statuses, newest first, at most `limit`.
    func pushes(statuses: [StoredPush.Status], limit: Int) async throws -> [StoredPush]

    /// Cancels a scheduled push by its serial; `false` when none is scheduled with it.
    func cancelPush(serial: Int64, at time: Timestamp) async throws -> Bool
}
