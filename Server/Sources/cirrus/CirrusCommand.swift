import ArgumentParser

/// `cirrus`: a self-hosted backend speaking the LeanCloud, Parse and Bmob REST dialects.
@main
struct CirrusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cirrus",
        abstract: "A self-hosted backend wire-compatible with LeanCloud, Parse and Bmob.",
        subcommands: [ServeCommand.self, IndexCommand.self, ImportCommand.self, ExportCommand.self, JobsCommand.self],
        defaultSubcommand: ServeCommand.self
    )
}
