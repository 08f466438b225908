@testable import Cirrus
import CirrusModel
import CirrusTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `saveEventually` and `deleteEventually` (seed 001 "离线存储对象") against a server that stops and comes back.
@Suite("The offline queue on a server that goes away")
struct OfflineLiveTests {
    /// An app of `server` keeping its state (current user, offline queue) in `directory`, retrying quickly.
    static func app(_ server: RestartableLiveServer, _ directory: URL) throws -> LCApplication {
        try LCApplication(
            id: server.keys.appId, key: server.keys.appKey, serverURL: server.baseURL,
            configuration: .init(currentUserStorage: .directory(directory), eventuallyRetryInterval: 0.2)
        )
    }

    /// Waits until `application` has sent its queue.
    static func drained(_ application: LCApplication, within seconds: Double = 60) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while application.eventuallyQueueCount > 0 {
            guard Date() < deadline else {
                Issue.record("the offline queue still holds \(application.eventuallyQueueCount) requests")
                return
            }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
    }

    /// The `Todo` objects as the master key reads them, oldest first.
    static func todos(_ server: RestartableLiveServer) async throws -> [JSON] {
        let body = try await server.masterRequest("GET", "/1.1/classes/Todo?order=createdAt")
        return body["results"]?.arrayValue ?? []
    }

    @Test("saves and deletes queued while the server is down survive a restart of the app and are sent once, in order, when it is back")
    func queuedWhileDown() async throws {
        try await RestartableLiveServer.with { server in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cirrus-offline-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            try await server.stop()
            do {
                let first = try Self.app(server, directory)
                let todo = LCObject(application: first, className: "Todo")
                try todo.set("title", value: "first")
                try todo.set("visits", value: 1)
                todo.saveEventually(completion: nil)
                try todo.increase("visits")
                todo.saveEventually(completion: nil)
                let next = LCObject(application: first, className: "Todo")
                try next.set("title", value: "second")
                try next.set("previous", value: todo)
                next.saveEventually(completion: nil)
                let doomed = LCObject(application: first, className: "Todo")
                try doomed.set("title", value: "doomed")
                doomed.saveEventually(completion: nil)
                doomed.deleteEventually(completion: nil)
                #expect(first.eventuallyQueueCount == 5)
                try await Task.sleep(nanoseconds: 600_000_000)
                #expect(first.eventuallyQueueCount == 5, "nothing is sent while the server is down")
                #expect(todo.objectId == nil)
                // The app quits with its queue unsent.
                try first.eventuallyQueue().stop()
            }
            let restarted = try Self.app(server, directory)
            #expect(restarted.eventuallyQueueCount == 5, "the queue is read back from disk")
            try await server.start()
            restarted.retryEventually()
            try await Self.drained(restarted)
            let todos = try await Self.todos(server)
            #expect(todos.map { $0["title"]?.stringValue } == ["first", "second"], "each create once, in order, the deleted one gone: \(todos)")
            #expect(todos.first?["visits"] == 2, "the second save of a new object reached it")
            #expect(todos.last?["previous"]?["objectId"] == todos.first?["objectId"], "a pointer to an object created by the queue gets its id")
        }
    }

    @Test("with the server up, the async form returns once saved; a refused request is dropped with its error and the rest still go")
    func refusedAndSent() async throws {
        try await RestartableLiveServer.with { server in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cirrus-offline-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let application = try Self.app(server, directory)
            let todo = LCObject(application: application, className: "Todo")
            try todo.set("title", value: "typed")
            try await todo.saveEventually()
            #expect(todo.objectId != nil, "the reply reaches the object")

            let wrong = LCObject(application: application, className: "Todo")
            try wrong.set("title", value: 42)
            let after = LCObject(application: application, className: "Todo")
            try after.set("title", value: "after")
            let refused: LCBooleanResult = await withCheckedContinuation { continuation in
                wrong.saveEventually(completionQueue: .global()) { continuation.resume(returning: $0) }
                after.saveEventually()
            }
            #expect(refused.error?.code == 111, "a type conflict is refused, not retried: \(refused)")
            #expect(wrong.get("title")?.intValue == 42 && wrong.hasDataToUpload, "its changes go back to the object")
            try await Self.drained(application)
            #expect(after.objectId != nil)
            let titles = try await Self.todos(server).compactMap { $0["title"]?.stringValue }
            #expect(titles == ["typed", "after"])

            try wrong.set("title", value: "fixed")
            try await wrong.save()
            #expect(wrong.objectId != nil, "a refused create leaves the object new, to be saved again")

            try await after.deleteEventually()
            #expect(try await Self.todos(server).compactMap { $0["title"]?.stringValue } == ["typed", "fixed"])
            let file = LCFile(application: application, payload: .data(data: Data("x".utf8)))
            await #expect(throws: LCError.self) { try await file.saveEventually() }
            let unqueued: LCBooleanResult = await withCheckedContinuation { continuation in
                file.saveEventually(completionQueue: .global()) { continuation.resume(returning: $0) }
            }
            #expect(unqueued.isFailure, "a new file cannot wait in the queue")
        }
    }
}

extension RestartableLiveServer {
    /// A request with the master key; the reply's JSON.
    func masterRequest(_ method: String, _ path: String) async throws -> JSON {
        var request = URLRequest(url: URL(string: baseURL + path)!)
        request.httpMethod = method
        request.setValue(keys.appId, forHTTPHeaderField: "X-LC-Id")
        request.setValue(keys.masterKey + ",master", forHTTPHeaderField: "X-LC-Key")
        let (data, _) = try await URLSession.shared.data(for: request)
        return try JSONParser.parse(data)
    }
}
