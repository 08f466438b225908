import CirrusModel
import CirrusStorage

/// Write permission, unique fields of system classes, passwords, sessions and roles.
extension StorageConformance {
    static var accountChecks: [StorageCheck] {
        [
            StorageCheck("updates and deletes apply only for writers the ACL grants, and tell a denial from a missing object", writePermission),
            StorageCheck("a delete of several objects removes only those the writers may write", multiDeletePermission),
            StorageCheck("_User log-in names and _Role names are unique, naming the field; missing values are not constrained", uniqueFields),
            StorageCheck("passwords and lock-out state are kept per user, and appended failures all count", accounts),
            StorageCheck("sessions are found by token and user, revoked one by one or by kind, one stable session per user", sessions),
            StorageCheck("deleting a user removes its password and sessions in the same transaction", userDeletionCascades),
            StorageCheck("a user holds the roles whose users relation lists it and, transitively, the roles that list those", roleNames),
        ]
    }

    static func writePermission(_ driver: StorageConformanceDriver) async throws {
        let acl: JSON = ["*": ["read": true], "u1": ["write": true], "role:Editors": ["write": true]]
        try await driver.insert("Note", ["n": 1], id: "n1", acl: acl)
        func update(_ writers: [String]?, condition: Condition? = nil) async throws -> Result<WriteResult, StorageError> {
            guard case .update(var command) = try await driver.updateCommand("Note", "n1", ["n": ["__op": "Increment"]], condition: condition) else {
                throw StorageError.database("not an update")
            }
            command.writers = writers
            return try await driver.perform(.update(command))
        }
        try verifyFailure(try await update(["*", "u2"]), .writeDenied, "an update by a user the ACL does not name")
        try verifyFailure(try await update(["*", "u2"], condition: stockAbove5), .writeDenied, "a conditional update by a user without write")
        _ = try verifySuccess(try await update(["*", "u1"]), "an update by the user the ACL names")
        _ = try verifySuccess(try await update(["*", "u3", "role:Editors"]), "an update by a member of a role the ACL names")
        _ = try verifySuccess(try await update(nil), "an update with the master key")
        try verifyFailure(try await update(["*", "u1"], condition: stockAbove5), .conditionNotMatched, "a writer whose condition fails")
        try verifyEqual(try await driver.fields("Note", "n1"), ["n": 4], "the object after three permitted increments")
        var delete = WriteCommand.Delete(className: "Note", objectIds: ["n1"], condition: nil, schema: nil, writers: ["*"])
        try verifyFailure(try await driver.perform(.delete(delete)), .writeDenied, "a delete by the public")
        delete.writers = ["*", "u1"]
        _ = try verifySuccess(try await driver.perform(.delete(delete)), "a delete by the writer")
        try verifyFailure(try await driver.perform(.delete(delete)), .objectNotFound(className: "Note", objectId: "n1"), "deleting it again")
    }

    static func multiDeletePermission(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Note", ["n": 1], id: "open")
        try await driver.insert("Note", ["n": 2], id: "mine", acl: ["u1": ["write": true]])
        try await driver.insert("Note", ["n": 3], id: "theirs", acl: ["u2": ["write": true]])
        let delete = WriteCommand.Delete(className: "Note", objectIds: ["open", "mine", "theirs"], condition: nil, schema: nil, writers: ["*", "u1"])
        guard case .deleted(let ids) = try verifySuccess(try await driver.perform(.delete(delete)), "a permitted multi-delete") else {
            throw failure("a delete did not report deleted ids")
        }
        try verifyEqual(ids.sorted(), ["mine", "open"], "the deleted ids")
        try verifyEqual(try await driver.findIds("Note"), ["theirs"], "what remains")
    }

