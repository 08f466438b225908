import ArgumentParser
import Foundation
import TodoCore

/// `todo`: a to-do list on a Cirrus server, through the Swift SDK.
///
/// ```sh
/// export CIRRUS_SERVER_URL=http://127.0.0.1:3000 CIRRUS_APP_ID=… CIRRUS_APP_KEY=…
/// swift run TodoCLI signup tom secret
/// swift run TodoCLI add "Buy milk"
/// swift run TodoCLI list
/// swift run TodoCLI done <id>
/// ```
@main
struct TodoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "todo",
        abstract: "A to-do list kept on a Cirrus server (the Swift SDK's example).",
        subcommands: [SignUp.self, LogIn.self, LogOut.self, Add.self, List.self, Done.self, Remove.self]
    )
}

/// The server and app, from flags or the environment, and where the logged-in user is kept.
struct ServerOptions: ParsableArguments {
    @Option(help: "The server URL (CIRRUS_SERVER_URL).")
    var server: String?

    @Option(help: "The app id (CIRRUS_APP_ID).")
    var appId: String?

    @Option(help: "The app key (CIRRUS_APP_KEY).")
    var appKey: String?

    @Option(help: "Where the logged-in user is kept (TODO_DATA_DIR; default ~/.cirrus-todo).")
    var dataDirectory: String?

    /// The app these options name.
    func app() throws -> TodoApp {
        let environment = ProcessInfo.processInfo.environment
        func value(_ flag: String?, _ name: String, _ option: String) throws -> String {
            guard let value = flag ?? environment[name], !value.isEmpty else {
                throw ValidationError("Give --\(option) or set \(name).")
            }
            return value
        }
        let directory = dataDirectory ?? environment["TODO_DATA_DIR"]
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cirrus-todo").path
        return try TodoApp(
            settings: TodoSettings(
                serverURL: try value(server, "CIRRUS_SERVER_URL", "server"), appId: try value(appId, "CIRRUS_APP_ID", "app-id"),
                appKey: try value(appKey, "CIRRUS_APP_KEY", "app-key"), dataDirectory: URL(fileURLWithPath: directory)
            )
        )
    }
}

struct SignUp: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "signup", abstract: "Create an account and log in.")
    @OptionGroup var options: ServerOptions
    @Argument var username: String
    @Argument var password: String

    func run() async throws {
        try await options.app().signUp(username: username, password: password)
        print("Signed up and logged in as \(username).")
    }
}

struct LogIn: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "login", abstract: "Log in.")
    @OptionGroup var options: ServerOptions
    @Argument var username: String
    @Argument var password: String

    func run() async throws {
        try await options.app().logIn(username: username, password: password)
        print("Logged in as \(username).")
    }
}

struct LogOut: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Log out.")
    @OptionGroup var options: ServerOptions

    func run() async throws {
        try options.app().logOut()
        print("Logged out.")
    }
}

struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Add a todo.")
    @OptionGroup var options: ServerOptions
    @Argument(help: "What to do.") var title: [String]

    func run() async throws {
        let item = try await options.app().add(title.joined(separator: " "))
        print(item.line)
    }
}

struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List your todos.")
    @OptionGroup var options: ServerOptions
    @Flag(help: "Leave out the completed ones.") var open = false

    func run() async throws {
        let items = try await options.app().list(includeCompleted: !open)
        if items.isEmpty { print("Nothing to do.") }
        for item in items { print(item.line) }
    }
}

struct Done: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Mark a todo complete.")
    @OptionGroup var options: ServerOptions
    @Argument var id: String

    func run() async throws {
        try await options.app().complete(id)
        print("Completed \(id).")
    }
}

struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a todo.")
    @OptionGroup var options: ServerOptions
    @Argument var id: String

    func run() async throws {
        try await options.app().delete(id)
        print("Deleted \(id).")
    }
}
