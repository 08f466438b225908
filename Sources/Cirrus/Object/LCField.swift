/// A typed property of an ``LCObject`` subclass, stored in the field `key`:
/// `@LCField("name") var name: LCString?` reads `get("name") as? LCString` and writes `set("name", value:)`
/// (a value of another type reads as `nil`). Subclasses holding fields are `@unchecked Sendable`, as their state is
/// the object's, behind its lock.
@propertyWrapper
public struct LCField<Value: LCValue>: Sendable {
    /// The field's key.
    public let key: String

    public init(_ key: String) {
        self.key = key
    }

    @available(*, unavailable, message: "@LCField works only in LCObject subclasses")
    public var wrappedValue: Value? {
        get { fatalError("@LCField works only in LCObject subclasses") }
        set { fatalError("@LCField works only in LCObject subclasses") }
    }

    public static subscript<Object: LCObject>(
        _enclosingInstance object: Object, wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value?>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, LCField<Value>>
    ) -> Value? {
        get { object.get(object[keyPath: storageKeyPath].key) as? Value }
        set { try? object.set(object[keyPath: storageKeyPath].key, value: newValue) }
    }
}
