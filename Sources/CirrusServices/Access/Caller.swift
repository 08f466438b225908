/// Who is making a request, as the services see it: resolved by the HTTP layer from keys and session.
public struct Caller: Sendable, Hashable {
    /// Whether the request was made with the master key (from a header or a signature, never a body).
    public var isMaster: Bool
    /// The logged-in user, if any.
    public var userId: String?

    public init(isMaster: Bool, userId: String? = nil) {
        self.isMaster = isMaster
        self.userId = userId
    }

    /// The ACL principals whose read grants this caller holds, for ``CirrusStorage/StorageQuery/readers``: `nil`
    /// for the master key (no restriction), else the public `*` (user ids and roles join when users land).
    public var readers: [String]? {
        isMaster ? nil : ["*"]
    }

    /// A client with the app key and no session.
    public static let anonymous = Caller(isMaster: false)
    /// The master key.
    public static let master = Caller(isMaster: true)
}
