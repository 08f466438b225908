@testable import Cirrus
import CirrusModel
import CirrusTesting
import Foundation
import Testing

/// LCInstallation and LCPush against an in-process server over HTTP.
@Suite("Installations and push on a live server")
struct InstallationAndPushLiveTests {
    /// A device token as APNs hands it over.
    static let token = Data((0..<32).map { UInt8($0 * 7 & 0xFF) })
    static let tokenHex = "00070e151c232a31383f464d545b626970777e858c939aa1a8afb6bdc4cbd2d9"

    /// The installations on the server, read with the master key.
    static func installations(_ server: LiveTestServer) async throws -> [JSON] {
        let (status, text) = try await server.master("GET", "/1.1/installations")
        #expect(status == 200)
        return try json(text)["results"]?.arrayValue ?? []
    }

    /// The record of a push, read with the master key.
    static func record(_ server: LiveTestServer, _ id: String) async throws -> JSON {
        let (status, text) = try await server.master("GET", "/1.1/notifications/" + id)
        #expect(status == 200)
        return try json(text)
    }

    /// An app of `server` that keeps its current user and installation in `directory`, as an app launched again would.
    static func launch(_ server: LiveTestServer, storage directory: URL) throws -> LCApplication {
        try LCApplication(
            id: server.keys.appId, key: server.keys.appKey, serverURL: server.baseURL, configuration: .init(currentUserStorage: .directory(directory))
        )
    }

    /// An app of `server` holding the master key (`X-LC-Key: <master>,master`, unsigned).
    static func masterApp(_ server: LiveTestServer) throws -> LCApplication {
        try LCApplication(
            id: server.keys.appId, key: server.keys.masterKey + ",master", serverURL: server.baseURL,
            configuration: .init(currentUserStorage: .none, signsRequests: false)
        )
    }

