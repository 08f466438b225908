/// Text the SDK takes for ids: a `String` or an ``LCString``.
public protocol LCStringConvertible: LCValueConvertible {
    /// This text as an ``LCString``.
    var lcString: LCString { get }
}

extension String: LCStringConvertible {
    public var lcString: LCString { LCString(self) }
}

extension LCString: LCStringConvertible {
    public var lcString: LCString { self }
}
