import ArgumentParser
import CirrusServer
import Foundation

/// `cirrus index <Class> <field>…`: adds the indexes that make queries on those fields fast.
struct IndexCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Index fields of a class for equality, range and order queries.",
        discussion: """
            Creates, if missing, an expression index per field (dot paths into objects work) on the same expression \
            the queries compile to; Date fields are indexed by instant and Pointer fields by objectId. On PostgreSQL, \
            an Array field gets a GIN index, which string membership conditions use. The class must exist. Safe to run while servers use the database. createdAt and updatedAt are always indexed.
            """
    )

    @OptionGroup var store: StoreOptions

    @Argument(help: "The class.")
    var className: String

    @Argument(help: "The fields to index.")
    var fields: [String]

    func run() async throws {
        try await CirrusServer.ensureIndexes(store.configuration(), className: className, fields: fields)
        print("indexed \(className): \(fields.joined(separator: ", "))")
    }
}
