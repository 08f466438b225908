import CirrusModel
extension LCObject {
    /// Adds `amount` (1 by default; negative to subtract) to field `key` atomically at the next save
    /// (`{"__op":"Increment"}`).
    public func increase(_ key: String, by amount: any LCNumberConvertible = 1) throws {
        try record(key, .increment(amount.lcNumber.value))
    }

    /// Appends `element` to array field `key` at the next save (`Add`), or only when it is missing for `unique`
    /// (`AddUnique`).
    public func append(_ key: String, element: any LCValueConvertible, unique: Bool = false) throws {
        try append(key, elements: [element], unique: unique)
    }

    /// Appends `elements` to array field `key` at the next save (`Add`), or the missing ones for `unique`
    /// (`AddUnique`).
    public func append(_ key: String, elements: [any LCValueConvertible], unique: Bool = false) throws {
        let values = elements.map(\.lcValue)
        try record(key, unique ? .addUnique(values) : .add(values))
    }

    /// Removes every occurrence of `element` from array field `key` at the next save (`Remove`).
    public func remove(_ key: String, element: any LCValueConvertible) throws {
        try remove(key, elements: [element])
    }

    /// Removes every occurrence of `elements` from array field `key` at the next save (`Remove`).
    public func remove(_ key: String, elements: [any LCValueConvertible]) throws {
        try record(key, .remove(elements.map(\.lcValue)))
    }

    /// The relation held by field `key`.
    public func relationForKey(_ key: String) -> LCRelation {
        if let relation = get(key) as? LCRelation, relation.parent === self { return relation }
        let className = (get(key) as? LCRelation)?.objectClassName
        return LCRelation(key: key, parent: self, objectClassName: className)
    }

    /// Adds `object` to relation field `key` at the next save (`AddRelation`); a new `object` is saved first.
    public func insertRelation(_ key: String, object: LCObject) throws {
        try recordRelation(key, object, .addRelation([object]))
    }

    /// Removes `object` from relation field `key` at the next save (`RemoveRelation`).
    public func removeRelation(_ key: String, object: LCObject) throws {
        try recordRelation(key, object, .removeRelation([object]))
    }

    private func recordRelation(_ key: String, _ object: LCObject, _ operation: Operation) throws {
        try record(key, operation)
        lock.withLock {
            if !(state.properties[key] is LCRelation) {
                state.properties[key] = LCRelation(key: key, parent: self, objectClassName: object.className)
            }
        }
    }
}
