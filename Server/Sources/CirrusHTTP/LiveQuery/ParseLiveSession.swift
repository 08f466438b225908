package import CirrusLiveQuery
import CirrusModel
import CirrusStorage
import Foundation
package import Logging
import NIOCore
import NIOHTTP1
import NIOWebSocket

/// One socket of Parse's LiveQuery protocol (JSON text frames): `connect` → `connected` (the app id, and a key if
/// one is sent, must be this app's), `subscribe` / `update` → `subscribed`, `unsubscribe` → `unsubscribed`, and the
/// events `create`, `enter`, `update`, `leave`, `delete` with `original` for the three in the middle. Errors are
/// `{"op":"error","code","error","reconnect"}` with Parse's codes: 1 for a frame that is not a valid request, 2 for a
/// request before `connect` or for an unknown subscription, 3 for an unknown op, 4 for a key that is not this app's,
/// and the dialect's code of a refused subscription (an invalid session, a class the session may not find).
///
/// Subscriptions live as long as the socket, in this instance's memory; they pass the same read rights as
/// LeanCloud's (``LiveMatcher``). Events wait in a bounded queue; a client that stops reading is disconnected.
final class ParseLiveSession: LiveSink, @unchecked Sendable {
    let keys: (appId: String, appKey: String, masterKey: String)
    let liveQuery: LiveQueryService
    let settings: LiveQuerySettings
    let clientId = UUID().uuidString.lowercased()
    let socket: RealtimeSocket
    private let lock = Lock()
    private var connected = false
    private var installationId: String?
    private var sessionToken: String?
    private var requests: [Int64: String] = [:]

    init(keys: (String, String, String), liveQuery: LiveQueryService, settings: LiveQuerySettings, channel: any Channel, logger: Logger) {
        self.keys = keys
        self.liveQuery = liveQuery
        self.settings = settings
        socket = RealtimeSocket(channel: channel, queueLimit: settings.queueLimit, logger: logger)
    }

    func serve(_ connection: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>) async {
        let socket = socket
        socket.after(settings.loginTimeout) { [self] in
            if !lock.withLock({ connected }) { socket.close() }
        }
        await socket.run(connection, ended: { liveQuery.detach(self, clientId: clientId) }, handle: { [self] in await handle($0) })
    }

    private func handle(_ frame: WebSocketFrame) async -> Bool {
        guard case .object(let request)? = try? JSONParser.parse(Array(buffer: frame.unmaskedData)) else {
            socket.send(error(1, "The message is not a JSON object.", requestId: nil))
            return true
        }
        if let reply = await respond(to: request) { socket.send(reply) }
        return true
    }

    /// The reply to a request.
    func respond(to request: [String: JSON]) async -> WebSocketFrame? {
        let requestId = request["requestId"]?.intValue
        guard let op = request["op"]?.stringValue else { return error(1, "A request needs op.", requestId: requestId) }
        if op == "connect" { return connect(request) }
        guard ["subscribe", "update", "unsubscribe"].contains(op) else { return error(3, "Get unknown operation \(op).", requestId: requestId) }
        guard lock.withLock({ connected }) else {
            return error(2, "Can not find this client, make sure you connect to server before subscribing.", requestId: requestId)
        }
        guard let requestId else { return error(1, "A \(op) request needs a requestId.", requestId: nil) }
        if op == "unsubscribe" {
            guard let queryId = lock.withLock({ requests.removeValue(forKey: requestId) }) else {
                return error(2, "Cannot find subscription with clientId \(clientId) subscriptionId \(requestId).", requestId: requestId)
            }
            liveQuery.registry.remove(queryId: queryId, clientId: clientId)
            return message(["op": "unsubscribed", "requestId": .int(requestId)])
        }
        return await subscribe(request, requestId: requestId)
    }

    private func connect(_ request: [String: JSON]) -> WebSocketFrame {
        guard request["applicationId"]?.stringValue == keys.appId else { return error(4, "Key in request is not valid.", requestId: nil) }
        let offered = ["clientKey", "javascriptKey", "restAPIKey", "windowsKey", "masterKey"].compactMap { request[$0]?.stringValue }
        // A key, when sent, must be this app's; the master key gives a subscriber no more rights.
        guard offered.allSatisfy({ $0 == keys.appKey || $0 == keys.masterKey }) else { return error(4, "Key in request is not valid.", requestId: nil) }
        lock.withLock {
            connected = true
            installationId = request["installationId"]?.stringValue
            sessionToken = request["sessionToken"]?.stringValue
        }
        return message(["op": "connected"])
    }

    /// Parse's `watch`: a non-empty array of distinct field names, or absent.
    static func watch(in query: [String: JSON]) throws(APIError) -> [String]? {
        guard let value = query["watch"], !value.isNull else { return nil }
        guard let names = value.arrayValue?.compactMap(\.stringValue), names.count == value.arrayValue?.count, !names.isEmpty,
            Set(names).count == names.count
        else { throw APIError(.invalidQuery, "query.watch must be a non-empty array of distinct field names.") }
        return names
    }

