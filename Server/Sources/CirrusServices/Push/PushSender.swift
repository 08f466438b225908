package import CirrusConcurrency
package import CirrusModel
package import CirrusStorage
package import Logging

/// Sends due pushes: claims one (a lease no other instance takes while it is renewed), reads its audience from
/// `_Installation` a page at a time in objectId order after the push's cursor (never the whole audience at once),
/// sends each page with bounded concurrency to APNs or FCM by `deviceType`, removes the installations whose tokens the
/// providers call dead, and records the page (counts, cursor, lease) before the next one: an instance that stops
/// mid-send leaves the rest to another, which resumes after the last recorded page.
package struct PushSender: Sendable {
    let objects: ObjectService
    let apns: (any APNsSender)?
    let fcm: (any FCMSender)?
    let settings: PushSettings
    let bell: Doorbell
    let logger: Logger
    package var pageSize = 500
    package var concurrency = 32
    package var lease: Duration = .seconds(60)
    /// How often the pushes are looked at for one due (a push this instance adds rings the bell at once; one scheduled
    /// is sent within this long of its time).
    package var idlePause: Duration = .seconds(5)
    /// The pauses before the retries of a device whose provider asked to try again.
    package var retryPauses: [Duration] = [.seconds(1), .seconds(2)]
    /// How often this instance removes expired installations (``PushSettings/installationLifetime``), at most: at
    /// least once per lifetime.
    package var expirySweepInterval: Duration = .seconds(3600)

    package init(objects: ObjectService, apns: (any APNsSender)?, fcm: (any FCMSender)?, settings: PushSettings, bell: Doorbell, logger: Logger) {
        self.objects = objects
        self.apns = apns
        self.fcm = fcm
        self.settings = settings
        self.bell = bell
        self.logger = logger
    }

    /// Sends due pushes until cancelled; looks for due ones every ``idlePause``, at once when this instance adds one.
    package func run() async {
        var nextSweep = ContinuousClock.now
        while !Task.isCancelled {
            if ContinuousClock.now >= nextSweep {
                await removeExpiredInstallations(now: .now())
                nextSweep = .now + min(expirySweepInterval, settings.installationLifetime ?? expirySweepInterval)
            }
            while !Task.isCancelled, let push = await claim() { await send(push) }
            await bell.wait(upTo: idlePause)
        }
    }

    private func claim() async -> StoredPush? {
        let now = Timestamp.now()
        do {
            return try await objects.store.claimPush(now: now, leaseUntil: now.adding(lease))
        } catch {
            logger.warning("cannot read the pushes", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// Sends a claimed push from its cursor to its end (or its expiration).
    package func send(_ push: StoredPush) async {
        guard let request = PushRequest(stored: push), let audience = try? request.condition() else {
            logger.error("a push cannot be read; it is dropped", metadata: ["push": "\(push.objectId)"])
            try? await objects.store.finishPush(objectId: push.objectId, status: .cancelled, at: .now())
            return
        }
        var cursor = push.cursor
        do {
            while true {
                if let expiresAt = push.expiresAt, expiresAt <= .now() {
                    try await objects.store.finishPush(objectId: push.objectId, status: .expired, at: .now())
                    return
                }
                let page = try await installations(audience, after: cursor)
                guard let last = page.last else {
                    try await objects.store.finishPush(objectId: push.objectId, status: .done, at: .now())
                    logger.info("push sent", metadata: ["push": "\(push.objectId)"])
                    return
                }
                let counts = await deliver(request, to: page)
                try await objects.store.recordPushPage(
                    objectId: push.objectId, cursor: last.objectId, sent: counts.sent, failed: counts.failed, invalid: counts.invalid,
                    leaseUntil: Timestamp.now().adding(lease)
                )
                cursor = last.objectId
            }
        } catch {
            // The lease lapses and an instance takes the push up again after its last recorded page.
            logger.warning("a push stopped; it resumes after its last page", metadata: ["push": "\(push.objectId)", "error": "\(error)"])
        }
    }

    /// The next page of the audience after `cursor`, in objectId order, read as the master; expired installations
    /// are not in it.
    package func installations(_ audience: Condition, after cursor: String?, now: Timestamp = .now()) async throws -> [StoredObject] {
        let schema = try await objects.schema(of: "_Installation")
        var parts = [audience]
        if let cursor { parts.append(.compare(FieldPath(field: "objectId"), .greaterThan, .string(cursor))) }
        if let cutoff = expiryCutoff(now: now) { parts.append(.compare(FieldPath(field: "updatedAt"), .greaterThanOrEqual, .date(cutoff))) }
        let query = StorageQuery(
            className: "_Installation", schema: schema, condition: .all(parts), order: [SortKey(path: FieldPath(field: "objectId"))], limit: pageSize
        )
        return try await objects.store.find(query)
    }

    struct Counts {
        var sent = 0
        var failed = 0
        var invalid = 0
    }

    /// Sends one page, `concurrency` devices at a time, and removes the installations with dead tokens.
    func deliver(_ request: PushRequest, to page: [StoredObject]) async -> Counts {
        var counts = Counts()
        var dead: [String] = []
        await withTaskGroup(of: (String, DeliveryOutcome).self) { group in
            var pending = page[...]
            var running = 0
            while running < concurrency, let installation = pending.popFirst() {
                group.addTask { (installation.objectId, await deliver(request, to: installation)) }
                running += 1
            }
            for await (objectId, outcome) in group {
                switch outcome {
                case .delivered: counts.sent += 1
                case .invalidToken:
                    counts.invalid += 1
                    dead.append(objectId)
                case .retry, .failed: counts.failed += 1
                }
                if let installation = pending.popFirst() {
                    group.addTask { (installation.objectId, await deliver(request, to: installation)) }
                }
            }
        }
        if !dead.isEmpty {
            do {
                try await objects.delete("_Installation", objectIds: dead, condition: nil, caller: .master)
            } catch {
                logger.warning("cannot remove installations with dead tokens", metadata: ["error": "\(error)"])
            }
        }
        return counts
    }

    /// One device: its notification by platform, with its badge incremented first where the push asks, retried while
    /// its provider asks to try again.
    func deliver(_ request: PushRequest, to installation: StoredObject) async -> DeliveryOutcome {
        guard let token = installation.fields["deviceToken"]?.stringValue, !token.isEmpty else { return .failed("no deviceToken") }
        let type = installation.fields["deviceType"]?.stringValue?.lowercased() ?? ""
        let send: () async -> DeliveryOutcome
        switch type {
        case "ios", "macos", "tvos", "watchos", "visionos":
            guard let apns, let topic = installation.fields["apnsTopic"]?.stringValue ?? settings.apnsTopic else {
                return .failed("no APNs key or topic is configured")
            }
            let badge = await incrementedBadge(request, installation)
            let notification = APNsPayload.notification(
                data: request.data, deviceToken: token, topic: topic, badge: badge, expiration: request.expiresAt,
                sandbox: request.sandbox ?? settings.apnsSandbox
            )
            send = { await apns.send(notification) }
        case "android":
            guard let fcm else { return .failed("no FCM service account is configured") }
            let ttl = request.expiresAt.map { max(0, ($0.millisecondsSince1970 - Timestamp.now().millisecondsSince1970) / 1000) }
            let notification = FCMNotification.from(data: request.data, token: token, timeToLive: ttl)
            send = { await fcm.send(notification) }
        default:
            return .failed("no provider for deviceType \(type)")
        }
        var outcome = await send()
        for pause in retryPauses {
            guard case .retry = outcome else { break }
            try? await Task.sleep(for: pause)
            outcome = await send()
        }
        return outcome
    }

    /// The installation's badge after the increment the push asks for (stored), or `nil` when it asks for none.
    func incrementedBadge(_ request: PushRequest, _ installation: StoredObject) async -> Int? {
        guard let amount = APNsPayload.badgeIncrement(request.data) else { return nil }
        let body: JSON = ["badge": ["__op": "Increment", "amount": .int(Int64(amount))]]
        let updated = try? await objects.update(
            "_Installation", objectId: installation.objectId, body: body, condition: nil, options: WriteOptions(), caller: .master
        )
        return updated?.object.fields["badge"]?.intValue.map(Int.init) ?? amount
    }

    // MARK: Expiry

    /// The oldest `updatedAt` a live installation has at `now`, or `nil` when installations do not expire.
    func expiryCutoff(now: Timestamp) -> Timestamp? {
        settings.installationLifetime.map { now.adding(.zero - $0) }
    }

    /// Removes the installations not saved within the lifetime, a page at a time; answers how many. Instances sharing
    /// the database may sweep at once: each removes what is left.
    @discardableResult
    package func removeExpiredInstallations(now: Timestamp) async -> Int {
        guard let cutoff = expiryCutoff(now: now) else { return 0 }
        var removed = 0
        do {
            let schema = try await objects.schema(of: "_Installation")
            while !Task.isCancelled {
                let query = StorageQuery(
                    className: "_Installation", schema: schema,
                    condition: .compare(FieldPath(field: "updatedAt"), .lessThan, .date(cutoff)), limit: pageSize
                )
                let expired = try await objects.store.find(query).map(\.objectId)
                guard !expired.isEmpty else { break }
                removed += try await objects.delete("_Installation", objectIds: expired, condition: nil, caller: .master).count
            }
        } catch {
            logger.warning("cannot remove expired installations", metadata: ["error": "\(error)"])
        }
        if removed > 0 { logger.info("expired installations removed", metadata: ["count": "\(removed)"]) }
        return removed
    }
}
