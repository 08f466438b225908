package import CirrusLiveQuery
import CirrusModel
import CirrusStorage
import Foundation
package import Logging
import NIOCore
import NIOHTTP1
import NIOWebSocket

/// One socket of Bmob's realtime data ("数据实时", seed 004 RT-1–4), as Bmob's SDKs speak it: Socket.IO 0.9 text frames
/// (`type:id:endpoint:data`) on `/socket.io/1/websocket/<sid>` after the `/socket.io/1/` handshake
/// (``RealtimeListener``). The server greets with `1::` and `client_send_data` (the iOS and JavaScript SDKs subscribe
/// only after it), sends `2:::` heartbeats, and takes `client_sub` / `client_unsub` events whose argument is
/// `{"appKey", "tableName", "objectId", "action"}` with `action` one of `updateTable`, `updateRow`, `deleteRow`,
/// `deleteTable` or their `unsub_` forms (dispatched on the action, as old JavaScript SDKs sent unsubscribes as
/// `client_sub`). Changes go out as `server_pub` events echoing the subscription with the row in Bmob's REST shape.
///
/// The socket carries no credential but the app id, so it sees what a client without a session may read: the class's
/// find permission and the row's ACL for the public (``LiveMatcher``). `updateTable` fires on creates and updates of
/// the table's rows, `updateRow` on updates of its row, `deleteRow` on its delete, `deleteTable` on the class's deletion
/// (with `data` `{}`; a class is deleted once empty, through the schema API).
final class BmobRealtimeSession: LiveSink, @unchecked Sendable {
    let appId: String
    let liveQuery: LiveQueryService
    let settings: LiveQuerySettings
    let logger: Logger
    let clientId = "bmob-" + UUID().uuidString.lowercased()
    let socket: RealtimeSocket
    private let lock = Lock()
    private var lastInput = ContinuousClock.now

    /// Seconds between heartbeats, and without any frame from the client before the socket closes (the handshake's
    /// timeouts).
    static let heartbeat: Duration = .seconds(25)
    static let timeout: Duration = .seconds(60)
    static let subscribeActions: Set<String> = ["updateTable", "updateRow", "deleteRow", "deleteTable"]

    init(appId: String, liveQuery: LiveQueryService, settings: LiveQuerySettings, channel: any Channel, logger: Logger) {
        self.appId = appId
        self.liveQuery = liveQuery
        self.settings = settings
        self.logger = logger
        socket = RealtimeSocket(channel: channel, queueLimit: settings.queueLimit, logger: logger)
    }

    func serve(_ connection: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>) async {
        await RealtimeSocket.apart { [self] in await liveQuery.attach(self, clientId: clientId) }
        socket.send(text: "1::")
        socket.send(text: "5:::" + JSONWriter.string(["name": "client_send_data", "args": ["{}"]]))
        let socket = socket
        socket.every(Self.heartbeat) { [self] in
            if ContinuousClock.now - lock.withLock({ lastInput }) > Self.timeout { return socket.close() }
            socket.send(text: "2:::")
        }
        await socket.run(connection, ended: { liveQuery.detach(self, clientId: clientId) }, handle: { [self] in await handle($0) })
    }

    private func handle(_ frame: WebSocketFrame) async -> Bool {
        lock.withLock { lastInput = .now }
        guard frame.opcode == .text else { return true }
        let text = String(buffer: frame.unmaskedData)
        if text.hasPrefix("0:") {
            socket.finish()
            return false
        }
        if let event = Self.event(in: text) { await subscription(event) }
        return true
    }

    /// The `{"appKey", "tableName", "objectId", "action"}` of a `5:…` event frame (`client_sub` or `client_unsub`),
    /// its argument JSON text or an object; `nil` for any other frame.
    static func event(in text: String) -> [String: JSON]? {
        // type ":" [id ["+"]] ":" [endpoint] ":" data
        let parts = text.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "5", case .object(let event)? = try? JSONParser.parse(String(parts[3])),
            let name = event["name"]?.stringValue, name == "client_sub" || name == "client_unsub", let argument = event["args"]?.arrayValue?.first
        else { return nil }
        switch argument {
        case .object(let members): return members
        case .string(let inner): return (try? JSONParser.parse(inner))?.objectValue
        default: return nil
        }
    }

