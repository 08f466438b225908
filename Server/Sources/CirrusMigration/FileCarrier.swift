package import AsyncHTTPClient
package import CirrusStorage
import CirrusServices
package import Foundation

/// Copies file contents into the store's file storage during an import: from a folder (`--files DIR`), else by
/// downloading the old URL (`--download-files`). A journal of the keys done makes a re-run skip them without reading
/// the folder or the network again; content the storage already holds is not copied again either.
///
/// Safe to call concurrently: the journal and the folder's bookkeeping are actors.
package struct FileCarrier: FileContentCarrier {
    let storage: any FileStorage
    let directory: FileSourceDirectory?
    let downloader: FileDownloader?
    let journal: FileCarryJournal
    let maximumSize: Int

    /// - Parameters:
    ///   - storage: the store's file storage, where contents go.
    ///   - directory: `--files DIR`: the folder holding the contents (by old key, new key, name or URL's last part).
    ///   - download: `--download-files`: fetch contents from their old URLs (after `directory`, when both are given).
    ///   - journal: the file recording the keys done (created when missing).
    ///   - httpClient: the client for downloads; `HTTPClient.shared` when `nil`.
    ///   - maximumSize: the largest content carried, in bytes.
    ///   - timeout: the longest one download may take, redirects included.
    /// - Throws: when the folder does not exist or the journal cannot be opened.
    package init(
        storage: any FileStorage, directory: URL?, download: Bool, journal: URL, httpClient: HTTPClient? = nil,
        maximumSize: Int = 100 * 1024 * 1024, timeout: Duration = .seconds(60)
    ) throws {
        self.storage = storage
        self.directory = try directory.map { try FileSourceDirectory(directory: $0) }
        self.downloader = download ? FileDownloader(client: httpClient ?? .shared, maximumSize: maximumSize, timeout: timeout) : nil
        self.journal = try FileCarryJournal(url: journal)
        self.maximumSize = maximumSize
    }

    /// Brings the content of the `_File` row stored under `key` into the file storage. Problems with one file (not
    /// in the folder, a failed download, a storage error) are answered as ``FileCarryOutcome/failed(_:)`` with the
    /// reason.
    /// - Throws: only when the journal cannot be written (the run cannot be resumed safely).
    package func carry(key: String, sourceKey: String, url: String?, name: String?) async throws -> FileCarryOutcome {
        guard directory != nil || downloader != nil else { return .notRequested }
        if await journal.contains(key) { return .alreadyPresent }
        let present: Bool
        do {
            present = try await storage.read(key: key, range: 0..<1) != nil
        } catch {
            return .failed("cannot look for \(key) in the \(storage.name) file storage: \(error)")
        }
        if present {
            try await journal.record(key)
            return .alreadyPresent
        }
        let bytes: [UInt8]
        switch await content(key: key, sourceKey: sourceKey, url: url, name: name) {
        case .success(let found): bytes = found
        case .failure(let failure): return .failed(failure.reason)
        }
        let mimeType = MIMETypes.type(given: nil, name: name ?? sourceKey)
        do {
            try await storage.write(bytes, key: key, mimeType: mimeType)
        } catch FileStorageError.alreadyExists {
            // A concurrent carry of the same key stored it first; a content is written once.
            try await journal.record(key)
            return .alreadyPresent
        } catch {
            return .failed("cannot store \(key) in the \(storage.name) file storage: \(error)")
        }
        try await journal.record(key)
        return .copied(bytes: bytes.count)
    }

    /// The content from the folder, else from the old URL.
    private func content(key: String, sourceKey: String, url: String?, name: String?) async -> Result<[UInt8], FileDownloader.Failure> {
        var notFound: String?
        if let directory {
            switch await directory.locate(key: key, sourceKey: sourceKey, url: url, name: name) {
            case .found(let path): return readFile(path, shownAs: sourceKey)
            case .refused(let reason), .unusable(let reason): return .failure(.init(reason: reason))
            case .missing: notFound = "not found in \(directory.display)"
            }
        }
        if let downloader {
            guard let url, !url.isEmpty else {
                return .failure(.init(reason: notFound.map { "\($0), and no URL to download" } ?? "no URL to download"))
            }
            do {
                return .success(try await downloader.download(url))
            } catch let failure as FileDownloader.Failure {
                return .failure(failure)
            } catch {
                return .failure(.init(reason: "cannot download \(url): \(error)"))
            }
        }
        return .failure(.init(reason: notFound ?? "not found"))
    }

    private func readFile(_ path: String, shownAs name: String) -> Result<[UInt8], FileDownloader.Failure> {
        do {
            let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
            guard size <= maximumSize else {
                return .failure(.init(reason: "\(name) is \(size) bytes, more than the limit of \(maximumSize)"))
            }
            return .success(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        } catch {
            return .failure(.init(reason: "cannot read \(path): \(error)"))
        }
    }
}