    /// Saves the app's current installation with the test token and the channel `news`; answers it and its objectId.
    static func saveCurrent(_ application: LCApplication) async throws -> (LCInstallation, String) {
        let installation = application.currentInstallation
        installation.set(deviceToken: Self.token, apnsTeamId: "TEAMID1234")
        try installation.append("channels", element: "news", unique: true)
        try await installation.save()
        return (installation, try #require(installation.objectId?.value))
    }

    @Test("the current installation saved with a device token and channels creates one _Installation")
    func firstSave() async throws {
        try await withLiveApp { application, server in
            let (_, id) = try await Self.saveCurrent(application)
            let stored = try await Self.installations(server)
            #expect(stored.count == 1)
            let row = try #require(stored.first)
            #expect(row["objectId"]?.stringValue == id)
            #expect(row["deviceToken"]?.stringValue == Self.tokenHex)
            #expect(row["apnsTeamId"]?.stringValue == "TEAMID1234")
            #expect(row["deviceType"]?.stringValue == LCInstallation.platform)
            #expect(row["timeZone"]?.stringValue == TimeZone.current.identifier)
            #expect(row["channels"] == ["news"])
        }
    }

    @Test("a second save after changing channels and badge updates the same installation")
    func secondSave() async throws {
        try await withLiveApp { application, server in
            let (installation, id) = try await Self.saveCurrent(application)
            try installation.append("channels", elements: ["sports", "news"], unique: true)
            installation.badge = LCNumber(3)
            try await installation.save()
            #expect(installation.objectId?.value == id)
            let stored = try await Self.installations(server)
            #expect(stored.count == 1)
            #expect(stored.first?["objectId"]?.stringValue == id)
            #expect(stored.first?["channels"] == ["news", "sports"])
            #expect(stored.first?["badge"]?.intValue == 3)
        }
    }

    @Test("the next launch reuses the saved installation, and a fresh installation of the same token saves onto it")
    func nextLaunch() async throws {
        try await withLiveApp { _, server in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cirrus-installation-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let first = try Self.launch(server, storage: directory).currentInstallation
            first.set(deviceToken: Self.token, apnsTeamId: "TEAMID1234")
            try first.append("channels", element: "news", unique: true)
            try await first.save()
            let id = try #require(first.objectId?.value)

            let again = try Self.launch(server, storage: directory).currentInstallation
            #expect(again !== first)
            #expect(again.objectId?.value == id)
            #expect(again.channels?.value.compactMap(\.stringValue) == ["news"])
            again.set(deviceToken: Self.token, apnsTeamId: "TEAMID1234")
            again.badge = LCNumber(1)
            try await again.save()
            #expect(again.objectId?.value == id)

            let fresh = LCInstallation(application: try Self.launch(server, storage: directory))
            fresh.set(deviceToken: Self.token.lcDeviceToken.value.uppercased(), apnsTeamId: "TEAMID1234")
            try fresh.append("channels", element: "sports", unique: true)
            try await fresh.save()
            #expect(fresh.objectId?.value == id)

            let stored = try await Self.installations(server)
            #expect(stored.count == 1)
            #expect(stored.first?["channels"] == ["news", "sports"])
            #expect(stored.first?["badge"]?.intValue == 1)
        }
    }

    @Test("an installation without a device token is refused by the SDK and nothing is created")
    func refusedWithoutToken() async throws {
        try await withLiveApp { application, server in
            let installation = LCInstallation(application: application)
            try installation.append("channels", element: "news", unique: true)
            let error = try await #require(throws: LCError.self) { try await installation.save() }
            #expect(error.code == LCError.InternalErrorCode.inconsistency.rawValue)
            #expect(installation.objectId == nil)
            #expect(try await Self.installations(server).isEmpty)
        }
    }

    @Test("LCPush with the master key to channels returns the id of a record holding its data, audience and times")
    func pushToChannels() async throws {
        try await withLiveApp { _, server in
            let master = try Self.masterApp(server)
            let pushDate = Date().addingTimeInterval(3600)
            let id = try await LCPush.send(
                application: master, data: ["alert": "Hello", "badge": "Increment"], channels: ["news"], pushDate: pushDate,
                expirationInterval: 7200
            )
            let record = try await Self.record(server, id)
            #expect(record["objectId"]?.stringValue == id)
            #expect(record["data"] == ["alert": "Hello", "badge": "Increment"])
            #expect(record["where"] == ["channels": ["$in": ["news"]]])
            #expect(record["push_time"]?.stringValue == LCDate(pushDate).isoString)
            #expect(record["expiration_time"]?.stringValue == LCDate(pushDate.addingTimeInterval(7200)).isoString)
            #expect(record["status"]?.stringValue == "scheduled")
        }
    }

    @Test("LCPush with the master key to a query sends the query's conditions as where")
    func pushToQuery() async throws {
        try await withLiveApp { application, server in
            let installation = application.currentInstallation
            installation.set(deviceToken: Self.token, apnsTeamId: "TEAMID1234")
            try await installation.save()
            let master = try Self.masterApp(server)
            let query = LCQuery(application: master, className: "_Installation")
            query.whereKey("deviceType", .equalTo(LCInstallation.platform))
            query.whereKey("channels", .containedIn(["news", "sports"]))
            let expires = Date().addingTimeInterval(600)
            let id = try await withCheckedThrowingContinuation { continuation in
                LCPush.send(
                    application: master, data: ["alert": "Hi"], query: query, channels: ["ignored"], expirationDate: expires,
                    completionQueue: .global()
                ) { result in
                    switch result {
                    case .success(let id): continuation.resume(returning: id)
                    case .failure(let error): continuation.resume(throwing: error)
                    }
                }
            }
            let record = try await Self.record(server, id)
            #expect(record["where"] == query.whereJSON)
            #expect(record["data"] == ["alert": "Hi"])
            #expect(record["expiration_time"]?.stringValue == LCDate(expires).isoString)
        }
    }

    @Test("without the master key the server refuses a push with code 1, which the SDK surfaces as an LCError")
    func pushWithoutMaster() async throws {
        try await withLiveApp { application, _ in
            let error = try await #require(throws: LCError.self) {
                try await LCPush.send(application: application, data: ["alert": "Hello"], channels: ["news"])
            }
            #expect(error.code == 1)
            let blocking = await onThread { LCPush.send(application: application, data: ["alert": "Hello"]) as LCValueResult<String> }
            #expect(blocking.error?.code == 1)
        }
    }
}

