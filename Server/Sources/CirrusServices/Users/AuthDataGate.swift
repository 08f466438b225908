import CirrusModel

/// The one check of the third-party data a client sets, wherever it sets it: an `authData` log-in, a sign-up or a
/// create of a user (a batch, CQL), a link through an update (`authData` merged, or `authData.<platform>` as the Swift
/// SDK sends it). The master key's data is trusted: it is the app's own (tools, imports of expired tokens).
struct AuthDataGate {
    let validator: any AuthDataValidator

    /// Checks every entry `update` sets in `authData`, whole or by platform.
    /// - Throws: ``APIError`` from the validator, or ``APIError/Reason/invalidAuthData`` for a malformed entry.
    func check(_ update: ObjectUpdate, caller: Caller) async throws {
        guard !caller.isMaster else { return }
        var accounts: [LinkedAccount] = []
        for (path, operation) in update.operations(on: "authData") {
            guard case .set(let value) = operation else { continue }
            if path.isNested {
                guard path.segments.count == 2, !value.wire.isNull else { continue }
                accounts.append(try LinkedAccount.account(path.segments[1], value.wire))
            } else if !value.wire.isNull {
                accounts += try LinkedAccount.accounts(in: value.wire)
            }
        }
        try await check(accounts, caller: caller)
    }

    /// Checks accounts a client sent.
    func check(_ accounts: [LinkedAccount], caller: Caller) async throws {
        guard !caller.isMaster else { return }
        for account in accounts {
            // `_<platform>_unionid` entries are the server's record of a main account's UnionID.
            guard !account.platform.hasPrefix("_") else {
                throw APIError(.invalidAuthData, "authData keys starting with '_' are kept by the server: '\(account.platform)'.")
            }
            try await validator.validate(platform: account.platform, data: .object(account.entry))
        }
    }
}
