package import CirrusModel
package import CirrusStorage

/// How a write request wants to be treated, beyond its body.
package struct WriteOptions: Sendable {
    /// The shape of a new objectId.
    package var idStyle: ObjectID.Style
    /// The zone of dates sent without one (Bmob's local time), in minutes east of UTC.
    package var defaultOffsetMinutes: Int

    package init(idStyle: ObjectID.Style = .hex24, defaultOffsetMinutes: Int = 0) {
        self.idStyle = idStyle
        self.defaultOffsetMinutes = defaultOffsetMinutes
    }
}

/// The result of an update: the object as stored afterwards, and the top-level keys the request changed.
package struct UpdateOutcome: Sendable {
    package init(object: StoredObject, changedKeys: [String]) {
        self.object = object
        self.changedKeys = changedKeys
    }

    package var object: StoredObject
    package var changedKeys: [String]
}