/// The requests LCInstallation and LCPush build, through an in-memory transport.
@Suite("Installation and push requests")
struct InstallationAndPushRequestTests {
    static let created = #"{"objectId":"i1","createdAt":"2026-01-01T00:00:00.000Z"}"#
    static let updated = #"{"objectId":"i1","updatedAt":"2026-01-02T00:00:00.000Z"}"#

    @Test("a new installation holds this platform's device type, the time zone and the bundle id")
    func defaults() throws {
        let installation = LCInstallation(application: try makeApplication(RecordingTransport()))
        #expect(installation.deviceType?.value == LCInstallation.platform)
        #expect(installation.timeZone?.value == TimeZone.current.identifier)
        #expect(installation.apnsTopic?.value == Bundle.main.bundleIdentifier)
        #if os(Linux)
        #expect(LCInstallation.platform == "linux")
        #endif
    }

    @Test("a device token given as Data is kept as lower-case hex, and as text as it is")
    func deviceToken() throws {
        let installation = LCInstallation(application: try makeApplication(RecordingTransport()))
        installation.set(deviceToken: Data([0xAB, 0x01, 0xFF, 0x00]), apnsTeamId: "TEAM")
        #expect(installation.deviceToken?.value == "ab01ff00")
        #expect(installation.apnsTeamId?.value == "TEAM")
        installation.set(deviceToken: "token-text", apnsTeamId: LCString("OTHER"))
        #expect(installation.deviceToken?.value == "token-text")
        #expect(installation.apnsTeamId?.value == "OTHER")
    }

