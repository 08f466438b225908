import ArgumentParser

/// Where the data lives: shared by every command that opens the store.
struct StoreOptions: ParsableArguments {
    @Option(help: "Directory for the embedded database and the generated keys (CIRRUS_DATA_DIR, default ./cirrus-data).")
    var dataDir: String?

    @Option(help: "Database URL (CIRRUS_DATABASE_URL); default: the SQLite file in the data directory. sqlite:///path also works.")
    var database: String?

    /// The data directory and database URL, each from its flag or else its environment variable.
    func resolve(environment: [String: String]) -> (dataDirectory: String?, databaseURL: String?) {
        func value(_ flag: String?, _ name: String) -> String? {
            flag ?? environment[name].flatMap { $0.isEmpty ? nil : $0 }
        }
        return (value(dataDir, "CIRRUS_DATA_DIR"), value(database, "CIRRUS_DATABASE_URL"))
    }
}
