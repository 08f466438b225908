extension LCQuery {
    /// A condition on a key, an ordering, a key to return or a pointer to include; see ``LCQuery/whereKey(_:_:)``.
    public enum Constraint: Sendable {
        /// Returns only these keys (and `objectId`, `createdAt`, `updatedAt`); `-key` leaves a key out.
        case selected
        /// Returns the object a pointer key points to, not just the pointer; dots go deeper (`post.author`).
        case included

        /// Orders by the key, smallest first; several orderings apply in the order given.
        case ascending
        /// Orders by the key, largest first.
        case descending

        /// The key is set.
        case existed
        /// The key is not set.
        case notExisted

        /// The key equals the value; for an array key, the array holds it. Replaces other conditions on the key.
        case equalTo(any LCValueConvertible & Sendable)
        case notEqualTo(any LCValueConvertible & Sendable)
        case lessThan(any LCValueConvertible & Sendable)
        case lessThanOrEqualTo(any LCValueConvertible & Sendable)
        case greaterThan(any LCValueConvertible & Sendable)
        case greaterThanOrEqualTo(any LCValueConvertible & Sendable)

        /// The key's value is one of these (`$in`).
        case containedIn([any LCValueConvertible & Sendable])
        /// The key's value is none of these (`$nin`).
        case notContainedIn([any LCValueConvertible & Sendable])
        /// The array key holds all of these (`$all`).
        case containedAllIn([any LCValueConvertible & Sendable])
        /// The array key has this many elements (`$size`).
        case equalToSize(Int)

        /// The point key is nearest to `point` first, optionally within `from`…`to` of it.
        case locatedNear(LCGeoPoint, from: LCGeoPoint.Distance? = nil, to: LCGeoPoint.Distance? = nil)
        /// The point key lies in the box between `southwest` and `northeast`.
        case locatedWithin(southwest: LCGeoPoint, northeast: LCGeoPoint)

        /// The pointer key points to an object `query` finds (`$inQuery`).
        case matchedQuery(LCQuery)
        /// The pointer key points to no object `query` finds (`$notInQuery`).
        case notMatchedQuery(LCQuery)
        /// The key equals `key` of an object `query` finds (`$select`).
        case matchedQueryAndKey(query: LCQuery, key: String)
        /// The key equals `key` of no object `query` finds (`$dontSelect`).
        case notMatchedQueryAndKey(query: LCQuery, key: String)

        /// The string key matches a regular expression; `option` holds flags such as `i`.
        case matchedRegularExpression(String, option: String?)
        /// The string key contains this text.
        case matchedSubstring(String)
        /// The string key starts with this text.
        case prefixedBy(String)
        /// The string key ends with this text.
        case suffixedBy(String)

        /// The objects are the members of relation `key` of this object (`$relatedTo`).
        case relatedTo(LCObject)
    }
}
