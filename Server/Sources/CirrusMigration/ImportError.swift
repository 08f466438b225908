/// Why an import cannot go on at all (as opposed to one record failing, which is reported and skipped).
package enum ImportError: Error, CustomStringConvertible, Equatable {
    case unreadable(String)
    case corruptArchive(String)
    case documentTooLarge(String, limit: Int)
    case unsupportedSource(String)
    case stateMismatch(String)

    package var description: String {
        switch self {
        case .unreadable(let path): "Cannot read '\(path)'."
        case .corruptArchive(let detail): "The archive is damaged: \(detail)."
        case .documentTooLarge(let name, let limit):
            "\(name) is a single JSON document larger than \(limit / (1 << 20)) MiB; split it, or convert it to JSON Lines (one object per line), which has no size limit."
        case .unsupportedSource(let path): "'\(path)' is not a folder, a .json/.jsonl file or a .tar.gz/.tgz archive."
        case .stateMismatch(let detail): "The state file does not belong to this import: \(detail)."
        }
    }
}
