/// One member of a relation field: the object that owns the field and the object it relates to (of the field's
/// target class), as `_Join:<field>:<Class>` files of exports list them.
package struct RelationMember: Sendable, Hashable, CustomStringConvertible {
    package var owningId: String
    package var relatedId: String

    package init(owningId: String, relatedId: String) {
        self.owningId = owningId
        self.relatedId = relatedId
    }

    package var description: String { "\(owningId)→\(relatedId)" }
}
