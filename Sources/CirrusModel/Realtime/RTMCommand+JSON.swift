/// The flat JSON form of `GenericCommand`, for the `lc.json.*` subprotocols (the .NET LiveQuery SDK).
///
/// The command's fields are top-level members under their `.proto` names, `cmd` by its name. The sub-message that
/// `cmd` implies sits at the top level too: `ids`, `msg` and `offline` of ``RTMDataMessage`` (for every `cmd`
/// but `ack`), with each `msg` item a JSON value rather than text; `ids`, `code`, `reason`, `appCode` and `appMsg` of
/// ``RTMAckMessage`` when `cmd` is `ack`; `pushDisabled` of ``RTMLoggedinMessage``. An error is the object
/// `error`. So a LiveQuery event is
/// `{"cmd":"data","appId":"…","installationId":"…","service":1,"ids":["e1"],"msg":[{"query_id":"Q","op":"create",…}]}`
/// and a failed login `{"cmd":"error","i":1,"error":{"code":4103,"reason":"…","detail":"…"}}`; `{}` is the heartbeat.
/// `loginMessage` and a sub-message that `cmd` does not imply have no JSON form and are left out. Cirrus's resume
/// extension is `resumeAfter`, `position` and `resumed` at the top level.
extension RTMCommand {
    /// Reads a JSON command. Unknown members are ignored and `null` members count as absent.
    ///
    /// `cmd` is a name (`"login"`) or a number; `op` a number or an `OpType` name (`"open"`). `error` is an object
    /// (`code` required, `reason` or else `detail` as the reason) or a plain string (code 0). Each `msg` item is kept
    /// as its compact JSON text (``JSONWriter``). A `detail` equal to the `reason` is not kept, since ``json``
    /// writes the reason there when there is no detail.
    /// - Throws: ``RTMDecodingError`` for a non-object, a member of the wrong type, an integer out of range, an
    ///   unknown `cmd` or `op` name, or an `error` without its code or reason.
    public init(json: JSON) throws(RTMDecodingError) {
        guard case .object(let object) = json else { throw RTMDecodingError("a JSON command must be an object") }
        let members = JSONMembers(object, path: "")
        self.init()
        cmd = try Self.commandType(members.value("cmd"))
        op = try Self.opType(members.value("op"))
        appId = try members.string("appId")
        peerId = try members.string("peerId")
        i = try members.int32("i")
        installationId = try members.string("installationId")
        priority = try members.int32("priority")
        service = try members.int32("service")
        serverTs = try members.int64("serverTs")
        clientTs = try members.int64("clientTs")
        notificationType = try members.int32("notificationType")
        if cmd == .ack {
            if members.hasAny("ids", "code", "reason", "appCode", "appMsg") {
                ackMessage = RTMAckMessage(
                    code: try members.int32("code"), reason: try members.string("reason"),
                    ids: try members.strings("ids") ?? [], appCode: try members.int32("appCode"),
                    appMsg: try members.string("appMsg"))
            }
        } else if members.hasAny("ids", "msg", "offline") {
            let items = try members.array("msg") ?? []
            dataMessage = RTMDataMessage(
                ids: try members.strings("ids") ?? [], msg: items.map(JSONWriter.string),
                offline: try members.bool("offline"))
        }
        if let pushDisabled = try members.bool("pushDisabled") {
            loggedinMessage = RTMLoggedinMessage(pushDisabled: pushDisabled)
        }
        errorMessage = try Self.errorMessage(members.value("error"))
        resumeAfter = try members.int64("resumeAfter")
        position = try members.int64("position")
        resumed = try members.bool("resumed")
    }

    /// The JSON command: the fields that are set, flattened as ``init(json:)`` reads them. Each `msg` item is its
    /// text parsed as JSON (a text that is not JSON is sent as a string). An error always has `detail`, the reason
    /// when there is none: the .NET SDK reads `error.code` and `error.detail` and drops a reply that lacks one.
    public var json: JSON {
        var members: [String: JSON] = [:]
        if let cmd { members["cmd"] = cmd.name.map(JSON.string) ?? .int(Int64(cmd.rawValue)) }
        members["op"] = op.map { .int(Int64($0)) }
        members["appId"] = appId.map(JSON.string)
        members["peerId"] = peerId.map(JSON.string)
        members["i"] = i.map { .int(Int64($0)) }
        members["installationId"] = installationId.map(JSON.string)
        members["priority"] = priority.map { .int(Int64($0)) }
        members["service"] = service.map { .int(Int64($0)) }
        members["serverTs"] = serverTs.map(JSON.int)
        members["clientTs"] = clientTs.map(JSON.int)
        members["notificationType"] = notificationType.map { .int(Int64($0)) }
        if cmd == .ack {
            if let ackMessage {
                members["ids"] = .array(ackMessage.ids.map(JSON.string))
                members["code"] = ackMessage.code.map { .int(Int64($0)) }
                members["reason"] = ackMessage.reason.map(JSON.string)
                members["appCode"] = ackMessage.appCode.map { .int(Int64($0)) }
                members["appMsg"] = ackMessage.appMsg.map(JSON.string)
            }
        } else if let dataMessage {
            members["ids"] = .array(dataMessage.ids.map(JSON.string))
            members["msg"] = .array(dataMessage.msg.map { data in (try? JSONParser.parse(data)) ?? .string(data) })
            members["offline"] = dataMessage.offline.map(JSON.bool)
        }
        members["pushDisabled"] = loggedinMessage?.pushDisabled.map(JSON.bool)
        if let errorMessage {
            var error: [String: JSON] = [
                "code": .int(Int64(errorMessage.code)), "reason": .string(errorMessage.reason),
                "detail": .string(errorMessage.detail ?? errorMessage.reason),
            ]
            error["appCode"] = errorMessage.appCode.map { .int(Int64($0)) }
            error["appMsg"] = errorMessage.appMsg.map(JSON.string)
            if !errorMessage.pids.isEmpty { error["pids"] = .array(errorMessage.pids.map(JSON.string)) }
            members["error"] = .object(error)
        }
        members["resumeAfter"] = resumeAfter.map(JSON.int)
        members["position"] = position.map(JSON.int)
        members["resumed"] = resumed.map(JSON.bool)
        return .object(members)
    }

