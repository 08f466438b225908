import CirrusLiveQuery
import CirrusModel
import CirrusServices
import CirrusStorage
import CirrusTesting
import Logging
import Testing

/// The registry's index of subscriptions by the equality their condition requires, and the dispatcher's fan-out over it.
@Suite("LiveQuery's subscription index")
struct LiveIndexTests {
    /// A socket that keeps what it is sent.
    final class RecordingSink: LiveSink, @unchecked Sendable {
        private let lock = Lock()
        private var received: [LiveEvent] = []

        var events: [LiveEvent] { lock.withLock { received } }

        func deliver(_ event: LiveEvent) {
            lock.withLock { received.append(event) }
        }

        func goAway() async {}
    }

    static func condition(_ json: JSON) throws -> Condition {
        try Condition(where: json)
    }

    static func subscription(_ queryId: String, _ json: JSON, className: String = "Room") throws -> LiveSubscription {
        LiveSubscription(
            queryId: queryId, clientId: "client-" + queryId, className: className, query: json, condition: try condition(json), keys: nil,
            returnACL: false, sessionToken: nil
        )
    }

    static func object(_ fields: [String: JSON], id: String = "o1", className: String = "Room") -> StoredObject {
        StoredObject(
            className: className, objectId: id, createdAt: Timestamp(millisecondsSince1970: 1), updatedAt: Timestamp(millisecondsSince1970: 2),
            acl: nil, fields: fields
        )
    }

    /// A registry holding `subscriptions`, each with a socket of its own.
    static func registry(_ subscriptions: [LiveSubscription]) -> LiveRegistry {
        let registry = LiveRegistry()
        for subscription in subscriptions {
            registry.attach(RecordingSink(), clientId: subscription.clientId)
            registry.add(subscription)
        }
        return registry
    }

    static func targets(_ registry: LiveRegistry, _ record: ChangeRecord) -> Set<String> {
        Set(registry.targets(of: record).map(\.subscription.queryId))
    }

    static let indexedCases: [(JSON, String, [LiveEquality.Key])] = [
        (["room": "r1"], "room", [.string("r1")]),
        (["room": "r1", "n": ["$gt": 1]], "room", [.string("r1")]),
        (["room": ["$eq": "r1"]], "room", [.string("r1")]),
        (["room": ["$in": ["a", "b"]]], "room", [.string("a"), .string("b")]),
        (["n": 2], "n", [.number(2)]),
        (["n": 2.5], "n", [.number(2.5)]),
        (["open": true], "open", [.bool(true)]),
        (["objectId": "o1"], "objectId", [.string("o1")]),
        (["owner": ["__type": "Pointer", "className": "_User", "objectId": "u1"]], "owner", [.pointer(className: "_User", objectId: "u1")]),
    ]

    @Test("a plain equality on a top-level field is indexed, alone, in an AND or as $in", arguments: indexedCases)
    func indexed(_ json: JSON, _ field: String, _ keys: [LiveEquality.Key]) throws {
        let equality = LiveEquality(try Self.condition(json))
        #expect(equality?.field == field)
        #expect(equality?.keys == keys)
    }

    static let unindexedCases: [JSON] = [
        [:], ["a.b": "x"], ["room": ["$ne": "r1"]], ["room": ["$nin": ["r1"]]], ["$or": [["room": "a"], ["room": "b"]]],
        ["room": nil], ["room": ["$in": []]], ["createdAt": ["__type": "Date", "iso": "2024-01-01T00:00:00.000Z"]], ["n": ["$gt": 1]],
        ["tags": ["x", "y"]], ["room": ["$exists": true]],
    ]

    @Test("conditions without such an equality are not indexed: nested fields, dates, null, $ne, $nin, $or, an empty $in, none", arguments: unindexedCases)
    func notIndexed(_ json: JSON) throws {
        #expect(LiveEquality(try Self.condition(json)) == nil)
    }

    @Test("a record reaches the subscriptions whose equality its object offers before or after the write, and those without one")
    func beforeAndAfter() throws {
        let registry = Self.registry([
            try Self.subscription("r1", ["room": "r1"]), try Self.subscription("r2", ["room": "r2"]), try Self.subscription("r3", ["room": "r3"]),
            try Self.subscription("any", ["n": ["$gt": 0]]), try Self.subscription("other", ["room": "r1"], className: "Other"),
        ])
        let created = ChangeRecord(kind: .created, className: "Room", objectId: "o1", before: nil, after: Self.object(["room": "r1"]))
        #expect(Self.targets(registry, created) == ["r1", "any"])
        let moved = ChangeRecord(
            kind: .updated, className: "Room", objectId: "o1", before: Self.object(["room": "r1"]), after: Self.object(["room": "r2"])
        )
        #expect(Self.targets(registry, moved) == ["r1", "r2", "any"], "the leave of r1 and the enter of r2")
        let deleted = ChangeRecord(kind: .deleted, className: "Room", objectId: "o1", before: Self.object(["room": "r3"]), after: nil)
        #expect(Self.targets(registry, deleted) == ["r3", "any"])
        let without = ChangeRecord(kind: .created, className: "Room", objectId: "o1", before: nil, after: Self.object(["n": 1]))
        #expect(Self.targets(registry, without) == ["any"])
    }

    @Test("an array field reaches the subscriptions of each element, as equality on an array means it contains the value")
    func arrays() throws {
        let registry = Self.registry([try Self.subscription("x", ["tags": "x"]), try Self.subscription("z", ["tags": "z"])])
        let object = Self.object(["tags": ["x", "y"]])
        let record = ChangeRecord(kind: .created, className: "Room", objectId: "o1", before: nil, after: object)
        #expect(Self.targets(registry, record) == ["x"])
        #expect(try Self.condition(["tags": "x"]).matches(object.subject), "the evaluator agrees")
    }

