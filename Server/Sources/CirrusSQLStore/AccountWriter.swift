import CirrusModel
package import CirrusSQL
package import CirrusStorage

/// The statements of one account write, in any SQL dialect.
package enum AccountWriter {
    package static func statements(_ write: AccountWrite, dialect: any SQLDialect) -> [SQLFragment] {
        let accounts = AccountStatements(dialect: dialect)
        switch write {
        case .setPassword(let userId, let password):
            return [accounts.setPassword(userId: userId, password: password)]
        case .setLockout(let userId, let failures, let lockedUntil):
            return [accounts.setLockout(userId: userId, failures: failures, lockedUntil: lockedUntil)]
        case .appendFailure(let userId, let time):
            return [accounts.appendFailure(userId: userId, at: time)]
        case .createSession(let session):
            return [accounts.insertSession(
                token: session.token, sessionId: session.sessionId, userId: session.userId, kind: session.kind.rawValue,
                createdAt: session.createdAt, expiresAt: session.expiresAt, installationId: session.installationId,
                createdWith: session.createdWith.map(JSONWriter.string)
            )]
        case .revokeSession(let token):
            return [accounts.deleteSession(token: token)]
        case .revokeSessions(let userId, let kind, let keeping):
            return [accounts.deleteSessions(userId: userId, kind: kind?.rawValue, keeping: keeping)]
        case .saveCode(let code):
            return [accounts.saveCode(
                purpose: code.purpose, target: code.target, code: code.code, userId: code.userId, createdAt: code.createdAt,
                expiresAt: code.expiresAt, data: code.data.map(JSONWriter.string)
            )]
        case .deleteCode(let purpose, let target):
            return [accounts.deleteCode(purpose: purpose, target: target)]
        case .countCodeAttempt(let purpose, let target):
            return [accounts.countCodeAttempt(purpose: purpose, target: target)]
        case .recordSend(let target, let time, let forgetBefore):
            return accounts.recordSend(target: target, at: time, forgetBefore: forgetBefore)
        case .linkAccount(let userId, let platform, let uid):
            return [accounts.linkAccount(userId: userId, platform: platform, uid: uid)]
        case .unlinkAccount(let userId, let platform):
            return [accounts.unlinkAccount(userId: userId, platform: platform)]
        }
    }
}
