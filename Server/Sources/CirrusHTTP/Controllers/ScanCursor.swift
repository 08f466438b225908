import CirrusModel

/// Where a scan stopped: the class, the scan key, the key value of the last object returned, and when the
/// cursor expires. Sealed with an HMAC under a secret derived from the master key, so that a client cannot
/// forge or alter it and any server instance of the app can continue the scan.
struct ScanCursor: Sendable, Equatable {
    var className: String
    /// The scan key as given: `objectId`, `-timestamp`.
    var key: String
    var lastValue: JSON
    var expiresAt: Timestamp

    /// How long a cursor stays valid, as in LeanCloud.
    static let lifetimeMilliseconds: Int64 = 10 * 60 * 1000
}

/// Seals and opens ``ScanCursor``s.
struct ScanCursorCodec: Sendable {
    private let seal: JSONSeal

    init(masterKey: String) {
        seal = JSONSeal(masterKey: masterKey, purpose: "cirrus scan cursor")
    }

    /// `<payload>.<mac>`, both base64url without padding.
    func seal(_ cursor: ScanCursor) -> String {
        seal.seal([
            "c": .string(cursor.className), "k": .string(cursor.key), "v": cursor.lastValue,
            "x": .int(cursor.expiresAt.millisecondsSince1970),
        ])
    }

    /// The cursor sealed in `text`, checked against the class and scan key of the request and the clock.
    /// - Throws: ``APIError`` ``APIError/Reason/invalidQuery`` for a cursor that was altered, forged, has
    ///   expired, or belongs to another class or scan key.
    func open(_ text: String, className: String, key scanKey: String, now: Timestamp) throws(APIError) -> ScanCursor {
        guard let members = seal.open(text),
            let cursorClass = members["c"]?.stringValue, let cursorKey = members["k"]?.stringValue,
            let value = members["v"], let expiry = members["x"]?.intValue
        else { throw APIError(.invalidQuery, "Invalid scan cursor.") }
        guard cursorClass == className, cursorKey == scanKey else {
            throw APIError(.invalidQuery, "The scan cursor belongs to another class or scan_key.")
        }
        guard now.millisecondsSince1970 < expiry else { throw APIError(.invalidQuery, "The scan cursor has expired.") }
        return ScanCursor(className: cursorClass, key: cursorKey, lastValue: value, expiresAt: Timestamp(millisecondsSince1970: expiry))
    }
}
