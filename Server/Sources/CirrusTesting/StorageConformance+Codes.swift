import CirrusModel
import CirrusStorage

/// Verification codes, link tokens and the sends that rate limits count.
extension StorageConformance {
    static var codeChecks: [StorageCheck] {
        [
            StorageCheck("a code is stored per purpose and target, replaced by a new one, found by value, counted and deleted", codes),
            StorageCheck("sends are counted per target since a time, and old ones forgotten", sends),
        ]
    }

    static func codes(_ driver: StorageConformanceDriver) async throws {
        let store = driver.store
        let created = Timestamp(millisecondsSince1970: 1_000)
        let expires = Timestamp(millisecondsSince1970: 601_000)
        let first = StoredCode(purpose: "login", target: "+8618600000000", code: "123456", userId: "u1", createdAt: created, expiresAt: expires)
        try await performWrites(driver, [.saveCode(first), .saveCode(StoredCode(purpose: "sms", target: "+8618600000000", code: "123456", userId: nil,
            createdAt: created, expiresAt: expires, data: ["name": "app"]))])
        try verifyEqual(try await store.code(purpose: "login", target: "+8618600000000"), first, "a code by purpose and target")
        try verifyEqual(try await store.code(purpose: "sms", target: "+8618600000000")?.data, ["name": "app"], "the code's data")
        try verifyEqual(try await store.code(purpose: "login", target: "+8618600000001"), nil, "another target's code")
        try await performWrites(driver, [.countCodeAttempt(purpose: "login", target: "+8618600000000"),
            .countCodeAttempt(purpose: "login", target: "+8618600000000")])
        try verifyEqual(try await store.code(purpose: "login", target: "+8618600000000")?.attempts, 2, "counted wrong tries")
        var second = first
        second.code = "654321"
        try await performWrites(driver, [.saveCode(second)])
        let replaced = try await store.code(purpose: "login", target: "+8618600000000")
        try verifyEqual(replaced?.code, "654321", "the code after a new one was sent")
        try verifyEqual(replaced?.attempts, 0, "the tries of the new code")
        try verifyEqual(try await store.codes(purpose: "login", code: "654321").map(\.target), ["+8618600000000"], "codes by value")
        try verifyEqual(try await store.codes(purpose: "reset", code: "654321"), [], "codes of another purpose by value")
        try await performWrites(driver, [.deleteCode(purpose: "login", target: "+8618600000000")])
        try verifyEqual(try await store.code(purpose: "login", target: "+8618600000000"), nil, "a deleted code")
        try verify(try await store.code(purpose: "sms", target: "+8618600000000") != nil, "a code of another purpose survives")
    }

    static func sends(_ driver: StorageConformanceDriver) async throws {
        let store = driver.store
        func at(_ seconds: Int64) -> Timestamp { Timestamp(millisecondsSince1970: seconds * 1000) }
        for second in [10, 20, 30] as [Int64] {
            try await performWrites(driver, [.recordSend(target: "a", at: at(second), forgetBefore: at(0))])
        }
        try await performWrites(driver, [.recordSend(target: "b", at: at(25), forgetBefore: at(0))])
        try verifyEqual(try await store.sendCount(target: "a", since: at(0)), 3, "every send to a")
        try verifyEqual(try await store.sendCount(target: "a", since: at(20)), 2, "sends at or after a time")
        try await performWrites(driver, [.recordSend(target: "a", at: at(40), forgetBefore: at(25))])
        try verifyEqual(try await store.sendCount(target: "a", since: at(0)), 2, "after forgetting the old sends")
        try verifyEqual(try await store.sendCount(target: "b", since: at(0)), 1, "another target's sends")
    }

    private static func performWrites(_ driver: StorageConformanceDriver, _ writes: [AccountWrite]) async throws {
        for result in try await driver.store.perform(writes.map(WriteCommand.account), atomically: true) {
            _ = try verifySuccess(result, "a code write")
        }
    }
}
