import CirrusConcurrency
import CirrusModel
import CirrusServices
import CirrusStorage
import CirrusTesting
import Logging
import Synchronization
import Testing

/// The push sender over the in-memory store with a recording APNs double (delivery itself is tested against the
/// APNs stand-in in PushTests): expiry of a push, resuming after an instance stopped mid-send, and expired
/// installations left out of audiences and swept, at a given time (a live server's expiry is tested end to end with
/// installations imported with old dates, Tests/python/test_push.py).
@Suite("The push sender")
struct PushSenderTests {
    /// Records the tokens it is asked to send to, and delivers each.
    final class RecordingAPNs: APNsSender {
        let tokens = Mutex<[String]>([])
        func send(_ notification: APNsNotification) async -> DeliveryOutcome {
            tokens.withLock { $0.append(notification.deviceToken) }
            return .delivered
        }
    }

    static func token(_ n: Int) -> String {
        let hex = String(n, radix: 16)
        return String(repeating: "0", count: 64 - hex.count) + hex
    }

    /// Services with `count` iOS installations, a sender with pages of `pageSize`, and its APNs double.
    static func sender(
        installations count: Int, pageSize: Int = 500, lifetime: Duration? = .seconds(90 * 86_400)
    ) async throws -> (InMemoryServices, PushSender, RecordingAPNs) {
        let app = try await InMemoryServices.make()
        for n in 1...count {
            _ = try await app.objects.create(
                "_Installation", body: ["deviceType": "ios", "deviceToken": .string(token(n))], options: WriteOptions(), caller: .master
            )
        }
        var settings = PushSettings()
        settings.apnsTopic = "com.example.app"
        settings.installationLifetime = lifetime
        let apns = RecordingAPNs()
        var sender = PushSender(objects: app.objects, apns: apns, fcm: nil, settings: settings, bell: Doorbell(), logger: Logger(label: "test"))
        sender.pageSize = pageSize
        return (app, sender, apns)
    }

    /// Adds a push to every installation, due at `due`.
    static func addPush(_ app: InMemoryServices, due: Timestamp, expiresAt: Timestamp? = nil) async throws -> StoredPush {
        let request = PushRequest(data: ["alert": "Hi"], audience: [:], pushTime: due, expiresAt: expiresAt)
        let push = StoredPush(
            objectId: ObjectID.make(.hex24), status: .scheduled, request: request.stored, pushTime: due, expiresAt: expiresAt, createdAt: due,
            updatedAt: due
        )
        return try await app.store.addPush(push, dedupeSince: due).push
    }

    @Test("a push claimed after its expiration is marked expired and sends nothing")
    func expired() async throws {
        let (app, sender, apns) = try await Self.sender(installations: 3)
        let now = Timestamp.now()
        let push = try await Self.addPush(app, due: now.adding(.seconds(-120)), expiresAt: now.adding(.seconds(-60)))
        let claimed = try #require(try await app.store.claimPush(now: now, leaseUntil: now.adding(.seconds(60))))
        await sender.send(claimed)
        #expect(try await app.store.push(objectId: push.objectId)?.status == .expired)
        #expect(apns.tokens.withLock { $0 }.isEmpty)
    }

    @Test("a push an instance stopped sending is taken up after its lease and resumes after the last recorded page")
    func resumes() async throws {
        let (app, sender, apns) = try await Self.sender(installations: 7, pageSize: 3)
        let now = Timestamp.now()
        let push = try await Self.addPush(app, due: now)
        // The first instance claims it, sends one page (the first three installations in objectId order), records it
        // and stops.
        let first = try #require(try await app.store.claimPush(now: now, leaseUntil: now.adding(.seconds(60))))
        let page = try await app.objects.find(
            Query(className: "_Installation", order: [SortKey(path: FieldPath(field: "objectId"))], limit: 3), withCount: false, caller: .master
        ).objects
        try await app.store.recordPushPage(objectId: first.objectId, cursor: page.last?.objectId ?? "", sent: 3, failed: 0, invalid: 0, leaseUntil: now.adding(.seconds(60)))
        #expect(try await app.store.claimPush(now: now.adding(.seconds(30)), leaseUntil: now.adding(.seconds(90))) == nil)
        // Another takes it once the lease lapsed and sends the rest, once each.
        let resumed = try #require(try await app.store.claimPush(now: now.adding(.seconds(61)), leaseUntil: now.adding(.seconds(121))))
        await sender.send(resumed)
        let firstPage = Set(page.compactMap { $0.fields["deviceToken"]?.stringValue })
        #expect(firstPage.count == 3)
        #expect(apns.tokens.withLock { $0 }.sorted() == (1...7).map(Self.token).filter { !firstPage.contains($0) })
        let record = try await app.store.push(objectId: push.objectId)
        #expect(record?.status == .done)
        #expect(record?.sent == 7)
    }

    @Test("an audience leaves out the installations not saved within the lifetime, and keeps all without one")
    func audienceLeavesOutExpired() async throws {
        let (_, sender, _) = try await Self.sender(installations: 3)
        let later = Timestamp.now().adding(.seconds(91 * 86_400))
        #expect(try await sender.installations(.always, after: nil).count == 3)
        #expect(try await sender.installations(.always, after: nil, now: later).isEmpty)
        let (_, keeping, _) = try await Self.sender(installations: 3, lifetime: nil)
        #expect(try await keeping.installations(.always, after: nil, now: later).count == 3)
    }

    @Test("the sweep removes the installations older than the lifetime, in pages, and none without a lifetime")
    func sweep() async throws {
        let (app, sender, _) = try await Self.sender(installations: 5, pageSize: 2)
        #expect(await sender.removeExpiredInstallations(now: .now()) == 0)
        #expect(await sender.removeExpiredInstallations(now: Timestamp.now().adding(.seconds(91 * 86_400))) == 5)
        #expect(try await app.objects.find(Query(className: "_Installation"), withCount: false, caller: .master).objects.isEmpty)

        let (_, keeping, _) = try await Self.sender(installations: 2, lifetime: nil)
        #expect(await keeping.removeExpiredInstallations(now: Timestamp.now().adding(.seconds(1_000 * 86_400))) == 0)
    }
}
