/// The `__type` tags of typed values on the wire (LeanCloud's, Parse's and Bmob's REST encoding alike), and the
/// typed values the server writes itself. ``Value/init(wire:defaultOffsetMinutes:)`` and ``Value/wire`` are the codec;
/// this is where the tags are spelled.
public enum WireType: String, Sendable, CaseIterable {
    case date = "Date"
    case bytes = "Bytes"
    case pointer = "Pointer"
    /// An included pointer (Parse and Bmob): the pointer with the target's fields.
    case object = "Object"
    case file = "File"
    case geoPoint = "GeoPoint"
    case relation = "Relation"

    /// The key of the tag.
    public static let key = "__type"

    /// `{"__type": <tag>}` and `members`.
    public func value(_ members: [String: JSON]) -> JSON {
        var members = members
        members[Self.key] = .string(rawValue)
        return .object(members)
    }
}

extension JSON {
    /// A Date value: `{"__type":"Date","iso":…}`.
    public static func date(_ stamp: Timestamp) -> JSON {
        date(iso: stamp.iso8601)
    }

    /// A Date value of an ISO text as it is.
    public static func date(iso: String) -> JSON {
        WireType.date.value(["iso": .string(iso)])
    }

    /// A Relation to objects of `className`: `{"__type":"Relation","className":…}`.
    public static func relation(to className: String) -> JSON {
        WireType.relation.value(["className": .string(className)])
    }

    /// Whether this is a typed value with the tag `type`.
    public func isTyped(_ type: WireType) -> Bool {
        self[WireType.key]?.stringValue == type.rawValue
    }
}

extension [String: JSON] {
    /// Whether these are the members of a typed value with the tag `type`.
    public func isTyped(_ type: WireType) -> Bool {
        self[WireType.key]?.stringValue == type.rawValue
    }

    /// The tag of the typed value these members make, or `nil`.
    public var wireType: WireType? {
        self[WireType.key]?.stringValue.flatMap(WireType.init(rawValue:))
    }

    /// Makes these the members of a typed value with the tag `type`.
    public mutating func tag(_ type: WireType) {
        self[WireType.key] = .string(type.rawValue)
    }
}