    private func subscribe(_ request: [String: JSON], requestId: Int64) async -> WebSocketFrame {
        guard case .object(let query)? = request["query"], let className = query["className"]?.stringValue else {
            return error(1, "A subscription needs query.className.", requestId: requestId)
        }
        let keys = (query["keys"] ?? query["fields"])?.arrayValue?.compactMap(\.stringValue)
        let token = request["sessionToken"]?.stringValue ?? lock.withLock { sessionToken }
        let queryId = clientId + ":" + String(requestId)
        if let previous = lock.withLock({ requests[requestId] }) { liveQuery.registry.remove(queryId: previous, clientId: clientId) }
        do {
            if !liveQuery.registry.hasSockets(clientId: clientId) { await liveQuery.attach(self, clientId: clientId) }
            _ = try await liveQuery.subscribeSocket(
                className: className, where: query["where"] ?? [:], keys: keys, clientId: clientId, queryId: queryId, sessionToken: token,
                watch: try Self.watch(in: query)
            )
            lock.withLock { requests[requestId] = queryId }
            return message(["op": "subscribed", "requestId": .int(requestId)])
        } catch let refusal as APIError {
            lock.withLock { _ = requests.removeValue(forKey: requestId) }
            let wire = Dialect.parse.wireError(for: refusal)
            return error(Int64(wire.code ?? 141), wire.message, requestId: requestId)
        } catch {
            lock.withLock { _ = requests.removeValue(forKey: requestId) }
            return self.error(141, "The subscription could not be made.", requestId: requestId)
        }
    }

    /// The server is shutting down: the SDK reconnects (to another instance).
    func goAway() async {
        socket.close(code: 1001, reason: "The server is shutting down.")
        await socket.closed()
    }

    /// Queues an event for a subscription of this socket (LeanCloud's `login` has no Parse form), its objects encoded
    /// once for every event of the record that shows them alike.
    func deliver(_ event: LiveEvent) {
        guard event.operation != .login, let requestId = Int64(event.subscription.queryId.split(separator: ":").last ?? "") else { return }
        var body: [String: JSONWriter.Fragment] = [
            "op": .value(.string(event.operation.rawValue)), "requestId": .value(.int(requestId)),
            "object": .written(event.shown.encoded(Self.encoding, by: Self.encode)),
        ]
        if let original = event.shownOriginal { body["original"] = .written(original.encoded(Self.encoding, by: Self.encode)) }
        socket.send(message(body))
    }

    /// The name of Parse's encoding among a ``LiveObject``'s.
    static let encoding = "parse"

    /// An object as Parse's LiveQuery sends it: the REST encoding with `className` and `__type: "Object"`.
    static func encode(_ shown: LiveObject) -> [UInt8] {
        var members = ObjectEncoder(dialect: .parse).encode(shown.value, schema: nil).objectValue ?? [:]
        members["className"] = .string(shown.value.className)
        members["__type"] = "Object"
        return JSONWriter.bytes(.object(members))
    }

    /// A server message, with the client's id and installation id as Parse sends them.
    private func message(_ body: [String: JSON]) -> WebSocketFrame {
        message(body.mapValues(JSONWriter.Fragment.value))
    }

    private func message(_ body: [String: JSONWriter.Fragment]) -> WebSocketFrame {
        var body = body
        body["clientId"] = .value(.string(clientId))
        if let installationId = lock.withLock({ installationId }) { body["installationId"] = .value(.string(installationId)) }
        return WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(bytes: JSONWriter.bytes(.object(body))))
    }

    private func error(_ code: Int64, _ text: String, requestId: Int64?) -> WebSocketFrame {
        let body: [String: JSON] = [
            "op": "error", "code": .int(code), "error": .string(text), "reconnect": false, "requestId": requestId.map(JSON.int) ?? .null,
        ]
        return WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(bytes: JSONWriter.bytes(.object(body))))
    }
}

/// Parse's LiveQuery socket as a WebSocket endpoint at ``LiveQuerySettings/parsePath``.
package enum ParseLiveEndpoint {
    package static func webSocket(
        liveQuery: LiveQueryService, keys: (appId: String, appKey: String, masterKey: String), settings: LiveQuerySettings, logger: Logger
    ) -> WebSocketEndpoint {
        WebSocketEndpoint(
            maximumFrameSize: settings.maximumFrameSize,
            accept: { head in
                guard settings.enabled, head.path == settings.parsePath || head.path == settings.parsePath + "/" else { return nil }
                return HTTPHeaders()
            },
            serve: { socket, _ in
                let session = ParseLiveSession(keys: keys, liveQuery: liveQuery, settings: settings, channel: socket.channel, logger: logger)
                await session.serve(socket)
            }
        )
    }
}