    /// `cmd`: a name or a number.
    private static func commandType(_ value: JSON?) throws(RTMDecodingError) -> RTMCommandType? {
        switch value {
        case nil: return nil
        case .string(let name)?:
            guard let type = RTMCommandType(name: name) else { throw RTMDecodingError("unknown cmd \"\(name)\"") }
            return type
        case let number?:
            guard let raw = number.intValue.flatMap(Int32.init(exactly:)) else {
                throw RTMDecodingError("cmd must be a name or a 32-bit integer")
            }
            return RTMCommandType(rawValue: raw)
        }
    }

    /// `op`: a number or a name of the JS SDK's `OpType` (`members-joined` and `members_joined` alike).
    private static func opType(_ value: JSON?) throws(RTMDecodingError) -> Int32? {
        switch value {
        case nil: return nil
        case .string(let name)?:
            let key = String(name.map { $0 == "-" ? "_" : $0 })
            guard let raw = opValues[key] else { throw RTMDecodingError("unknown op \"\(name)\"") }
            return raw
        case let number?:
            guard let raw = number.intValue.flatMap(Int32.init(exactly:)) else {
                throw RTMDecodingError("op must be a name or a 32-bit integer")
            }
            return raw
        }
    }

    /// The `OpType` values by name, from `js-realtime-sdk` `proto/message.proto` (the IM operations; LiveQuery sends
    /// none). Written back as numbers.
    private static let opValues: [String: Int32] = [
        "open": 1, "add": 2, "remove": 3, "close": 4, "opened": 5, "closed": 6, "query": 7, "query_result": 8,
        "conflict": 9, "added": 10, "removed": 11, "start": 30, "started": 31, "joined": 32, "members_joined": 33,
        "left": 39, "members_left": 40, "results": 42, "count": 43, "result": 44, "update": 45, "updated": 46,
        "mute": 47, "unmute": 48, "status": 49, "members": 50, "join": 80, "invite": 81, "leave": 82, "kick": 83,
        "reject": 84, "invited": 85, "kicked": 86, "upload": 100, "uploaded": 101,
    ]

    /// `error`: an object with `code` and `reason` (or `detail`), or a plain string.
    private static func errorMessage(_ value: JSON?) throws(RTMDecodingError) -> RTMErrorMessage? {
        switch value {
        case nil: return nil
        case .string(let text)?: return RTMErrorMessage(code: 0, reason: text)
        case .object(let object)?:
            let members = JSONMembers(object, path: "error.")
            guard let code = try members.int32("code") else { throw RTMDecodingError("error without its code") }
            let detail = try members.string("detail")
            guard let reason = try members.string("reason") ?? detail else {
                throw RTMDecodingError("error without its reason or detail")
            }
            return RTMErrorMessage(
                code: code, reason: reason, appCode: try members.int32("appCode"),
                detail: detail == reason ? nil : detail, pids: try members.strings("pids") ?? [],
                appMsg: try members.string("appMsg"))
        default: throw RTMDecodingError("error must be an object or a string")
        }
    }
}

/// The members of a JSON object read by type, `null` counting as absent; a member of another type is an error.
private struct JSONMembers {
    let object: [String: JSON]
    /// Prefixed to member names in errors (`error.`).
    let path: String

    init(_ object: [String: JSON], path: String) {
        self.object = object
        self.path = path
    }

    /// The member `key`, or `nil` when it is missing or `null`.
    func value(_ key: String) -> JSON? {
        guard let value = object[key], !value.isNull else { return nil }
        return value
    }

    /// Whether any of `keys` is present and not `null`.
    func hasAny(_ keys: String...) -> Bool {
        keys.contains { value($0) != nil }
    }

    private func mistyped(_ key: String, _ expected: String) -> RTMDecodingError {
        RTMDecodingError("\(path)\(key) must be \(expected)")
    }

    func string(_ key: String) throws(RTMDecodingError) -> String? {
        guard let value = value(key) else { return nil }
        guard let text = value.stringValue else { throw mistyped(key, "a string") }
        return text
    }

    func bool(_ key: String) throws(RTMDecodingError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard let flag = value.boolValue else { throw mistyped(key, "true or false") }
        return flag
    }

    func int32(_ key: String) throws(RTMDecodingError) -> Int32? {
        guard let value = value(key) else { return nil }
        guard let number = value.intValue.flatMap(Int32.init(exactly:)) else { throw mistyped(key, "a 32-bit integer") }
        return number
    }

    func int64(_ key: String) throws(RTMDecodingError) -> Int64? {
        guard let value = value(key) else { return nil }
        guard let number = value.intValue else { throw mistyped(key, "a 64-bit integer") }
        return number
    }

    func array(_ key: String) throws(RTMDecodingError) -> [JSON]? {
        guard let value = value(key) else { return nil }
        guard let elements = value.arrayValue else { throw mistyped(key, "an array") }
        return elements
    }

    func strings(_ key: String) throws(RTMDecodingError) -> [String]? {
        guard let elements = try array(key) else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for element in elements {
            guard let text = element.stringValue else { throw mistyped(key, "an array of strings") }
            strings.append(text)
        }
        return strings
    }
}