    static func uniqueFields(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("_User", ["username": "ann", "email": "a@x.io"], id: "u1")
        try await driver.insert("_User", ["username": "bob"], id: "u2")
        try await driver.insert("_User", ["username": "cy"], id: "u3")
        for (fields, field) in [(["username": "ann"] as JSON, "username"), (["username": "dee", "email": "a@x.io"], "email")] {
            try verifyFailure(try await driver.perform(try driver.insertCommand("_User", fields)), .duplicateValue(field: field), "a taken \(field)")
        }
        try verifyFailure(try await driver.update("_User", "u2", ["username": "cy"]), .duplicateValue(field: "username"), "renaming onto a taken name")
        try await driver.insert("_Role", ["name": "Admin"], id: "r1")
        try verifyFailure(try await driver.perform(try driver.insertCommand("_Role", ["name": "Admin"])), .duplicateValue(field: "name"), "a taken role name")
        try await driver.insert("Post", ["username": "ann"], id: "p1")
        try verifyEqual(try await driver.findIds("_User"), ["u1", "u2", "u3"], "the users")
    }

    static func accounts(_ driver: StorageConformanceDriver) async throws {
        let store = driver.store
        try verifyEqual(try await store.account(userId: "u1"), nil, "the account of a user never written")
        try await performAll(driver, [.setPassword(userId: "u1", password: "$scrypt$x")])
        let times = (1...3).map { Timestamp(millisecondsSince1970: 1_000 * Int64($0)) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for time in times { group.addTask { try await performAll(driver, [.appendFailure(userId: "u1", at: time)]) } }
            try await group.waitForAll()
        }
        let account = try await store.account(userId: "u1")
        try verifyEqual(account?.password, "$scrypt$x", "the password")
        try verifyEqual(account?.failures.sorted { $0.millisecondsSince1970 < $1.millisecondsSince1970 }, times, "the appended failures")
        try await performAll(driver, [.setLockout(userId: "u1", failures: [], lockedUntil: times[2]), .setPassword(userId: "u1", password: nil)])
        try verifyEqual(try await store.account(userId: "u1"), StoredAccount(userId: "u1", password: nil, failures: [], lockedUntil: times[2]), "after a reset")
        try await performAll(driver, [.appendFailure(userId: "u9", at: times[0])])
        try verifyEqual(try await store.account(userId: "u9")?.failures, [times[0]], "a failure of a user without a password")
    }

    static func sessions(_ driver: StorageConformanceDriver) async throws {
        let store = driver.store
        let now = Timestamp(millisecondsSince1970: 5_000)
        func session(_ token: String, _ user: String, _ kind: StoredSession.Kind, at time: Int64) -> StoredSession {
            StoredSession(
                token: token, sessionId: "s-" + token, userId: user, kind: kind, createdAt: Timestamp(millisecondsSince1970: time),
                expiresAt: kind == .revocable ? Timestamp(millisecondsSince1970: time + 100) : nil, installationId: kind == .revocable ? "i" : nil,
                createdWith: ["action": "login"]
            )
        }
        let stable = session("t1", "u1", .stable, at: 1)
        try await performAll(driver, [.createSession(stable), .createSession(session("t2", "u1", .revocable, at: 2)),
            .createSession(session("t3", "u1", .revocable, at: 3)), .createSession(session("t4", "u2", .stable, at: 4))])
        try verifyEqual(try await store.session(token: "t1"), stable, "a session by token")
        try verifyEqual(try await store.session(token: "nope"), nil, "an unknown token")
        try verifyEqual(try await store.sessions(userId: "u1").map(\.token), ["t1", "t2", "t3"], "a user's sessions, oldest first")
        let second = try await store.perform([.account(.createSession(session("t5", "u1", .stable, at: 5)))], atomically: false)
        guard case .failure(.duplicateValue) = second[0] else { throw failure("a second stable session was accepted: \(second[0])") }
        try await performAll(driver, [.revokeSession(token: "t2")])
        try verifyEqual(try await store.sessions(userId: "u1").map(\.token), ["t1", "t3"], "after revoking one")
        try await performAll(driver, [.revokeSessions(userId: "u1", kind: .revocable, keeping: nil)])
        try verifyEqual(try await store.sessions(userId: "u1").map(\.token), ["t1"], "after revoking the revocable ones")
        try await performAll(driver, [.revokeSessions(userId: "u1", kind: nil, keeping: "t1")])
        try verifyEqual(try await store.sessions(userId: "u1").map(\.token), ["t1"], "revoking all but the one kept")
        try verify(try await store.session(token: "t3")?.isExpired(at: now) != false, "an expired session reads as expired")
        try verifyEqual(try await store.sessions(userId: "u2").map(\.token), ["t4"], "another user's sessions are untouched")
    }

