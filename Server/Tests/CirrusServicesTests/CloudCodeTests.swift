import CirrusServices
import CirrusTesting
import Logging
import Testing

@Suite("Cloud code: hook names, hook skips and the engine's replies")
struct CloudCodeTests {
    @Test("each hook reads from and writes to LeanEngine's metadata name, and is served at its path", arguments: [
        (HookPoint.beforeSave("Review"), "__before_save_for_Review", "Review/beforeSave"),
        (.afterSave("Review"), "__after_save_for_Review", "Review/afterSave"),
        (.beforeUpdate("_User"), "__before_update_for__User", "_User/beforeUpdate"),
        (.afterUpdate("Post"), "__after_update_for_Post", "Post/afterUpdate"),
        (.beforeDelete("Post"), "__before_delete_for_Post", "Post/beforeDelete"),
        (.afterDelete("Post"), "__after_delete_for_Post", "Post/afterDelete"),
        (.onLogin, "__on_login__User", "_User/onLogin"),
        (.onAuthData, "__on_authdata__User", "_User/onAuthData"),
        (.onVerified(.sms), "__on_verified_sms", "onVerified/sms"),
        (.onVerified(.email), "__on_verified_email", "onVerified/email"),
    ])
    func hookNames(hook: HookPoint, metadataName: String, path: String) {
        #expect(HookPoint(metadataName: metadataName) == hook)
        #expect(hook.metadataName == metadataName)
        #expect(hook.path == path)
    }

    @Test("functions and hooks Cirrus does not call are not hooks", arguments: [
        "hello", "__before_save_for_", "_messageReceived", "__on_complete_bigquery_job", "__on_verified_phone", "",
    ])
    func notHooks(name: String) {
        #expect(HookPoint(metadataName: name) == nil)
    }

    static let hookKeyHolder: Caller = {
        var caller = Caller.anonymous
        caller.holdsHookKey = true
        return caller
    }()

    @Test("__ignore_hooks is taken out of the body, and only the master key or the hook key may skip hooks")
    func skips() throws {
        var body: JSON = ["title": "x", "__ignore_hooks": ["beforeSave", "afterSave"]]
        let skips = try HookSkips.take(from: &body, caller: Self.hookKeyHolder)
        #expect(body == ["title": "x"])
        #expect(skips.skips(.beforeSave("Review")) && skips.skips(.afterSave("Review")) && !skips.skips(.beforeUpdate("Review")))
        var master: JSON = ["__ignore_hooks": ["beforeDelete"]]
        #expect(try HookSkips.take(from: &master, caller: .master).skips(.beforeDelete("Post")))
        var client: JSON = ["title": "x", "__ignore_hooks": ["beforeSave"]]
        #expect(throws: APIError.self) { try HookSkips.take(from: &client, caller: .anonymous) }
        var plain: JSON = ["title": "x"]
        #expect(try HookSkips.take(from: &plain, caller: .anonymous) == .none)
    }

    @Test("__ignore_hooks must be a list of trigger names", arguments: [
        ["__ignore_hooks": "beforeSave"], ["__ignore_hooks": ["onLogin"]], ["__ignore_hooks": [1]],
    ] as [JSON])
    func malformedSkips(body: JSON) {
        var body = body
        #expect { try HookSkips.take(from: &body, caller: .master) } throws: { ($0 as? APIError)?.reason == .invalidParameter }
    }

    /// An engine transport that answers every request with one scripted reply or failure.
    struct ScriptedTransport: EngineTransport {
        let outcome: Result<EngineReply, EngineTransportError>

        func send(_ request: EngineRequest, to baseURL: String, timeout: Duration) async throws(EngineTransportError) -> EngineReply {
            try outcome.get()
        }
    }

    static func engine(_ outcome: Result<EngineReply, EngineTransportError>) -> CloudEngine {
        let settings = EngineSettings(productionURL: "http://engine.invalid", appId: "app", appKey: "key", masterKey: "master", hookKey: "hook")
        return CloudEngine(settings: settings, transport: ScriptedTransport(outcome: outcome), logger: Logger(label: "test"))
    }

