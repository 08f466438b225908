import CirrusStorage
import Logging

extension CirrusServer {
    /// Warns when several users hold one e-mail address spelled in different cases (a database from before e-mail
    /// uniqueness ignored case): until they are resolved, uniqueness stays case-sensitive, and each start tries again.
    static func warnAboutCaseDuplicateEmails(_ store: any StorageAdapter, logger: Logger) async {
        guard let duplicates = try? await store.caseDuplicateEmails(limit: 100), !duplicates.isEmpty else { return }
        logger.warning(
            "some e-mail addresses are held by several users in different cases; e-mail uniqueness stays case-sensitive until each is changed or removed (see docs/ACCOUNTS.md)",
            metadata: ["addresses": "\(duplicates.count == 100 ? "100 or more" : String(duplicates.count))"]
        )
    }
}
