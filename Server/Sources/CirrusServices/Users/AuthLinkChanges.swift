import CirrusModel
import CirrusStorage

/// The writes that keep the store's links of third-party accounts (``AccountWrite/linkAccount(userId:platform:uid:)``)
/// in step with a user's `authData`, in the same transaction as the user's write, so the store's unique index decides
/// which user an account belongs to (208 for the others), however many sign-ups race.
///
/// `authData` changes as a whole (a create, or the master key replacing it) or platform by platform
/// (`authData.<platform>` set or deleted, as every SDK links and unlinks); anything finer or another operation
/// would leave the links unknown and is refused.
enum AuthLinkChanges {
    /// - Throws: ``APIError`` ``APIError/Reason/invalidAuthData`` for another operation on `authData`.
    static func writes(_ update: ObjectUpdate, userId: String) throws(APIError) -> [AccountWrite] {
        var writes: [AccountWrite] = []
        for (path, operation) in update.operations(on: "authData") {
            switch (path.segments.count, operation) {
            case (1, .delete):
                writes.append(.unlinkAccount(userId: userId, platform: nil))
            case (1, .set(let value)):
                writes.append(.unlinkAccount(userId: userId, platform: nil))
                guard case .object(let platforms) = value.wire else {
                    if value.wire.isNull { continue }
                    throw APIError(.invalidAuthData, "authData must be an object with one entry per platform.")
                }
                for (platform, entry) in platforms.sorted(by: { $0.key < $1.key }) { writes.append(link(userId, platform, entry)) }
            case (2, .delete):
                writes.append(.unlinkAccount(userId: userId, platform: path.segments[1]))
            case (2, .set(let value)):
                writes.append(link(userId, path.segments[1], value.wire))
            default:
                throw APIError(.invalidAuthData, "authData changes as a whole or by platform: set or delete 'authData.<platform>', not '\(path)'.")
            }
        }
        return writes
    }

    /// The link of a platform's entry, or the removal of the user's link of that platform when the entry names no
    /// account (`null`, or data the master key set without an id).
    private static func link(_ userId: String, _ platform: String, _ entry: JSON) -> AccountWrite {
        guard case .object(let members) = entry, let (_, id) = LinkedAccount.identity(in: members) else {
            return .unlinkAccount(userId: userId, platform: platform)
        }
        return .linkAccount(userId: userId, platform: platform, uid: id)
    }
}
