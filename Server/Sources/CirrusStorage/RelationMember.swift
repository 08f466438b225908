/// One member of a relation field: the object that owns the field and the object it relates to (of the field's
/// target class), as `_Join:<field>:<Class>` files of exports list them.
public struct RelationMember: Sendable, Hashable, CustomStringConvertible {
    public var owningId: String
    public var relatedId: String

    public init(owningId: String, relatedId: String) {
        self.owningId = owningId
        self.relatedId = relatedId
    }

    public var description: String { "\(owningId)→\(relatedId)" }
}