    static func userDeletionCascades(_ driver: StorageConformanceDriver) async throws {
        guard case .insert(var insert) = try driver.insertCommand("_User", ["username": "gone"], id: "u1") else { return }
        insert.accountWrites = [
            .setPassword(userId: "u1", password: "$scrypt$p"),
            .createSession(StoredSession(token: "tok", sessionId: "s1", userId: "u1", kind: .stable, createdAt: StorageConformanceDriver.baseTime, expiresAt: nil)),
        ]
        _ = try verifySuccess(try await driver.perform(.insert(insert)), "a sign-up with its password and session")
        try verifyEqual(try await driver.store.session(token: "tok")?.userId, "u1", "the session written with the user")
        _ = try verifySuccess(try await driver.perform(try await driver.deleteCommand("_User", ["u1"])), "deleting the user")
        try verifyEqual(try await driver.store.session(token: "tok"), nil, "the session after the user is deleted")
        try verifyEqual(try await driver.store.account(userId: "u1"), nil, "the password after the user is deleted")
        // A failed insert writes no account rows either.
        guard case .insert(var duplicate) = try driver.insertCommand("_User", ["username": "x"], id: "u2") else { return }
        duplicate.accountWrites = [.createSession(StoredSession(token: "tok2", sessionId: "s2", userId: "u2", kind: .stable, createdAt: StorageConformanceDriver.baseTime, expiresAt: nil))]
        _ = try verifySuccess(try await driver.perform(.insert(duplicate)), "another user")
        duplicate.object.objectId = "u3"
        duplicate.accountWrites = [.setPassword(userId: "u3", password: "p")]
        try verifyFailure(try await driver.perform(.insert(duplicate)), .duplicateValue(field: "username"), "a sign-up with a taken name")
        try verifyEqual(try await driver.store.account(userId: "u3"), nil, "the password of the refused sign-up")
    }

    static func roleNames(_ driver: StorageConformanceDriver) async throws {
        try verifyEqual(try await driver.store.roleNames(userId: "u1"), [], "roles before any role exists")
        func role(_ id: String, _ name: String, users: [String] = [], roles: [String] = []) async throws {
            var relations: [(field: String, add: [Pointer])] = []
            if !users.isEmpty { relations.append(("users", users.map { Pointer(className: "_User", objectId: $0) })) }
            if !roles.isEmpty { relations.append(("roles", roles.map { Pointer(className: "_Role", objectId: $0) })) }
            try await driver.insert("_Role", ["name": .string(name)], id: id, relations: relations)
        }
        try await role("r1", "Writers", users: ["u1", "u2"])
        try await role("r2", "Staff", roles: ["r1"])
        try await role("r3", "Everyone", roles: ["r2", "r4"])
        try await role("r4", "Loop", roles: ["r3"])
        try await role("r5", "Admins", users: ["u2"])
        try await role("r6", "Unrelated", users: ["u3"])
        try verifyEqual(try await driver.store.roleNames(userId: "u1"), ["Everyone", "Loop", "Staff", "Writers"], "u1's roles through a cycle")
        try verifyEqual(try await driver.store.roleNames(userId: "u2"), ["Admins", "Everyone", "Loop", "Staff", "Writers"], "u2's roles")
        try verifyEqual(try await driver.store.roleNames(userId: "u9"), [], "a user in no role")
    }

    private static func performAll(_ driver: StorageConformanceDriver, _ writes: [AccountWrite]) async throws {
        for result in try await driver.store.perform(writes.map(WriteCommand.account), atomically: true) {
            _ = try verifySuccess(result, "an account write")
        }
    }
}
