import CirrusModel
import Foundation

/// A status of LeanCloud's in-app social features (`_Status`): fields (`data`: a message, an image URL, …) sent by the
/// current user to the inboxes of an audience (its followers, one user, the users a query finds), and read back from an
/// inbox with ``LCInboxQuery``.
///
/// ```swift
/// let status = LCStatus(data: ["message": "Hello"])
/// try await status.sendToFollowers()                  // POST /1.1/statuses; to the followers' `default` inboxes
/// try await LCStatus(data: ["message": "Hi"]).sendPrivately(to: jerry)
/// let inbox = LCInboxQuery(owner: me)
/// for status in try await inbox.find() { print(status.messageId ?? 0, status.get("message") ?? LCNull()) }
/// ```
/// A status in an inbox carries its ``messageId``, the inbox's own increasing number, which pages the inbox
/// (``LCInboxQuery/sinceId``, ``LCInboxQuery/maxId``). A `default` status also reaches its sender's own inbox.
public final class LCStatus: @unchecked Sendable, CustomStringConvertible {
    /// The app of the status.
    public let application: LCApplication

    private let lock = Lock()
    private var fields: LCDictionary
    private var type: InboxType
    private var id: String?
    private var message: Int?
    private var created: Date?
    private var updated: Date?

    /// The inbox a status goes to: ``default`` (the timeline), ``private`` (private messages), or the app's own (1 to
    /// 64 letters, digits or `_`): `LCStatus.InboxType("news")`, or a string literal.
    public struct InboxType: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        public init(_ rawValue: String) {
            self.rawValue = rawValue
        }

        public init(stringLiteral value: String) {
            rawValue = value
        }

        /// The timeline (`default`).
        public static let `default` = InboxType("default")
        /// Private messages (`private`).
        public static let `private` = InboxType("private")

        public var description: String { rawValue }
    }

    /// A new status of `data`, for the inboxes of `inboxType`.
    public init(application: LCApplication = .default, data: [String: any LCValueConvertible] = [:], inboxType: InboxType = .default) {
        self.application = application
        fields = LCDictionary(data)
        type = inboxType
    }

    /// A status known by its id, to ``delete()`` it.
    public convenience init(application: LCApplication = .default, objectId: String) {
        self.init(application: application)
        id = objectId
    }

    /// The status's fields (`message`, `image`, `source`, …); `source` is set to the sender when it is sent.
    public var data: LCDictionary {
        get { lock.withLock { fields } }
        set { lock.withLock { fields = newValue } }
    }

    /// The inbox type the status is sent to or was read from; ``InboxType/default`` for a new status.
    public var inboxType: InboxType {
        get { lock.withLock { type } }
        set { lock.withLock { type = newValue } }
    }

    /// The status's id, once it was sent or read.
    public var objectId: LCString? { lock.withLock { id.map(LCString.init) } }

    /// The status's number in the inbox it was read from (``LCInboxQuery``); `nil` for a status that was sent. The same
    /// status has another number in each inbox.
    public var messageId: Int? { lock.withLock { message } }

    /// When the status was sent.
    public var createdAt: LCDate? { lock.withLock { created.map(LCDate.init) } }

    /// When the status was last changed.
    public var updatedAt: LCDate? { lock.withLock { updated.map(LCDate.init) } }

    /// The sender: an ``LCUser`` (a pointer, or with its fields when the inbox query includes `source`).
    public var source: LCObject? { data["source"] as? LCObject }

    /// The value of field `key` of ``data``.
    public func get(_ key: String) -> (any LCValue)? {
        data[key]
    }

    /// Sets field `key` of ``data`` (`nil` removes it).
    public func set(_ key: String, value: (any LCValueConvertible)?) {
        data.set(key, value: value)
    }

    public var description: String {
        let snapshot = lock.withLock { (id: id, message: message, type: type) }
        return "LCStatus(\(snapshot.id ?? "new")\(snapshot.message.map { " #\($0)" } ?? "") \(snapshot.type)) \(data)"
    }

    /// Records a sent status: its id and creation date.
    func didSend(_ reply: JSON, inboxType: InboxType) {
        lock.withLock {
            id = reply["objectId"]?.stringValue ?? id
            created = ObjectDecoder.date(reply["createdAt"]) ?? created
            updated = created
            type = inboxType
        }
    }

    /// The status of an inbox query's result: the members other than its id, dates, `messageId` and `inboxType` are its
    /// ``data``.
    convenience init(application: LCApplication, inboxResult members: [String: JSON]) {
        self.init(application: application)
        let decoder = ObjectDecoder(application: application)
        var values: [String: any LCValue] = [:]
        for (key, json) in members where !Self.resultKeys.contains(key) {
            values[key] = key == "ACL" ? ValueCoder.acl(json) ?? decoder.value(json) : decoder.value(json)
        }
        fields = LCDictionary(values: values)
        id = members["objectId"]?.stringValue
        message = members["messageId"]?.intValue.map { Int($0) }
        created = ObjectDecoder.date(members["createdAt"])
        updated = ObjectDecoder.date(members["updatedAt"]) ?? created
        type = members["inboxType"]?.stringValue.map(InboxType.init(rawValue:)) ?? .default
    }

    /// Members of an inbox result that are not the status's data.
    private static let resultKeys: Set<String> = ["objectId", "createdAt", "updatedAt", "messageId", "inboxType"]
}
