import CirrusModel
import CirrusStorage

/// Everything an ``InMemoryStore`` holds, as one value: a batch of writes changes a copy and the store keeps the copy
/// only when the batch commits, so a failed write leaves no trace.
struct InMemoryState: Sendable {
    /// The classes by name (names differing only in case are different classes).
    var classes: [String: InMemoryClass] = [:]
    /// The members of every relation field.
    var relations: Set<RelationRow> = []
    /// Passwords and lock-outs by user id.
    var accounts: [String: StoredAccount] = [:]
    /// Sessions by token.
    var sessions: [String: StoredSession] = [:]
    /// Codes by purpose and target.
    var codes: [CodeKey: StoredCode] = [:]
    /// The times of the messages sent to each target.
    var sends: [String: [Timestamp]] = [:]
    /// Linked third-party accounts: user id → platform → uid.
    var links: [String: [String: String]] = [:]
    /// The insertion number the next object gets: the order of a find without an explicit order.
    var nextSequence = 0
    /// The object changes of the writes run on this state since the store last took them for its change log.
    var pendingChanges: [ChangeRecord] = []
    /// Cloud code's queued after-hook calls, in queue order.
    var hookCalls: [QueuedHookCall] = []
    /// The statuses' inboxes, and the last number each handed out.
    var inboxEntries: [InboxKey: [InboxEntry]] = [:]
    var inboxCounters: [InboxKey: Int64] = [:]
    /// The id the next queued call gets.
    var nextHookCallId: Int64 = 1
    /// When each queued call is due (or its lease ends).
    var hookCallDue: [Int64: Timestamp] = [:]

    /// One row of a relation field: `owner`'s field `field` lists `target`.
    struct RelationRow: Sendable, Hashable {
        var ownerClass: String
        var field: String
        var ownerId: String
        var target: Pointer
    }

    struct CodeKey: Sendable, Hashable {
        var purpose: String
        var target: String
    }

    /// The objects of a class in insertion order, or none when the class does not exist.
    func objects(of className: String) -> [StoredObject] {
        classes[className]?.ordered ?? []
    }

    /// The members of one object's relation field, by objectId.
    func relationTargets(_ ownerClass: String, _ ownerId: String, _ field: String) -> [Pointer] {
        relations.filter { $0.ownerClass == ownerClass && $0.ownerId == ownerId && $0.field == field }.map(\.target)
            .sorted { ($0.objectId, $0.className) < ($1.objectId, $1.className) }
    }
}

/// One class: its recorded schema and its objects.
struct InMemoryClass: Sendable {
    var schema: ClassSchema
    var entries: [String: Entry] = [:]

    /// An object and the order of its insertion.
    struct Entry: Sendable {
        var object: StoredObject
        var sequence: Int
    }

    /// The objects, oldest insertion first.
    var ordered: [StoredObject] {
        entries.values.sorted { $0.sequence < $1.sequence }.map(\.object)
    }
}

extension StoredObject {
    /// The size in bytes of the document as JSON text, which the size limit bounds.
    var encodedSize: Int {
        JSONWriter.bytes(.object(fields)).count
    }
}
