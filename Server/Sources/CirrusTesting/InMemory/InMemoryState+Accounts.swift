import CirrusModel
import CirrusStorage

/// Passwords, lock-outs, sessions, codes, sends and linked accounts: their writes and reads.
extension InMemoryState {
    /// Applies one account write.
    /// - Throws: ``StorageError/duplicateValue(field:)`` for a session token taken or a second stable session of a user,
    ///   and with the field `authData` for a third-party account another user holds.
    mutating func apply(_ write: AccountWrite) throws {
        switch write {
        case .setPassword(let userId, let password):
            accounts[userId, default: StoredAccount(userId: userId, password: nil)].password = password
        case .setLockout(let userId, let failures, let lockedUntil):
            accounts[userId, default: StoredAccount(userId: userId, password: nil)].failures = failures
            accounts[userId]?.lockedUntil = lockedUntil
        case .appendFailure(let userId, let time):
            accounts[userId, default: StoredAccount(userId: userId, password: nil)].failures.append(time)
        case .createSession(let session):
            try create(session)
        case .revokeSession(let token):
            sessions[token] = nil
        case .revokeSessions(let userId, let kind, let keeping):
            sessions = sessions.filter { _, session in
                session.userId != userId || (kind.map { session.kind != $0 } ?? false) || session.token == keeping
            }
        case .saveCode(var code):
            code.attempts = 0
            codes[CodeKey(purpose: code.purpose, target: code.target)] = code
        case .deleteCode(let purpose, let target):
            codes[CodeKey(purpose: purpose, target: target)] = nil
        case .countCodeAttempt(let purpose, let target):
            codes[CodeKey(purpose: purpose, target: target)]?.attempts += 1
        case .recordSend(let target, let time, let forgetBefore):
            sends[target, default: []].removeAll { $0 < forgetBefore }
            sends[target, default: []].append(time)
        case .linkAccount(let userId, let platform, let uid):
            try link(userId, platform, uid)
        case .unlinkAccount(let userId, let platform):
            if let platform { links[userId]?[platform] = nil } else { links[userId] = nil }
        }
    }

    private mutating func create(_ session: StoredSession) throws {
        let taken = sessions[session.token] != nil || sessions.values.contains { $0.sessionId == session.sessionId }
        let secondStable = session.kind == .stable && sessions.values.contains { $0.userId == session.userId && $0.kind == .stable }
        guard !taken, !secondStable else { throw StorageError.duplicateValue(field: "") }
        sessions[session.token] = session
    }

    private mutating func link(_ userId: String, _ platform: String, _ uid: String) throws {
        if links.contains(where: { holder, held in holder != userId && held[platform] == uid }) {
            throw StorageError.duplicateValue(field: "authData")
        }
        links[userId, default: [:]][platform] = uid
    }

    // MARK: Reads

    /// The sessions of these users, by user id, then oldest first.
    func sessions(of userIds: [String]) -> [StoredSession] {
        let users = Set(userIds)
        return sessions.values.filter { users.contains($0.userId) }.sorted {
            ($0.userId, $0.createdAt.millisecondsSince1970, $0.token) < ($1.userId, $1.createdAt.millisecondsSince1970, $1.token)
        }
    }

    /// The names of the roles whose `users` relation lists the user, and transitively of the roles whose `roles`
    /// relation lists one of those, in byte order.
    func roleNames(userId: String) -> [String] {
        guard let roles = classes["_Role"] else { return [] }
        var held = Set(owners(field: "users", of: [userId]))
        var frontier = held
        while !frontier.isEmpty {
            frontier = Set(owners(field: "roles", of: frontier)).subtracting(held)
            held.formUnion(frontier)
        }
        return held.compactMap { roles.entries[$0]?.object.fields["name"]?.stringValue }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The `_Role` objects whose relation `field` lists one of `ids`.
    private func owners(field: String, of ids: Set<String>) -> [String] {
        relations.filter { $0.ownerClass == "_Role" && $0.field == field && ids.contains($0.target.objectId) }.map(\.ownerId)
    }

    /// The user a third-party account is linked to.
    func linkedUser(platform: String, uid: String) -> StoredObject? {
        guard let holder = links.first(where: { $0.value[platform] == uid })?.key else { return nil }
        return classes["_User"]?.entries[holder]?.object
    }

    /// The user whose e-mail equals `email` ignoring ASCII case: the one spelled exactly so first, then the oldest.
    func user(email: String) -> StoredObject? {
        let lowered = Self.asciiLowercased(email)
        let candidates = objects(of: "_User").filter { $0.fields["email"]?.stringValue.map(Self.asciiLowercased) == lowered }
        return candidates.min { first, second in
            let exact = (first.fields["email"]?.stringValue != email, first.createdAt.millisecondsSince1970)
            let other = (second.fields["email"]?.stringValue != email, second.createdAt.millisecondsSince1970)
            return exact.0 != other.0 ? !exact.0 : exact.1 < other.1
        }
    }

    /// The lower-cased addresses several users hold in different spellings.
    func caseDuplicateEmails() -> [String] {
        let spellings = Dictionary(grouping: objects(of: "_User").compactMap { $0.fields["email"]?.stringValue }, by: Self.asciiLowercased)
        return spellings.filter { Set($0.value).count > 1 }.keys.sorted()
    }
}
