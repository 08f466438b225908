public import CirrusModel
public import CirrusStorage

/// How a write request wants to be treated, beyond its body.
public struct WriteOptions: Sendable {
    /// The shape of a new objectId.
    public var idStyle: ObjectID.Style
    /// The zone of dates sent without one (Bmob's local time), in minutes east of UTC.
    public var defaultOffsetMinutes: Int

    public init(idStyle: ObjectID.Style = .hex24, defaultOffsetMinutes: Int = 0) {
        self.idStyle = idStyle
        self.defaultOffsetMinutes = defaultOffsetMinutes
    }
}

/// The result of an update: the object as stored afterwards, and the top-level keys the request changed.
public struct UpdateOutcome: Sendable {
    public init(object: StoredObject, changedKeys: [String]) {
        self.object = object
        self.changedKeys = changedKeys
    }

    public var object: StoredObject
    public var changedKeys: [String]
}
