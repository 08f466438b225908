/// A many-to-many relation held by a field of an object, sent as `{"__type":"Relation","className":…}`.
///
/// Get one with ``LCObject/relationForKey(_:)``; ``insert(_:)`` and ``remove(_:)`` record `AddRelation` and
/// `RemoveRelation` operations on the parent, sent by its next save. ``query`` finds the members.
public final class LCRelation: LCValue, @unchecked Sendable {
    /// The field of the parent holding the relation.
    public let key: String
    /// The class of the members, when known.
    public let objectClassName: String?
    weak var parent: LCObject?

    init(key: String, parent: LCObject?, objectClassName: String?) {
        self.key = key
        self.parent = parent
        self.objectClassName = objectClassName
    }

    /// Adds `object` to the relation at the parent's next save.
    /// - Throws: `LCError` when the parent is gone or `object` was never saved.
    public func insert(_ object: LCObject) throws {
        try requireParent().insertRelation(key, object: object)
    }

    /// Removes `object` from the relation at the parent's next save.
    public func remove(_ object: LCObject) throws {
        try requireParent().removeRelation(key, object: object)
    }

    /// A query for the members (`$relatedTo`); for a relation of unknown class the server is asked to use the
    /// members' class (`redirectClassNameForKey`).
    public var query: LCQuery {
        guard let parent else { return LCQuery(className: objectClassName ?? "") }
        let query = LCQuery(application: parent.application, className: objectClassName ?? parent.className)
        query.relatedTo = (parent, key)
        if objectClassName == nil { query.redirectKey = key }
        return query
    }

    private func requireParent() throws -> LCObject {
        guard let parent else { throw LCError.inconsistency("The relation's object no longer exists.") }
        return parent
    }

    public var description: String { "<Relation \(key) → \(objectClassName ?? "?")>" }
}
