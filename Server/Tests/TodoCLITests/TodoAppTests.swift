import Cirrus
import CirrusTesting
import Foundation
import Testing
import TodoCore

/// The to-do app's logic against an in-process Cirrus server over HTTP.
@Suite("TodoCLI")
struct TodoAppTests {
    /// Runs `body` with the settings of a new live server and a data directory of its own.
    static func withServer(_ body: @Sendable (TodoSettings) async throws -> Void) async throws {
        try await LiveTestServer.with { server in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cirrus-todo-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            try await body(
                TodoSettings(serverURL: server.baseURL, appId: server.keys.appId, appKey: server.keys.appKey, dataDirectory: directory)
            )
        }
    }

    @Test("a user signs up, adds, lists, completes and deletes todos, and stays logged in for the next run")
    func workflow() async throws {
        try await Self.withServer { settings in
            let app = try TodoApp(settings: settings)
            try await app.signUp(username: "tom", password: "secret")
            let milk = try await app.add("Buy milk")
            let bread = try await app.add("Buy bread")
            let call = try await app.add("Call Linda")
            #expect(try await app.list().map(\.title) == ["Buy milk", "Buy bread", "Call Linda"])
            try await app.complete(milk.id)
            try await app.delete(bread.id)
            #expect(try await app.list() == [TodoItem(id: milk.id, title: "Buy milk", isComplete: true), call])
            #expect(try await app.list(includeCompleted: false) == [call])
            #expect(call.line == "[ ] \(call.id)  Call Linda")

            let nextRun = try TodoApp(settings: settings)
            #expect(nextRun.currentUsername == "tom")
            #expect(try await nextRun.list().map(\.id) == [milk.id, call.id])
        }
    }

    @Test("each user sees only their own todos and cannot change another's")
    func owners() async throws {
        try await Self.withServer { settings in
            let app = try TodoApp(settings: settings)
            try await app.signUp(username: "tom", password: "secret")
            let toms = try await app.add("Tom's")
            app.logOut()
            #expect(app.currentUsername == nil)
            try await app.signUp(username: "jerry", password: "cheese")
            #expect(try await app.list().isEmpty)
            await #expect(throws: TodoError("No todo \(toms.id).")) { try await app.complete(toms.id) }
            await #expect(throws: TodoError("No todo \(toms.id).")) { try await app.delete(toms.id) }
            app.logOut()
            try await app.logIn(username: "tom", password: "secret")
            #expect(try await app.list() == [toms])
        }
    }

    @Test("nothing works before logging in, and a wrong password is refused")
    func loggedOut() async throws {
        try await Self.withServer { settings in
            let app = try TodoApp(settings: settings)
            await #expect(throws: TodoError("Not logged in: run `signup` or `login` first.")) { try await app.list() }
            try await app.signUp(username: "tom", password: "secret")
            app.logOut()
            let error = try await #require(throws: LCError.self) { try await app.logIn(username: "tom", password: "wrong") }
            #expect(error.code == 210)
        }
    }
}
