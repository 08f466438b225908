import ArgumentParser
import CirrusServer
import Foundation

/// `cirrus search <Class> <field>…` / `--off`: LeanCloud's in-app search for a class (docs/SEARCH.md).
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Turn in-app search on for a class's String and Array fields (or off), and build its index.",
        discussion: """
            Sets the class's search fields and builds the search index from every object, a page at a time; from then \
            on every write keeps it up to date in its transaction. Run it again with the same fields to rebuild the \
            index (after an import into a class whose search was off, say). On SQLite, run it with the server stopped \
            (a running server learns of the change only on PostgreSQL). The schema API does the same within a \
            request's deadline: PUT /1.1/schemas/<Class> {"search": {"fields": [...]}} or {"search": null}.
            """
    )

    @OptionGroup var store: StoreOptions

    @Argument(help: "The class.")
    var className: String

    @Argument(help: "The fields to search: String or Array fields of the class.")
    var fields: [String] = []

    @Flag(help: "Turn search off for the class and drop its index.")
    var off = false

    func validate() throws {
        if off != fields.isEmpty { throw ValidationError("Give the fields to search, or --off.") }
    }

    func run() async throws {
        let indexed = try await CirrusServer.configureSearch(store.configuration(), className: className, fields: off ? nil : fields)
        print(off ? "search off for \(className)" : "search on for \(className) (\(fields.joined(separator: ", "))): \(indexed) objects indexed")
    }
}
