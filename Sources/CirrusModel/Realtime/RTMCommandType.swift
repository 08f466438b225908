/// A command's kind: `GenericCommand.cmd`, the `CommandType` enum of LeanCloud's `push_server.messages2`.
///
/// A value this enum does not name is kept as ``unknown(_:)`` rather than refused, so a newer peer's command still
/// decodes. Equality and hashing go by ``rawValue``: `.unknown(8)` equals `.login`.
public enum RTMCommandType: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
    case session
    case conv
    case direct
    case ack
    case rcp
    case unread
    case logs
    case error
    case login
    case data
    case room
    case read
    case presence
    case report
    case echo
    case loggedin
    case logout
    case loggedout
    case patch
    case pubsub
    case blacklist
    case goaway
    case unknown(Int32)

    /// The named cases in value order: `known[n]` is the case whose value is `n`.
    public static let known: [RTMCommandType] = [
        .session, .conv, .direct, .ack, .rcp, .unread, .logs, .error, .login, .data, .room, .read, .presence, .report,
        .echo, .loggedin, .logout, .loggedout, .patch, .pubsub, .blacklist, .goaway,
    ]

    /// The case for `rawValue`: a named one for 0…21, ``unknown(_:)`` otherwise.
    public init(rawValue: Int32) {
        self = Self.known.indices.contains(Int(rawValue)) ? Self.known[Int(rawValue)] : .unknown(rawValue)
    }

    /// The case named `name` as in the `.proto` (`"login"`, `"data"`, …), or `nil`.
    public init?(name: String) {
        guard let index = Self.known.firstIndex(where: { $0.name == name }) else { return nil }
        self = Self.known[index]
    }

    /// The value on the wire.
    public var rawValue: Int32 {
        switch self {
        case .session: 0
        case .conv: 1
        case .direct: 2
        case .ack: 3
        case .rcp: 4
        case .unread: 5
        case .logs: 6
        case .error: 7
        case .login: 8
        case .data: 9
        case .room: 10
        case .read: 11
        case .presence: 12
        case .report: 13
        case .echo: 14
        case .loggedin: 15
        case .logout: 16
        case .loggedout: 17
        case .patch: 18
        case .pubsub: 19
        case .blacklist: 20
        case .goaway: 21
        case .unknown(let value): value
        }
    }

    /// The name in the `.proto`, which the `lc.json.*` subprotocols send as `cmd`; `nil` for an unknown value.
    public var name: String? {
        switch Self(rawValue: rawValue) {
        case .session: "session"
        case .conv: "conv"
        case .direct: "direct"
        case .ack: "ack"
        case .rcp: "rcp"
        case .unread: "unread"
        case .logs: "logs"
        case .error: "error"
        case .login: "login"
        case .data: "data"
        case .room: "room"
        case .read: "read"
        case .presence: "presence"
        case .report: "report"
        case .echo: "echo"
        case .loggedin: "loggedin"
        case .logout: "logout"
        case .loggedout: "loggedout"
        case .patch: "patch"
        case .pubsub: "pubsub"
        case .blacklist: "blacklist"
        case .goaway: "goaway"
        case .unknown: nil
        }
    }

    public var description: String { name ?? "unknown(\(rawValue))" }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.rawValue == rhs.rawValue
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawValue)
    }
}