    /// Subscribes or unsubscribes, as the action says; what is not this app's or not a valid request is ignored (Bmob
    /// answers subscriptions with nothing).
    private func subscription(_ request: [String: JSON]) async {
        guard request["appKey"]?.stringValue == appId, let table = request["tableName"]?.stringValue, var action = request["action"]?.stringValue
        else { return }
        let objectId = request["objectId"]?.stringValue ?? ""
        let unsubscribe = action.hasPrefix("unsub_")
        if unsubscribe { action.removeFirst("unsub_".count) }
        guard Self.subscribeActions.contains(action), action.hasSuffix("Table") || !objectId.isEmpty else { return }
        let queryId = [clientId, action, table, action.hasSuffix("Row") ? objectId : ""].joined(separator: "\u{1}")
        if unsubscribe {
            liveQuery.registry.remove(queryId: queryId, clientId: clientId)
            return
        }
        let condition: JSON = action.hasSuffix("Row") ? ["objectId": .string(objectId)] : [:]
        do {
            _ = try await liveQuery.subscribeSocket(
                className: table, where: condition, keys: nil, clientId: clientId, queryId: queryId, sessionToken: nil,
                followsClassDeletion: action == "deleteTable"
            )
        } catch {
            logger.debug("a Bmob realtime subscription was refused", metadata: ["table": "\(table)", "error": "\(error)"])
        }
    }

    /// The server is shutting down: the SDK reconnects (to another instance).
    func goAway() async {
        socket.close(code: 1001, reason: "The server is shutting down.")
        await socket.closed()
    }

    /// Sends the event when the subscription's action covers it: `updateTable` creates, updates and enters,
    /// `updateRow` updates and enters, `deleteRow` deletes.
    func deliver(_ event: LiveEvent) {
        let parts = event.subscription.queryId.split(separator: "\u{1}", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4 else { return }
        let action = parts[1]
        let covered: Bool
        switch (action, event.operation) {
        case ("updateTable", .create), ("updateTable", .update), ("updateTable", .enter): covered = true
        case ("updateRow", .update), ("updateRow", .enter): covered = true
        case ("deleteRow", .delete), ("deleteTable", .classDeleted): covered = true
        default: covered = false
        }
        guard covered else { return }
        let inner: JSONWriter.Fragment = .object([
            "appKey": .value(.string(appId)), "tableName": .value(.string(event.subscription.className)), "objectId": .value(.string(parts[3])),
            "action": .value(.string(action)), "data": event.operation == .classDeleted ? .value([:]) : .written(event.shown.encoded(Self.encoding, by: Self.encode)),
        ])
        let text = String(decoding: JSONWriter.bytes(inner), as: UTF8.self)
        socket.send(text: "5:::" + JSONWriter.string(["name": "server_pub", "args": [.string(text)]]))
    }

    /// The name of Bmob's encoding among a ``LiveObject``'s.
    static let encoding = "bmob"

    /// A row in Bmob's REST shape, shared by every event of the record that shows it alike.
    static func encode(_ shown: LiveObject) -> [UInt8] {
        JSONWriter.bytes(ObjectEncoder(dialect: .bmob).encode(shown.value, schema: nil))
    }
}

/// Bmob's realtime socket as a WebSocket endpoint at `/socket.io/1/websocket/<sid>`.
package enum BmobRealtimeEndpoint {
    static let handshakePath = "/socket.io/1"
    static let socketPrefix = "/socket.io/1/websocket/"

    package static func webSocket(liveQuery: LiveQueryService, appId: String, settings: LiveQuerySettings, logger: Logger) -> WebSocketEndpoint {
        WebSocketEndpoint(
            maximumFrameSize: settings.maximumFrameSize,
            accept: { head in
                guard settings.enabled, head.uri.hasPrefix(socketPrefix) else { return nil }
                return HTTPHeaders()
            },
            serve: { socket, _ in
                let session = BmobRealtimeSession(appId: appId, liveQuery: liveQuery, settings: settings, channel: socket.channel, logger: logger)
                await session.serve(socket)
            }
        )
    }

    /// The reply to Socket.IO 0.9's handshake (`GET` or `POST /socket.io/1/`; `path` without its query):
    /// `<sid>:<heartbeat timeout>:<close timeout>:<transports>`, only WebSocket; `nil` for another path.
    static func handshake(path: String) -> String? {
        guard path == handshakePath || path == handshakePath + "/" else { return nil }
        let sid = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        return "\(sid):60:60:websocket"
    }
}