    @Test("numbers are keyed by value, so an integer reaches a subscription to the same double and the reverse")
    func numbers() throws {
        let registry = Self.registry([try Self.subscription("int", ["n": 1]), try Self.subscription("double", ["n": 1.0])])
        for value: JSON in [1, 1.0] {
            let record = ChangeRecord(kind: .created, className: "Room", objectId: "o1", before: nil, after: Self.object(["n": value]))
            #expect(Self.targets(registry, record) == ["int", "double"])
        }
    }

    @Test("pointers and objectIds are keyed by what they point to")
    func pointersAndIds() throws {
        let pointer: JSON = ["__type": "Pointer", "className": "_User", "objectId": "u1"]
        let registry = Self.registry([
            try Self.subscription("mine", ["owner": pointer]), try Self.subscription("row", ["objectId": "o2"]),
            try Self.subscription("theirs", ["owner": ["__type": "Pointer", "className": "_User", "objectId": "u2"]]),
        ])
        let record = ChangeRecord(kind: .created, className: "Room", objectId: "o2", before: nil, after: Self.object(["owner": pointer], id: "o2"))
        #expect(Self.targets(registry, record) == ["mine", "row"])
    }

    @Test("a subscription removed or replaced leaves the index, and a class's deletion reaches every subscription of the class")
    func removal() throws {
        let registry = Self.registry([try Self.subscription("a", ["room": "r1"]), try Self.subscription("b", [:])])
        let record = ChangeRecord(kind: .created, className: "Room", objectId: "o1", before: nil, after: Self.object(["room": "r1"]))
        #expect(Self.targets(registry, record) == ["a", "b"])
        #expect(Self.targets(registry, .classDeleted("Room")) == ["a", "b"])
        registry.add(try Self.subscription("a", ["room": "r2"]))
        #expect(Self.targets(registry, record) == ["b"])
        registry.remove(queryId: "b", clientId: "client-b")
        #expect(Self.targets(registry, record).isEmpty)
        #expect(registry.counts.subscriptions == 1)
    }

    /// The values the generated objects and conditions draw from: kinds that compare equal across types and not.
    static let values: [JSON] = ["a", "b", "1", 1, 1.0, 2, 2.5, true, false, nil, ["a", 1], ["b", true], [], ["x": 1]]

    @Test("the index never leaves out a subscription whose condition matches the object before or after, for generated records", arguments: UInt64(0)..<20)
    func neverMisses(seed: UInt64) throws {
        var random = Random(seed: seed)
        var subscriptions: [LiveSubscription] = []
        for index in 0..<40 {
            let field = ["f", "g"][random.next(2)]
            let value = Self.values[random.next(Self.values.count)]
            let json: JSON = switch random.next(3) {
            case 0: [field: value]
            case 1: [field: ["$in": [value, Self.values[random.next(Self.values.count)]]]]
            default: [field: value, "h": ["$exists": false]]
            }
            guard let condition = try? Self.condition(json) else { continue }
            subscriptions.append(LiveSubscription(
                queryId: "q\(index)", clientId: "c\(index)", className: "Room", query: json, condition: condition, keys: nil, returnACL: false,
                sessionToken: nil
            ))
        }
        let registry = Self.registry(subscriptions)
        func randomObject() -> StoredObject? {
            guard random.next(4) > 0 else { return nil }
            var fields: [String: JSON] = [:]
            for field in ["f", "g"] where random.next(3) > 0 { fields[field] = Self.values[random.next(Self.values.count)] }
            return Self.object(fields)
        }
        for _ in 0..<50 {
            let (before, after) = (randomObject(), randomObject())
            guard before != nil || after != nil else { continue }
            let record = ChangeRecord(kind: .updated, className: "Room", objectId: "o1", before: before, after: after)
            let reached = Self.targets(registry, record)
            for subscription in subscriptions {
                let matches = [before, after].contains { $0.map { subscription.condition.matches($0.subject) } ?? false }
                #expect(!matches || reached.contains(subscription.queryId), "\(subscription.query) on \(String(describing: before)) → \(String(describing: after))")
            }
        }
    }

    @Test("a record to many subscribers is judged in chunks: each gets its event once, all sharing one shown object")
    func fanOut() async throws {
        let app = try await InMemoryServices.make()
        let service = LiveQueryService(users: app.users, logger: Logger(label: "test"))
        var sinks: [RecordingSink] = []
        for index in 0..<1_000 {
            let sink = RecordingSink()
            sinks.append(sink)
            service.registry.attach(sink, clientId: "c\(index)")
            service.registry.add(LiveSubscription(
                queryId: "q\(index)", clientId: "c\(index)", className: "Room", condition: try Self.condition(["room": "r1"]), keys: nil,
                returnACL: false, sessionToken: nil
            ))
        }
        var dispatcher = LiveDispatcher(service: service)
        dispatcher.chunkSize = 64
        await dispatcher.dispatch(ChangeRecord(kind: .created, className: "Room", objectId: "o1", before: nil, after: Self.object(["room": "r1"])))
        await dispatcher.dispatch(ChangeRecord(kind: .created, className: "Room", objectId: "o2", before: nil, after: Self.object(["room": "r2"], id: "o2")))
        #expect(sinks.allSatisfy { $0.events.count == 1 && $0.events.first?.operation == .create })
        let shown = sinks.compactMap { $0.events.first?.shown }
        #expect(shown.allSatisfy { $0 === shown[0] })
        #expect(Set(sinks.compactMap { $0.events.first?.subscription.queryId }).count == 1_000)
    }
}

/// A small seeded generator (SplitMix64), so that a failing case can be run again.
struct Random {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    /// A number in `0..<bound`.
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
