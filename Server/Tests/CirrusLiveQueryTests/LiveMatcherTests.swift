import CirrusLiveQuery
import CirrusModel
import CirrusServices
import CirrusStorage
import Testing

/// The events of LeanCloud's and Parse's LiveQuery, decided from a change record's before and after images and the
/// subscriber's rights.
@Suite("LiveQuery events")
struct LiveMatcherTests {
    static let matcher = LiveMatcher(policy: AccessPolicy(), visibility: FieldVisibility())
    static let subscription = LiveSubscription(
        queryId: "q", clientId: "c", className: "Todo", condition: .compare(FieldPath(field: "n"), .greaterThan, .int(0)), keys: nil,
        returnACL: false, sessionToken: nil
    )
    static let owner = Caller(isMaster: false, userId: "u1")

    static func object(_ n: Int64, acl: JSON? = nil, extra: [String: JSON] = [:]) -> StoredObject {
        StoredObject(
            className: "Todo", objectId: "o1", createdAt: Timestamp(millisecondsSince1970: 1), updatedAt: Timestamp(millisecondsSince1970: 2), acl: acl,
            fields: ["n": .int(n)].merging(extra) { $1 }
        )
    }

    static let privateACL: JSON = ["u1": ["read": true, "write": true]]

    struct Case: Sendable, CustomStringConvertible {
        var description: String
        var kind: ChangeRecord.Kind
        var before: StoredObject?
        var after: StoredObject?
        var caller: Caller
        var expected: LiveEvent.Operation?
        var shownN: Int64?
    }

    static let cases: [Case] = [
        Case(description: "a new matching object is a create", kind: .created, before: nil, after: object(1), caller: .anonymous, expected: .create, shownN: 1),
        Case(description: "a new object that does not match is nothing", kind: .created, before: nil, after: object(-1), caller: .anonymous, expected: nil),
        Case(description: "matching before and after is an update", kind: .updated, before: object(1), after: object(2), caller: .anonymous, expected: .update, shownN: 2),
        Case(description: "matching after only is an enter", kind: .updated, before: object(-1), after: object(3), caller: .anonymous, expected: .enter, shownN: 3),
        Case(description: "matching before only is a leave, showing the new state", kind: .updated, before: object(1), after: object(-2), caller: .anonymous, expected: .leave, shownN: -2),
        Case(description: "a deleted matching object is a delete, showing its last state", kind: .deleted, before: object(4), after: nil, caller: .anonymous, expected: .delete, shownN: 4),
        Case(description: "an object the subscriber cannot read is nothing", kind: .created, before: nil, after: object(1, acl: privateACL), caller: .anonymous, expected: nil),
        Case(description: "its owner sees it", kind: .created, before: nil, after: object(1, acl: privateACL), caller: owner, expected: .create, shownN: 1),
        Case(description: "an object becoming readable is an enter", kind: .updated, before: object(1, acl: privateACL), after: object(1), caller: .anonymous, expected: .enter, shownN: 1),
        Case(description: "an object becoming unreadable is a leave showing only the state the subscriber could read", kind: .updated, before: object(1), after: object(9, acl: privateACL), caller: .anonymous, expected: .leave, shownN: 1),
        Case(description: "a deleted object the subscriber could not read is nothing", kind: .deleted, before: object(1, acl: privateACL), after: nil, caller: .anonymous, expected: nil),
    ]

    @Test("the event of a change", arguments: cases)
    func event(_ test: Case) {
        let record = ChangeRecord(kind: test.kind, className: "Todo", objectId: "o1", before: test.before, after: test.after, updatedKeys: ["n"])
        let event = Self.matcher.event(for: record, subscription: Self.subscription, caller: test.caller, schema: nil)
        #expect(event?.operation == test.expected)
        if let event {
            #expect(event.object.fields["n"] == test.shownN.map(JSON.int))
            #expect(event.object.acl == nil, "the ACL only when the subscription asks for it")
            let keyed = [LiveEvent.Operation.update, .enter, .leave].contains(event.operation)
            #expect((event.updatedKeys != nil) == keyed)
            if let original = event.original { #expect(original.grants(.read, to: test.caller.readers)) }
        }
    }

    @Test("a class the subscriber may not find sends nothing, whatever the object's ACL")
    func classPermission() throws {
        var schema = ClassSchema(className: "Todo")
        schema.options.permissions = try ClassPermissions(wire: ["find": ["u2": true], "get": ["*": true]])
        let record = ChangeRecord(kind: .created, className: "Todo", objectId: "o1", before: nil, after: Self.object(1))
        #expect(Self.matcher.event(for: record, subscription: Self.subscription, caller: .anonymous, schema: schema)?.operation == nil)
        #expect(Self.matcher.event(for: record, subscription: Self.subscription, caller: Caller(isMaster: false, userId: "u2"), schema: schema)?.operation == .create)
    }

    @Test("hidden fields and other users' private fields never reach an event; keys and returnACL shape it")
    func redaction() throws {
        // Users found by everyone (off by default), with a hidden field.
        var schema = ClassSchema(className: "_User")
        schema.options.permissions = try ClassPermissions(wire: ["find": ["*": true], "get": ["*": true]])
        schema.options.fields["secret"] = FieldOptions(hidden: true)
        var subscription = Self.subscription
        subscription.className = "_User"
        subscription.returnACL = true
        subscription.keys = ["n", "email", "secret"]
        let user = StoredObject(
            className: "_User", objectId: "u9", createdAt: Timestamp(millisecondsSince1970: 1), updatedAt: Timestamp(millisecondsSince1970: 1),
            acl: ["*": ["read": true]], fields: ["n": 1, "email": "a@example.com", "username": "a", "secret": "s"]
        )
        let record = ChangeRecord(kind: .created, className: "_User", objectId: "u9", before: nil, after: user)
        let event = Self.matcher.event(for: record, subscription: subscription, caller: .anonymous, schema: schema)
        #expect(event?.object.fields == ["n": 1])
        #expect(event?.object.acl == ["*": ["read": true]])
        let own = Self.matcher.event(for: record, subscription: subscription, caller: Caller(isMaster: false, userId: "u9"), schema: schema)
        #expect(own?.object.fields == ["n": 1, "email": "a@example.com"])
    }

    @Test("a subscription whose where names a field hidden since it subscribed sends nothing (the value would show through)")
    func hiddenSinceSubscribing() {
        var schema = ClassSchema(className: "Todo")
        let record = ChangeRecord(kind: .created, className: "Todo", objectId: "o1", before: nil, after: Self.object(1))
        #expect(Self.matcher.event(for: record, subscription: Self.subscription, caller: .anonymous, schema: schema)?.operation == .create)
        schema.options.fields["n"] = FieldOptions(hidden: true)
        #expect(Self.matcher.event(for: record, subscription: Self.subscription, caller: .anonymous, schema: schema)?.operation == nil)
    }
}