    static func reply(_ status: Int, _ body: String) -> Result<EngineReply, EngineTransportError> {
        .success(EngineReply(status: status, body: Array(body.utf8)))
    }

    @Test("a function's reply passes through; its own error keeps its status and code; anything else is a clear failure", arguments: [
        (reply(200, #"{"result":"hi"}"#), nil, nil),
        (reply(400, #"{"code":3721,"error":"no"}"#), APIError.Reason.cloudCodeFailed, APIError.EngineFailure(status: 400, code: 3721)),
        (reply(500, #"{"error":"crashed"}"#), .cloudCodeFailed, APIError.EngineFailure(status: 500, code: 1)),
        (reply(200, "<html>bad gateway</html>"), .cloudCodeFailed, nil),
        (reply(502, "Bad Gateway"), .cloudCodeFailed, nil),
        (reply(200, "[1,2]"), .cloudCodeFailed, nil),
        (.failure(.timedOut), .engineTimeout, nil),
        (.failure(.redirected(status: 302)), .cloudCodeFailed, nil),
        (.failure(.replyTooLarge(limit: 16)), .cloudCodeFailed, nil),
        (.failure(.unreachable("refused")), .cloudCodeFailed, nil),
    ] as [(Result<EngineReply, EngineTransportError>, APIError.Reason?, APIError.EngineFailure?)])
    func functionReplies(outcome: Result<EngineReply, EngineTransportError>, reason: APIError.Reason?, failure: APIError.EngineFailure?) async {
        let engine = Self.engine(outcome)
        do {
            let result = try await engine.call(CloudEngine.FunctionCall(name: "hello", rpc: false, parameters: nil), caller: .anonymous)
            #expect(reason == nil)
            #expect(result == ["result": "hi"])
        } catch {
            #expect(error.reason == reason)
            #expect(error.engineFailure == failure)
        }
    }

    @Test("a hook's failure of any kind refuses the write with 142 and the hook's message", arguments: [
        reply(400, #"{"code":321,"error":"a review needs at least one star"}"#), reply(200, "garbage"), .failure(.timedOut),
    ])
    func hookFailures(outcome: Result<EngineReply, EngineTransportError>) async {
        let engine = Self.engine(outcome)
        await #expect { _ = try await engine.runBefore(.beforeSave("Review"), body: ["object": [:]]) } throws: { error in
            guard let error = error as? APIError else { return false }
            return error.reason == .hookRefused && error.message.hasPrefix("Cloud Code validation failed. Error detail : ")
        }
    }

    @Test("function names that could change the engine's path are refused before any call", arguments: [
        "", ".hidden", "a/b", "a?b=1", "..", "_ops", "name with space", String(repeating: "x", count: 129),
    ])
    func refusedNames(name: String) async {
        let engine = Self.engine(Self.reply(200, #"{"result":1}"#))
        await #expect { _ = try await engine.call(CloudEngine.FunctionCall(name: name, rpc: false, parameters: nil), caller: .anonymous) } throws: {
            ($0 as? APIError)?.reason == .cloudFunctionNotFound
        }
    }

    @Test("until the engine's list of hooks is read, a hooked write cannot know and is refused; afterwards the list decides")
    func unknownHooks() async throws {
        let down = Self.engine(.failure(.unreachable("refused")))
        await #expect { _ = try await down.defines(.beforeSave("Review")) } throws: { ($0 as? APIError)?.reason == .hookRefused }
        let listing = Self.engine(Self.reply(200, #"{"result":["hello","__before_save_for_Review","__on_login__User"]}"#))
        #expect(try await listing.defines(.beforeSave("Review")))
        #expect(try await !listing.defines(.beforeSave("Post")))
        #expect(listing.hooks == [.beforeSave("Review"), .onLogin])
    }
}
