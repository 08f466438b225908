import ArgumentParser

/// Where the data lives: shared by every command that opens the store.
struct StoreOptions: ParsableArguments {
    @Option(help: "Directory for the embedded database and the generated keys (CIRRUS_DATA_DIR, default ./cirrus-data).")
    var dataDir: String?

    @Option(help: "Database URL (CIRRUS_DATABASE_URL); default: the SQLite file in the data directory. postgres://user:password@host:port/database, or sqlite:///path.")
    var database: String?

    @Option(help: "A streaming replica of the PostgreSQL database for queries (CIRRUS_DATABASE_REPLICA_URL); used only while it has replayed every committed write.")
    var databaseReplica: String?

    /// The data directory and database URL, each from its flag or else its environment variable.
    func resolve(environment: [String: String]) -> (dataDirectory: String?, databaseURL: String?) {
        (value(dataDir, "CIRRUS_DATA_DIR", environment), value(database, "CIRRUS_DATABASE_URL", environment))
    }

    /// The replica URL, from its flag or else its environment variable.
    func replica(environment: [String: String]) -> String? {
        value(databaseReplica, "CIRRUS_DATABASE_REPLICA_URL", environment)
    }

    private func value(_ flag: String?, _ name: String, _ environment: [String: String]) -> String? {
        flag ?? environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }
}
