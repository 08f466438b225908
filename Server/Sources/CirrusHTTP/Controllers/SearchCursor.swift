import CirrusModel

/// LeanCloud's search `sid`: the request a page answered (every parameter but `sid`) and where the next page starts,
/// sealed with an HMAC under a secret derived from the master key (so no client forges or alters one, and every
/// instance of the app continues it) and valid for five minutes, as LeanCloud's.
struct SearchCursorCodec: Sendable {
    private let seal: JSONSeal

    /// How long a `sid` stays valid.
    static let lifetimeMilliseconds: Int64 = 5 * 60 * 1000

    init(masterKey: String) {
        seal = JSONSeal(masterKey: masterKey, purpose: "cirrus search cursor")
    }

    func seal(parameters: [String: String], skip: Int, now: Timestamp) -> String {
        seal.seal([
            "p": .object(parameters.mapValues(JSON.string)), "s": .int(Int64(skip)),
            "x": .int(now.millisecondsSince1970 + Self.lifetimeMilliseconds),
        ])
    }

    /// The parameters and next skip sealed in `text`.
    /// - Throws: ``APIError/Reason/invalidParameter`` for a `sid` altered, forged or expired.
    func open(_ text: String, now: Timestamp) throws(APIError) -> (parameters: [String: String], skip: Int) {
        guard let members = seal.open(text), case .object(let parameters)? = members["p"], let skip = members["s"]?.intValue,
            let expiry = members["x"]?.intValue
        else { throw APIError(.invalidParameter, "Invalid sid.") }
        guard now.millisecondsSince1970 < expiry else { throw APIError(.invalidParameter, "The sid has expired: search again without it.") }
        return (parameters.compactMapValues(\.stringValue), Int(skip))
    }
}
