/// One frame of LeanCloud's realtime (RTM) protocol as the LiveQuery SDKs speak it: the subset of `GenericCommand`
/// (package `push_server.messages2`, proto2) that login, events, acks, logout, echo and goaway use.
///
/// Two encodings: protobuf (``init(protobuf:)``, ``protobuf``) for the `lc.protobuf2.*` subprotocols (and, in
/// base64 text frames, `lc.proto2base64.*`), and flat JSON (``init(json:)``, ``json``) for `lc.json.*`.
/// Every field is optional as in the `.proto`; `nil` is "not set" and is not written. The sub-messages that IM uses
/// (`sessionMessage` = 102 and 104, 106–116) are skipped when decoding.
///
/// ```swift
/// let login = try RTMCommand(protobuf: frame)            // {cmd: login, appId, installationId, service: 1, i: 1}
/// let reply = RTMCommand(cmd: .loggedin, i: login.i)
/// socket.send(reply.protobuf)
/// ```
public struct RTMCommand: Sendable, Hashable {
    /// `cmd = 1`: the command's kind.
    public var cmd: RTMCommandType?
    /// `op = 2`: the `OpType`, kept raw (IM only).
    public var op: Int32?
    /// `appId = 3`.
    public var appId: String?
    /// `peerId = 4`: the IM client id.
    public var peerId: String?
    /// `i = 5`: the request's serial number, which the reply repeats. A command that carries it is a reply to the
    /// client, never an event.
    public var i: Int32?
    /// `installationId = 6`: LiveQuery's connection id, which routes events to the client.
    public var installationId: String?
    /// `priority = 7`.
    public var priority: Int32?
    /// `service = 8`: 1 = LiveQuery, 2 = IM, 0 = push.
    public var service: Int32?
    /// `serverTs = 9`, in milliseconds.
    public var serverTs: Int64?
    /// `clientTs = 10`, in milliseconds.
    public var clientTs: Int64?
    /// `notificationType = 11`.
    public var notificationType: Int32?
    /// `loginMessage = 100`: present or not; its contents are dropped.
    public var loginMessage: RTMLoginMessage?
    /// `dataMessage = 101`: the events of a `data` command.
    public var dataMessage: RTMDataMessage?
    /// `errorMessage = 103`: why a command failed (`cmd: error`).
    public var errorMessage: RTMErrorMessage?
    /// `ackMessage = 105`.
    public var ackMessage: RTMAckMessage?
    /// `loggedinMessage = 117`.
    public var loggedinMessage: RTMLoggedinMessage?
    /// Cirrus's extension (`resumeAfter = 1001`, JSON `resumeAfter`), on `login`: the change-log position after
    /// which the client wants the events it missed (the last event's `sequence`, or the last `position` it was told).
    /// LeanCloud's SDKs never send it.
    public var resumeAfter: Int64?
    /// Cirrus's extension (`position = 1002`), on `loggedin` and `echo` replies: the change-log position through which
    /// every event of the client was queued before this reply, the point to resume after.
    public var position: Int64?
    /// Cirrus's extension (`resumed = 1003`), on the `loggedin` reply to a login with ``resumeAfter``: whether every
    /// event after that point was replayed (`false`: the server no longer holds all of them, some may be lost).
    public var resumed: Bool?

    /// A command with the given fields set; `RTMCommand()` is the empty command (`{}`, the `lc.json` heartbeat).
    public init(
        cmd: RTMCommandType? = nil, op: Int32? = nil, appId: String? = nil, peerId: String? = nil, i: Int32? = nil,
        installationId: String? = nil, priority: Int32? = nil, service: Int32? = nil, serverTs: Int64? = nil,
        clientTs: Int64? = nil, notificationType: Int32? = nil, loginMessage: RTMLoginMessage? = nil,
        dataMessage: RTMDataMessage? = nil, errorMessage: RTMErrorMessage? = nil, ackMessage: RTMAckMessage? = nil,
        loggedinMessage: RTMLoggedinMessage? = nil, resumeAfter: Int64? = nil, position: Int64? = nil, resumed: Bool? = nil
    ) {
        self.cmd = cmd
        self.op = op
        self.appId = appId
        self.peerId = peerId
        self.i = i
        self.installationId = installationId
        self.priority = priority
        self.service = service
        self.serverTs = serverTs
        self.clientTs = clientTs
        self.notificationType = notificationType
        self.loginMessage = loginMessage
        self.dataMessage = dataMessage
        self.errorMessage = errorMessage
        self.ackMessage = ackMessage
        self.loggedinMessage = loggedinMessage
        self.resumeAfter = resumeAfter
        self.position = position
        self.resumed = resumed
    }
}