    @Test("every save posts the whole installation to /1.1/installations, with its objectId and pending operations")
    func saveBody() async throws {
        let transport = RecordingTransport(json: [Self.created, Self.updated])
        let installation = LCInstallation(application: try makeApplication(transport))
        installation.set(deviceToken: "abc", apnsTeamId: "TEAM")
        installation.channels = LCArray(["news"])
        try await installation.save()
        try installation.append("channels", element: "sports", unique: true)
        try installation.increase("badge")
        try await installation.save()
        let requests = transport.requests
        #expect(requests.map(\.method) == ["POST", "POST"])
        #expect(requests.map(\.path) == ["/1.1/installations", "/1.1/installations"])
        let zone = TimeZone.current.identifier
        let topic = Bundle.main.bundleIdentifier.map { #","apnsTopic":"\#($0)""# } ?? ""
        let first = try json(#"""
        {"deviceToken":"abc","apnsTeamId":"TEAM","channels":["news"],"deviceType":"\#(LCInstallation.platform)","timeZone":"\#(zone)"\#(topic)}
        """#)
        #expect(requests[0].json == first)
        let second = try json(#"""
        {"objectId":"i1","deviceToken":"abc","apnsTeamId":"TEAM","channels":{"__op":"AddUnique","objects":["sports"]},
        "badge":{"__op":"Increment","amount":1},"deviceType":"\#(LCInstallation.platform)","timeZone":"\#(zone)"\#(topic)}
        """#)
        #expect(requests[1].json == second)
        #expect(installation.objectId?.value == "i1")
        #expect(installation.updatedAt?.isoString == "2026-01-02T00:00:00.000Z")
        #expect(installation.channels?.value.compactMap(\.stringValue) == ["news", "sports"])
    }

    @Test("an installation saved in a batch is posted whole to /1.1/installations")
    func batch() async throws {
        let todoCreated = #"{"objectId":"t1","createdAt":"2026-01-01T00:00:00.000Z"}"#
        let transport = RecordingTransport(json: [#"[{"success":\#(Self.updated)},{"success":\#(todoCreated)}]"#])
        let application = try makeApplication(transport)
        let installation = LCInstallation(application: application)
        installation.set(deviceToken: "abc", apnsTeamId: "TEAM")
        let todo = LCObject(application: application, className: "Todo")
        try todo.set("title", value: "x")
        try await LCObject.save([installation, todo])
        let items = try #require(transport.requests.first?.json["requests"]?.arrayValue)
        #expect(items.first?["method"] == "POST")
        #expect(items.first?["path"] == "/1.1/installations")
        #expect(items.first?["body"]?["deviceToken"] == "abc")
        #expect(items.first?["body"]?["deviceType"] == .string(LCInstallation.platform))
        #expect(items.last?["path"] == "/1.1/classes/Todo")
        #expect(installation.objectId?.value == "i1")
    }

    @Test("a save of an installation with neither device token nor installation id sends no request")
    func refused() async throws {
        let transport = RecordingTransport(json: [Self.created])
        let application = try makeApplication(transport)
        let installation = LCInstallation(application: application)
        let alone = try await #require(throws: LCError.self) { try await installation.save() }
        #expect(alone.code == LCError.InternalErrorCode.inconsistency.rawValue)
        let todo = LCObject(application: application, className: "Todo")
        try todo.set("device", value: installation)
        await #expect(throws: LCError.self) { try await todo.save() }
        await #expect(throws: LCError.self) { try await LCObject.save([todo]) }
        #expect(transport.requests.isEmpty)
        #expect(installation.hasDataToUpload)
        installation.installationId = "a-uuid"
        try await installation.save()
        #expect(transport.requests.first?.json["installationId"] == "a-uuid")
    }

    @Test("the current installation is one per app, and is read back after a save by the next launch")
    func currentInstallation() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cirrus-installation-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transport = RecordingTransport(json: [Self.created])
        func launch() throws -> LCApplication {
            try LCApplication(
                id: "test-app-id", key: "test-app-key", serverURL: "https://api.example.com",
                configuration: .init(transport: transport, currentUserStorage: .directory(directory))
            )
        }
        let application = try launch()
        let current = application.currentInstallation
        #expect(application.currentInstallation === current)
        current.set(deviceToken: "abc", apnsTeamId: "TEAM")
        try current.append("channels", element: "news", unique: true)
        let unsaved = try launch().currentInstallation
        #expect(unsaved.objectId == nil)
        try await current.save()
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("test-app-id/currentInstallation.json").path))

        let again = try launch().currentInstallation
        #expect(again.objectId?.value == "i1")
        #expect(again.deviceToken?.value == "abc")
        #expect(again.channels?.value.compactMap(\.stringValue) == ["news"])
        #expect(again.deviceType?.value == LCInstallation.platform)
        #expect(!again.hasDataToUpload)
        #expect(LCInstallation(application: try launch()).objectId == nil)
    }

    @Test("an installation read from the server holds only what the server sent")
    func decoded() async throws {
        let transport = RecordingTransport(json: [#"{"results":[{"objectId":"a1","deviceType":"android","installationId":"u1"}]}"#])
        let query = LCQuery(application: try makeApplication(transport), className: "_Installation")
        let found = try #require(try await query.find().first as? LCInstallation)
        #expect(found.deviceType?.value == "android")
        #expect(found.timeZone == nil)
        #expect(!found.hasDataToUpload)
    }

    @Test("LCPush sends data, channels, push_time, expiration_interval and extra parameters, and returns the id")
    func pushBody() async throws {
        let transport = RecordingTransport(json: [#"{"objectId":"n1","createdAt":"2026-01-01T00:00:00.000Z"}"#])
        let application = try makeApplication(transport)
        let pushDate = try #require(LCDate(isoString: "2026-03-01T08:00:00.123Z")).value
        let id = try await LCPush.send(
            application: application, data: ["alert": "Hello", "badge": 2], channels: ["news", "sports"], pushDate: pushDate,
            expirationInterval: 3600, extraParameters: ["req_id": "r1", "data": "not this"]
        )
        #expect(id == "n1")
        let request = try #require(transport.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/1.1/push")
        let expected = try json(#"""
        {"data":{"alert":"Hello","badge":2},"channels":["news","sports"],"push_time":"2026-03-01T08:00:00.123Z",
        "expiration_interval":3600,"req_id":"r1"}
        """#)
        #expect(request.json == expected)
    }

    @Test("LCPush sends a query's where instead of channels, expiration_time, and prod from the configuration")
    func pushQuery() async throws {
        let transport = RecordingTransport(json: [#"{"objectId":"n1"}"#])
        let application = try LCApplication(
            id: "test-app-id", key: "test-app-key", serverURL: "https://api.example.com",
            configuration: .init(transport: transport, currentUserStorage: .none, environment: .pushDevelopment)
        )
        let query = LCQuery(application: application, className: "_Installation")
        query.whereKey("badge", .greaterThan(1))
        let expires = try #require(LCDate(isoString: "2026-03-02T00:00:00.000Z")).value
        let id = try await LCPush.send(application: application, data: ["alert": "Hi"], query: query, channels: ["ignored"], expirationDate: expires)
        #expect(id == "n1")
        let expected = try json(#"""
        {"prod":"dev","data":{"alert":"Hi"},"where":{"badge":{"$gt":1}},"expiration_time":"2026-03-02T00:00:00.000Z"}
        """#)
        #expect(transport.requests.first?.json == expected)
    }

    @Test("an expiration interval without a push date sends push_time now")
    func intervalFromNow() throws {
        let application = try makeApplication(RecordingTransport())
        let now = try #require(LCDate(isoString: "2026-03-01T00:00:00.000Z")).value
        let body = try LCPush.body(
            application: application, data: [:], query: nil, channels: nil, pushDate: nil, expirationDate: nil, expirationInterval: 90.5,
            extraParameters: nil, now: now
        )
        #expect(body == (try json(#"{"data":{},"push_time":"2026-03-01T00:00:00.000Z","expiration_interval":90.5}"#)))
    }

    @Test("a push query of another class is refused before any request, in each call form")
    func pushQueryOfAnotherClass() async throws {
        let transport = RecordingTransport()
        let application = try makeApplication(transport)
        let query = LCQuery(application: application, className: "Todo")
        await #expect(throws: LCError.self) { try await LCPush.send(application: application, data: ["alert": "x"], query: query) }
        let completion: LCValueResult<String> = await withCheckedContinuation { continuation in
            LCPush.send(application: application, data: ["alert": "x"], query: query, completionQueue: .global()) {
                continuation.resume(returning: $0)
            }
        }
        #expect(completion.error?.code == LCError.InternalErrorCode.inconsistency.rawValue)
        let blocking = await onThread { LCPush.send(application: application, data: ["alert": "x"], query: query) as LCValueResult<String> }
        #expect(blocking.error?.code == LCError.InternalErrorCode.inconsistency.rawValue)
        #expect(transport.requests.isEmpty)
    }

    @Test("the completion and blocking forms of LCPush return the push's id")
    func pushCallForms() async throws {
        let transport = RecordingTransport(json: [#"{"objectId":"n1"}"#, #"{"objectId":"n2"}"#])
        let application = try makeApplication(transport)
        let first: LCValueResult<String> = await withCheckedContinuation { continuation in
            LCPush.send(application: application, data: ["alert": "x"], completionQueue: .global()) { continuation.resume(returning: $0) }
        }
        #expect(first.object == "n1")
        let second = await onThread { LCPush.send(application: application, data: ["alert": "x"]) as LCValueResult<String> }
        #expect(second.object == "n2")
    }
}
