extension ObjectUpdate {
    /// The values the update writes: those of `set`, `Add`, `AddUnique` and `Remove` operations.
    public var writtenValues: [Value] {
        operations.flatMap { entry -> [Value] in
            switch entry.operation {
            case .set(let value): [value]
            case .add(let values), .addUnique(let values), .remove(let values): values
            default: []
            }
        }
    }

    /// Rewrites the values of `set`, `Add`, `AddUnique` and `Remove` operations (and the elements of arrays they set).
    public mutating func mapWrittenValues(_ transform: (Value) -> Value) {
        let mapped = operations.map { entry -> (path: FieldPath, operation: FieldOperation) in
            switch entry.operation {
            case .set(.array(let elements)): (entry.path, .set(.array(elements.map(transform))))
            case .set(let value): (entry.path, .set(transform(value)))
            case .add(let values): (entry.path, .add(values.map(transform)))
            case .addUnique(let values): (entry.path, .addUnique(values.map(transform)))
            case .remove(let values): (entry.path, .remove(values.map(transform)))
            default: entry
            }
        }
        self = ObjectUpdate(operations: mapped, acl: acl)
    }
}
