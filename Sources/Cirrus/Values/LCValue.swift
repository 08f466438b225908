public import Foundation

/// A value the SDK stores in an object's field: ``LCString``, ``LCNumber``, ``LCBool``, ``LCArray``,
/// ``LCDictionary``, ``LCData``, ``LCDate``, ``LCNull``, ``LCGeoPoint``, ``LCACL``, ``LCRelation``, ``LCObject`` (a
/// pointer) and ``LCFile``.
public protocol LCValue: AnyObject, Sendable, LCValueConvertible, CustomStringConvertible {}

/// Anything that becomes an ``LCValue``: the LC types and Swift's `String`, numbers, `Bool`, `Date`, `Data`, arrays
/// and dictionaries of them, and optionals (`nil` is ``LCNull``).
public protocol LCValueConvertible {
    /// This value as an ``LCValue``.
    var lcValue: any LCValue { get }
}

/// The element type of array operations, as the LeanCloud SDK names it.
public typealias LCType = LCValueConvertible

extension LCValue {
    public var lcValue: any LCValue { self }
}

extension LCValue {
    /// The text of an ``LCString``.
    public var stringValue: String? { (self as? LCString)?.value }

    /// The number of an ``LCNumber`` as `Int` (truncated).
    public var intValue: Int? {
        guard let number = (self as? LCNumber)?.value, number.isFinite, abs(number) < 9.2e18 else { return nil }
        return Int(number)
    }

    /// The number of an ``LCNumber``.
    public var doubleValue: Double? { (self as? LCNumber)?.value }

    /// The flag of an ``LCBool``.
    public var boolValue: Bool? { (self as? LCBool)?.value }

    /// The date of an ``LCDate``.
    public var dateValue: Date? { (self as? LCDate)?.value }

    /// The bytes of an ``LCData``.
    public var dataValue: Data? { (self as? LCData)?.value }

    /// The elements of an ``LCArray``.
    public var arrayValue: [any LCValue]? { (self as? LCArray)?.value }

    /// The members of an ``LCDictionary``.
    public var dictionaryValue: [String: any LCValue]? { (self as? LCDictionary)?.value }
}

/// Equality of two values by their wire form: objects by class and id, objects not saved yet by identity.
public func == (lhs: any LCValue, rhs: any LCValue) -> Bool {
    if let left = lhs as? LCObject, let right = rhs as? LCObject, left.objectId == nil || right.objectId == nil {
        return left === right
    }
    return ValueCoder.encode(lhs) == ValueCoder.encode(rhs)
}

/// A number the SDK can add to a field (``LCObject/increase(_:by:)``).
public protocol LCNumberConvertible: LCValueConvertible {
    /// This number as an ``LCNumber``.
    var lcNumber: LCNumber { get }
}

extension LCNumberConvertible {
    public var lcValue: any LCValue { lcNumber }
}

extension Int: LCNumberConvertible {
    public var lcNumber: LCNumber { LCNumber(Double(self)) }
}

extension Int64: LCNumberConvertible {
    public var lcNumber: LCNumber { LCNumber(Double(self)) }
}

extension Int32: LCNumberConvertible {
    public var lcNumber: LCNumber { LCNumber(Double(self)) }
}

extension UInt: LCNumberConvertible {
    public var lcNumber: LCNumber { LCNumber(Double(self)) }
}

extension UInt64: LCNumberConvertible {
    public var lcNumber: LCNumber { LCNumber(Double(self)) }
}

extension Double: LCNumberConvertible {
    public var lcNumber: LCNumber { LCNumber(self) }
}

extension Float: LCNumberConvertible {
    public var lcNumber: LCNumber { LCNumber(Double(self)) }
}

extension String: LCValueConvertible {
    public var lcValue: any LCValue { LCString(self) }
}

extension Substring: LCValueConvertible {
    public var lcValue: any LCValue { LCString(String(self)) }
}

extension Bool: LCValueConvertible {
    public var lcValue: any LCValue { LCBool(self) }
}

extension Date: LCValueConvertible {
    public var lcValue: any LCValue { LCDate(self) }
}

extension Data: LCValueConvertible {
    public var lcValue: any LCValue { LCData(self) }
}

extension Array: LCValueConvertible where Element: LCValueConvertible {
    public var lcValue: any LCValue { LCArray(map { $0.lcValue }) }
}

extension Dictionary: LCValueConvertible where Key == String, Value: LCValueConvertible {
    public var lcValue: any LCValue { LCDictionary(mapValues { $0.lcValue }) }
}

extension Optional: LCValueConvertible where Wrapped: LCValueConvertible {
    public var lcValue: any LCValue { self?.lcValue ?? LCNull() }
}

extension NSNull: LCValueConvertible {
    public var lcValue: any LCValue { LCNull() }
}
