package import CirrusStorage
import CirrusServices
import Logging

/// `cirrus import`: reads an export and writes it into a store, without HTTP and without a running server.
///
/// Every object goes through the validation of a REST create by the master key (`ObjectService.prepareCreate`),
/// keeping its objectId, dates and ACL; an object whose objectId exists is skipped, never overwritten. Writes go in
/// batches of ``ImportOptions/batchSize`` per transaction; a batch that fails is retried one object at a time so that
/// a bad object fails alone. Progress is saved after each batch (``ImportState``), so a re-run continues.
package struct Importer {
    let store: any StorageAdapter
    let options: ImportOptions
    let carrier: (any FileContentCarrier)?

    package init(store: any StorageAdapter, options: ImportOptions, carrier: (any FileContentCarrier)? = nil) {
        self.store = store
        self.options = options
        self.carrier = carrier
    }

    package func run() async throws -> ImportSummary {
        try await ImportRun(store: store, options: options, carrier: carrier).run()
    }
}

extension Importer {
    /// Where the state of an import of `source` is kept by default: `<data dir>/imports/<digest of its path>.state`.
    package static func defaultStatePath(dataDirectory: String, source: String) -> String {
        ImportState.defaultPath(dataDirectory: dataDirectory, source: source)
    }
}
