public import Foundation

/// A typed property of an ``LCObject`` subclass, stored in the field `key`, of an LC type or a plain Swift one:
///
/// ```swift
/// @LCField("name") var name: LCString?        // get("name") as? LCString
/// @LCField("price") var price: Double?        // a Number read as Double
/// @LCField("tags") var tags: [String]?        // an Array of Strings
/// @LCField("releasedAt") var releasedAt: Date?
/// ```
///
/// Reading gives `nil` when the field is absent or holds another type; setting writes `set(key, value:)` (`nil`
/// removes the field). Subclasses holding fields are `@unchecked Sendable`, as their state is the object's, behind its
/// lock.
@propertyWrapper
public struct LCField<Value: LCFieldConvertible>: Sendable {
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
        get { object.get(object[keyPath: storageKeyPath].key).flatMap(Value.fieldValue) }
        set { try? object.set(object[keyPath: storageKeyPath].key, value: newValue) }
    }
}

/// What an ``LCField`` may hold: the LC types (an LC value reads as itself) and plain Swift types (written as their
/// LC value and read back from one).
public protocol LCFieldConvertible: LCValueConvertible {
    /// The value a field's LC value holds, or `nil` when it holds another type.
    static func fieldValue(_ value: any LCValue) -> Self?
}

extension LCFieldConvertible where Self: LCValue {
    public static func fieldValue(_ value: any LCValue) -> Self? { value as? Self }
}

extension LCString: LCFieldConvertible {}
extension LCNumber: LCFieldConvertible {}
extension LCBool: LCFieldConvertible {}
extension LCArray: LCFieldConvertible {}
extension LCDictionary: LCFieldConvertible {}
extension LCData: LCFieldConvertible {}
extension LCDate: LCFieldConvertible {}
extension LCNull: LCFieldConvertible {}
extension LCGeoPoint: LCFieldConvertible {}
extension LCACL: LCFieldConvertible {}
extension LCRelation: LCFieldConvertible {}
extension LCObject: LCFieldConvertible {}

extension String: LCFieldConvertible {
    public static func fieldValue(_ value: any LCValue) -> String? { value.stringValue }
}

extension Bool: LCFieldConvertible {
    public static func fieldValue(_ value: any LCValue) -> Bool? { value.boolValue }
}

extension Double: LCFieldConvertible {
    public static func fieldValue(_ value: any LCValue) -> Double? { value.doubleValue }
}

extension Float: LCFieldConvertible {
    public static func fieldValue(_ value: any LCValue) -> Float? { value.doubleValue.map(Float.init) }
}

extension Int: LCFieldConvertible {
    /// A whole number only: `2.5` is not an `Int`.
    public static func fieldValue(_ value: any LCValue) -> Int? { value.doubleValue.flatMap { Int(exactly: $0) } }
}

extension Int64: LCFieldConvertible {
    /// A whole number only.
    public static func fieldValue(_ value: any LCValue) -> Int64? { value.doubleValue.flatMap { Int64(exactly: $0) } }
}

extension Date: LCFieldConvertible {
    public static func fieldValue(_ value: any LCValue) -> Date? { value.dateValue }
}

extension Data: LCFieldConvertible {
    public static func fieldValue(_ value: any LCValue) -> Data? { value.dataValue }
}

extension Array: LCFieldConvertible where Element: LCFieldConvertible {
    /// Every element of the field's array as `Element`; `nil` when one is not.
    public static func fieldValue(_ value: any LCValue) -> [Element]? {
        guard let elements = value.arrayValue else { return nil }
        var converted: [Element] = []
        for element in elements {
            guard let item = Element.fieldValue(element) else { return nil }
            converted.append(item)
        }
        return converted
    }
}

extension Dictionary: LCFieldConvertible where Key == String, Value: LCFieldConvertible {
    /// Every member of the field's object as `Value`; `nil` when one is not.
    public static func fieldValue(_ value: any LCValue) -> [String: Value]? {
        guard let members = value.dictionaryValue else { return nil }
        var converted: [String: Value] = [:]
        for (key, member) in members {
            guard let item = Value.fieldValue(member) else { return nil }
            converted[key] = item
        }
        return converted
    }
}
