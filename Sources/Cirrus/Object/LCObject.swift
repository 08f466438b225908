import CirrusModel
import Foundation

/// An object of a class: its fields, and the changes not saved yet.
///
/// ```swift
/// let todo = LCObject(className: "Todo")
/// try todo.set("title", value: "Sign up for Marathon")
/// try todo.set("priority", value: 2)
/// try await todo.save()
/// ```
/// Only changed fields and pending atomic operations are sent; objects it points to that were never saved are saved
/// first. Objects may be shared between tasks: their state is guarded by a lock.
open class LCObject: LCValue, @unchecked Sendable, CustomDebugStringConvertible {
    /// The app the object belongs to.
    public let application: LCApplication
    /// The object's class.
    public let className: String

    let lock = Lock()
    var state = State()

    /// What the object knows, guarded by ``lock``.
    struct State {
        var objectId: String?
        var createdAt: Date?
        var updatedAt: Date?
        /// The fields as the client sees them (server values with pending operations applied).
        var properties: [String: any LCValue] = [:]
        /// The changes the next save sends, by key.
        var operations: [String: Operation] = [:]
        /// Whether the fields are here: a new object's, or read from the server (not a bare pointer's).
        var isDataAvailable = true
        /// The id that names a new object in the offline queue until its create is answered (``EventuallyQueue``).
        var localId: String?
    }

    /// The class name of objects of this Swift class: the type's name for ``LCObject`` and subclasses of your own,
    /// `_User` for ``LCUser``, and so on.
    open class func objectClassName() -> String {
        String(describing: self)
    }

    /// A new object of this Swift class's class name.
    public required init(application: LCApplication = .default) {
        self.application = application
        className = Self.objectClassName()
    }

    /// A new object of `className`.
    public init(application: LCApplication = .default, className: String) {
        self.application = application
        self.className = className
    }

    /// An object of `className` that exists on the server: ``fetch(keys:)`` reads it, ``save(options:)`` updates it.
    public convenience init(application: LCApplication = .default, className: String, objectId: any LCStringConvertible) {
        self.init(application: application, className: className)
        state.objectId = objectId.lcString.value
        state.isDataAvailable = false
    }

    /// Whether the object's fields are here: it is new, was fetched, or came whole from a query or an include; not
    /// when it was made from an id or read as a pointer (``fetchIfNeeded(keys:)`` then reads it).
    public var isDataAvailable: Bool { lock.withLock { state.isDataAvailable } }

    /// The class name as the LeanCloud SDK calls it.
    public var actualClassName: String { className }

    /// The object's id, `nil` until it is saved.
    public var objectId: LCString? { lock.withLock { state.objectId.map(LCString.init) } }

    /// When the object was created, `nil` until it is saved or fetched.
    public var createdAt: LCDate? { lock.withLock { state.createdAt.map(LCDate.init) } }

    /// When the object was last changed, `nil` until it is saved or fetched.
    public var updatedAt: LCDate? { lock.withLock { state.updatedAt.map(LCDate.init) } }

    /// The object's access control list; setting it is saved like any field.
    public var ACL: LCACL? {
        get { self.get("ACL") as? LCACL }
        set { try? set("ACL", value: newValue) }
    }

    /// Whether there are changes the next save would send.
    public var hasDataToUpload: Bool { lock.withLock { state.objectId == nil || !state.operations.isEmpty } }

    /// The value of field `key` (`objectId`, `createdAt` and `updatedAt` too), or `nil` when the object has none.
    open func get(_ key: String) -> (any LCValue)? {
        switch key {
        case "objectId": objectId
        case "createdAt": createdAt
        case "updatedAt": updatedAt
        default: lock.withLock { state.properties[key] }
        }
    }

    /// Sets field `key` to `value`; `nil` removes the field (``unset(_:)``).
    /// - Throws: `LCError` for a key the server sets (`objectId`, `createdAt`, `updatedAt`) or an empty key.
    open func set(_ key: String, value: (any LCValueConvertible)?) throws {
        guard let value else { return try unset(key) }
        let converted = value.lcValue
        if key == "ACL", !(converted is LCACL) { throw LCError(code: .invalidType, reason: "ACL must be an LCACL.") }
        if let point = converted as? LCGeoPoint, !point.isValid {
            throw LCError(code: .invalidType, reason: "\(point) is not a place: latitude must be within -90…90 and longitude within -180…180.")
        }
        try record(key, .set(converted))
    }

    /// Sets field `key` to `value`, as ``set(_:value:)`` (the form some of the LeanCloud guide's samples use).
    public func set(_ key: String, _ value: (any LCValueConvertible)?) throws {
        try set(key, value: value)
    }

    /// Field `key`: reading it is ``get(_:)``; setting it is ``set(_:value:)`` (a failure is ignored).
    open subscript(key: String) -> (any LCValueConvertible)? {
        get { get(key) }
        set { try? set(key, value: newValue) }
    }

    /// Removes field `key` at the next save (`{"__op":"Delete"}`).
    open func unset(_ key: String) throws {
        try record(key, .delete)
    }

    /// Records `operation` on `key`, merged with the one pending, and applies it to the local value.
    func record(_ key: String, _ operation: Operation) throws {
        try Self.validate(key)
        try lock.withLock {
            let current = state.properties[key]
            state.operations[key] = try Operation.merge(state.operations[key], operation)
            state.properties[key] = operation.apply(to: current)
        }
    }

    /// The REST path of the class (`/classes/<className>`); ``LCFile`` uses `/files`.
    var endpoint: String { "/classes/" + className }

    /// The REST path of this object, `nil` before it is saved.
    var objectEndpoint: String? { objectId.map { endpoint + "/" + $0.value } }

    /// The request that saves `operations` (taken from the object): `POST` to the class for a new object, `PUT` of
    /// the operations to the object otherwise. ``LCInstallation`` always posts itself whole to `/installations`.
    func saveRequest(_ operations: [String: Operation]) -> SaveRequest {
        SaveRequest(method: objectId == nil ? "POST" : "PUT", path: objectEndpoint ?? endpoint, body: Self.body(operations))
    }

    /// Refuses a save before any request is sent; ``LCInstallation`` needs a device token or an installation id.
    func validateBeforeSaving() throws {}

    /// Called after a save was recorded; ``LCUser`` forgets the password it sent.
    func didSaveFields() {}

    /// Called after a fetch was recorded; ``LCUser`` stores the current user again.
    func didFetchFields() {}

    /// Local fields a fetch keeps although the server does not send them (``LCUser``'s session token).
    var keysKeptOnFetch: Set<String> { [] }

    /// The session token requests about this object carry: the current user's, or a user's own.
    var sessionForRequests: RESTClient.Session { .current }

    /// The session token saves and deletes of this object carry: the current user's, or a user's own.
    var sessionForWrites: RESTClient.Session { .current }

    /// Keys set by the server, which clients may not write.
    static let reservedKeys: Set<String> = ["objectId", "createdAt", "updatedAt"]

    static func validate(_ key: String) throws {
        guard !key.isEmpty else { throw LCError.inconsistency("A key may not be empty.") }
        guard !reservedKeys.contains(key) else { throw LCError.inconsistency("\(key) is set by the server.") }
    }

    /// The fields other than the ones every object has.
    public var dictionary: LCDictionary { LCDictionary(values: lock.withLock { state.properties }) }

    open var description: String {
        let (id, properties) = lock.withLock { (state.objectId, state.properties) }
        let fields = properties.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        return "\(className)(\(id ?? "new"))" + (fields.isEmpty ? "" : " {\(fields)}")
    }

    public var debugDescription: String { description }
}
