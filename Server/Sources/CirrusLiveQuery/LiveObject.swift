import CirrusModel
package import CirrusStorage

/// An object as events show it (its fields redacted for the subscriber, its ACL only when asked for, only the `keys`
/// asked for), one per way of showing it for each change record, shared by every event that shows it alike: the
/// sockets encode it once, not once each.
package final class LiveObject: Sendable {
    /// The object shown.
    package let value: StoredObject
    /// Whether it shows its ACL (the subscription's `returnACL`).
    package let showsACL: Bool
    private let lock = Lock()
    nonisolated(unsafe) private var encodings: [String: [UInt8]] = [:]

    package init(_ value: StoredObject, showsACL: Bool) {
        self.value = value
        self.showsACL = showsACL
    }

    /// The object's encoding named `format` (one per wire form), made by `encode` for the first event that needs it;
    /// the others get the same bytes (waiting for them, rather than making them again). `encode` must not ask this
    /// object for an encoding.
    package func encoded(_ format: String, by encode: (LiveObject) -> [UInt8]) -> [UInt8] {
        lock.withLock {
            if let bytes = encodings[format] { return bytes }
            let bytes = encode(self)
            encodings[format] = bytes
            return bytes
        }
    }
}
