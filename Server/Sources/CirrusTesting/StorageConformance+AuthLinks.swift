import CirrusModel
import CirrusStorage

/// Third-party account links, unique per platform and id, and e-mail addresses unique whatever their case.
extension StorageConformance {
    static var authLinkChecks: [StorageCheck] {
        [
            StorageCheck("a third-party account links to one user; relinking a platform replaces it; unlinking and deleting the user free it", authLinks),
            StorageCheck("of many concurrent new users linking one account, exactly one is stored", concurrentAuthLinks),
            StorageCheck("e-mail addresses are unique ignoring the case of ASCII letters, and found by any case, the exact spelling first", emailCase),
        ]
    }

    /// The insert of a user with account writes.
    static func user(_ driver: StorageConformanceDriver, _ id: String, _ fields: JSON, writes: [AccountWrite]) throws -> WriteCommand {
        guard case .insert(var insert) = try driver.insertCommand("_User", fields, id: id) else { throw failure("not an insert") }
        insert.accountWrites = writes
        return .insert(insert)
    }

    static func authLinks(_ driver: StorageConformanceDriver) async throws {
        let store = driver.store
        let first = try user(driver, "u1", ["username": "a", "authData": ["github": ["uid": "g1"]]], writes: [.linkAccount(userId: "u1", platform: "github", uid: "g1")])
        _ = try verifySuccess(try await driver.perform(first), "the first user linking g1")
        try verifyEqual(try await store.linkedUser(platform: "github", uid: "g1")?.objectId, "u1", "the holder of g1")
        let second = try user(driver, "u2", ["username": "b"], writes: [.linkAccount(userId: "u2", platform: "github", uid: "g1")])
        try verifyFailure(try await driver.perform(second), .duplicateValue(field: "authData"), "a second user linking g1")
        try verifyEqual(try await store.fetch(className: "_User", ids: ["u2"]).count, 0, "the refused user, rolled back")
        try verifyEqual(try await store.linkedUser(platform: "gitlab", uid: "g1")?.objectId, nil, "another platform's account with the same id")
        _ = try verifySuccess(try await driver.perform(.account(.linkAccount(userId: "u1", platform: "github", uid: "g2"))), "relinking github")
        try verifyEqual(try await store.linkedUser(platform: "github", uid: "g1")?.objectId, nil, "the replaced account")
        try verifyEqual(try await store.linkedUser(platform: "github", uid: "g2")?.objectId, "u1", "the new account")
        _ = try verifySuccess(try await driver.perform(.account(.unlinkAccount(userId: "u1", platform: "github"))), "unlinking github")
        try verifyEqual(try await store.linkedUser(platform: "github", uid: "g2")?.objectId, nil, "the unlinked account")
        for platform in ["weibo", "qq"] {
            _ = try verifySuccess(try await driver.perform(.account(.linkAccount(userId: "u1", platform: platform, uid: "x"))), "linking \(platform)")
        }
        _ = try verifySuccess(try await driver.perform(.account(.unlinkAccount(userId: "u1", platform: nil))), "unlinking every platform")
        try verifyEqual(try await store.linkedUser(platform: "qq", uid: "x")?.objectId, nil, "an account unlinked with all")
        _ = try verifySuccess(try await driver.perform(.account(.linkAccount(userId: "u1", platform: "weibo", uid: "w"))), "linking weibo")
        _ = try verifySuccess(
            try await driver.perform(.delete(WriteCommand.Delete(className: "_User", objectIds: ["u1"], condition: nil, schema: nil))), "deleting the user"
        )
        try verifyEqual(try await store.linkedUser(platform: "weibo", uid: "w")?.objectId, nil, "an account of a deleted user")
        let successor = try user(driver, "u9", ["username": "c"], writes: [.linkAccount(userId: "u9", platform: "weibo", uid: "w")])
        _ = try verifySuccess(try await driver.perform(successor), "another user linking the deleted user's account")
        try verifyEqual(try await store.linkedUser(platform: "weibo", uid: "w")?.fields["username"], "c", "the account's new holder, read whole")
    }

    static func concurrentAuthLinks(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("_User", ["username": "existing"], id: "u0")
        let successes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                let command = try user(driver, "r\(index)", ["username": .string("racer\(index)")], writes: [.linkAccount(userId: "r\(index)", platform: "qq", uid: "same")])
                group.addTask {
                    switch try await driver.store.perform([command], atomically: true)[0] {
                    case .success: return true
                    case .failure(let error):
                        guard error == .duplicateValue(field: "authData") else { throw failure("a losing racer failed with \(error)") }
                        return false
                    }
                }
            }
            return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
        }
        try verifyEqual(successes, 1, "the users stored")
        try verifyEqual(try await driver.findIds("_User").count, 2, "the users in the class")
    }

    static func emailCase(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("_User", ["username": "ann", "email": "Ann@Example.io"], id: "u1")
        for taken in ["ann@example.io", "ANN@EXAMPLE.IO", "Ann@Example.io"] {
            try verifyFailure(try await driver.perform(try driver.insertCommand("_User", ["username": .string(taken), "email": .string(taken)])),
                .duplicateValue(field: "email"), "the address \(taken)")
        }
        try await driver.insert("_User", ["username": "e1", "email": "\u{C9}@example.io"], id: "u2")
        try await driver.insert("_User", ["username": "e2", "email": "\u{E9}@example.io"], id: "u3")
        try verifyEqual(try await driver.store.user(email: "aNN@eXAMPLE.iO")?.objectId, "u1", "a log-in by another case")
        try verifyEqual(try await driver.store.user(email: "Ann@Example.io")?.fields["email"], "Ann@Example.io", "the address as typed")
        try verifyEqual(try await driver.store.user(email: "\u{E9}@example.io")?.objectId, "u3", "non-ASCII letters compare exactly")
        try verifyEqual(try await driver.store.user(email: "bob@example.io")?.objectId, nil, "an unknown address")
        try verifyEqual(try await driver.store.caseDuplicateEmails(limit: 10), [], "addresses held in several cases")
        let changed = try await driver.update("_User", "u3", ["email": "ANN@example.io"])
        try verifyFailure(changed, .duplicateValue(field: "email"), "changing an address to another case of a taken one")
    }
}
