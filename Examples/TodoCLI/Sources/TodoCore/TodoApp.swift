public import Cirrus
public import Foundation

/// Where the to-do app's server is and where it keeps the logged-in user between runs.
public struct TodoSettings: Sendable {
    /// The Cirrus server, `http(s)://host[:port]`.
    public var serverURL: String
    public var appId: String
    public var appKey: String
    /// The directory the logged-in user is kept in between runs.
    public var dataDirectory: URL

    public init(serverURL: String, appId: String, appKey: String, dataDirectory: URL) {
        self.serverURL = serverURL
        self.appId = appId
        self.appKey = appKey
        self.dataDirectory = dataDirectory
    }
}

/// One to-do item.
public struct TodoItem: Sendable, Equatable {
    public var id: String
    public var title: String
    public var isComplete: Bool

    public init(id: String, title: String, isComplete: Bool) {
        self.id = id
        self.title = title
        self.isComplete = isComplete
    }

    /// `[x] <id>  <title>` or `[ ] <id>  <title>`.
    public var line: String {
        "[\(isComplete ? "x" : " ")] \(id)  \(title)"
    }
}

/// A failure the user can act on.
public struct TodoError: Error, CustomStringConvertible, Equatable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// A to-do list kept in a Cirrus app: each user's todos are objects of class `Todo` that only their owner may read and
/// write (an ACL with the owner alone).
public final class TodoApp: Sendable {
    /// The SDK's app, with the current user kept in the settings' data directory.
    public let application: LCApplication

    /// The class of the todos.
    static let className = "Todo"

    public init(settings: TodoSettings) throws {
        application = try LCApplication(
            id: settings.appId, key: settings.appKey, serverURL: settings.serverURL,
            configuration: .init(currentUserStorage: .directory(settings.dataDirectory))
        )
    }

    /// The name of the logged-in user, if any.
    public var currentUsername: String? { application.currentUser?.username?.value }

    /// Creates an account and logs it in.
    public func signUp(username: String, password: String) async throws {
        let user = LCUser(application: application)
        user.username = LCString(username)
        user.password = LCString(password)
        try await user.signUp()
    }

    /// Logs in.
    public func logIn(username: String, password: String) async throws {
        _ = try await LCUser.logIn(application: application, username: username, password: password)
    }

    /// Forgets the logged-in user.
    public func logOut() {
        LCUser.logOut(application: application)
    }

    /// Adds a todo for the logged-in user.
    public func add(_ title: String) async throws -> TodoItem {
        let owner = try requireUser()
        let todo = LCObject(application: application, className: Self.className)
        try todo.set("title", value: title)
        try todo.set("isComplete", value: false)
        try todo.set("owner", value: owner)
        let acl = LCACL()
        acl.setAccess([.read, .write], allowed: true, forUserID: owner.objectId?.value)
        todo.ACL = acl
        try await todo.save()
        return try Self.item(todo)
    }

    /// The logged-in user's todos, oldest first; without the completed ones unless `includeCompleted`.
    public func list(includeCompleted: Bool = true) async throws -> [TodoItem] {
        let owner = try requireUser()
        let query = LCQuery(application: application, className: Self.className)
        query.whereKey("owner", .equalTo(owner))
        if !includeCompleted { query.whereKey("isComplete", .notEqualTo(true)) }
        query.whereKey("createdAt", .ascending)
        query.limit = 1000
        return try await query.find().map(Self.item)
    }

    /// Marks the todo with this id complete.
    /// - Throws: ``TodoError`` when the user has no such todo.
    public func complete(_ id: String) async throws {
        _ = try requireUser()
        // Another user's todo is not readable (its ACL): reading it first reports it as missing, as the server does.
        let todo = LCObject(application: application, className: Self.className, objectId: id)
        try await mapNotFound(id) { try await todo.fetch(keys: ["title"]) }
        try todo.set("isComplete", value: true)
        try await todo.save()
    }

    /// Deletes the todo with this id.
    /// - Throws: ``TodoError`` when the user has no such todo.
    public func delete(_ id: String) async throws {
        _ = try requireUser()
        // Reading it first tells the user about a todo that does not exist or is another user's.
        let todo = LCObject(application: application, className: Self.className, objectId: id)
        try await mapNotFound(id) { try await todo.fetch(keys: ["title"]) }
        try await todo.delete()
    }

    private func requireUser() throws -> LCUser {
        guard let user = application.currentUser else { throw TodoError("Not logged in: run `signup` or `login` first.") }
        return user
    }

    /// Runs `body`, turning the server's "object not found" (101) into a ``TodoError`` naming `id`.
    private func mapNotFound(_ id: String, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as LCError where error.code == 101 {
            throw TodoError("No todo \(id).")
        }
    }

    static func item(_ object: LCObject) throws -> TodoItem {
        guard let id = object.objectId?.value else { throw TodoError("The server returned a todo without an id.") }
        return TodoItem(id: id, title: object.get("title")?.stringValue ?? "", isComplete: object.get("isComplete")?.boolValue ?? false)
    }
}
