import Cirrus
import CirrusModel
import CirrusTesting
import Foundation
import Testing

/// BQL on Bmob's path against an in-process server over HTTP: the BQL samples of seed 004 (Bmob's Swift guide) in the
/// SDK's calls, errors, the cache, and ACLs.
@Suite("BQL on a live server")
struct BQLLiveTests {
    /// Saves GameScore_BQL objects over the LeanCloud path: name1 5, name2 9, name2 3, name3 8; each `played` at a
    /// whole second.
    static func seed(_ application: LCApplication) async throws -> [LCObject] {
        let rows: [(String, Int)] = [("name1", 5), ("name2", 9), ("name2", 3), ("name3", 8)]
        let scores = try rows.enumerated().map { index, row in
            let score = LCObject(application: application, className: "GameScore_BQL")
            try score.set("playerName", value: row.0)
            try score.set("score", value: row.1)
            try score.set("played", value: Date(timeIntervalSince1970: 1_431_586_590 + Double(index) * 86_400))
            return score
        }
        try await LCObject.save(scores)
        return scores
    }

    /// `date` as Bmob writes it: `YYYY-MM-DD HH:MM:SS` in Beijing time.
    static func bmobText(_ date: Date) -> String {
        Timestamp(millisecondsSince1970: Int64(date.timeIntervalSince1970 * 1000)).format(offsetMinutes: 480, style: .spaced)
    }

    @Test("select * finds every object as an LCObject of its class, with createdAt, updatedAt and dates at their instants")
    func selectAll() async throws {
        try await withLiveApp { application, _ in
            let saved = try await Self.seed(application)
            let result = try await LCBQLClient.execute(application: application, "select * from GameScore_BQL")
            #expect(result.objects.count == 4)
            #expect(result.className == "GameScore_BQL")
            for object in result.objects {
                let original = try #require(saved.first { $0.objectId == object.objectId })
                #expect(object.className == "GameScore_BQL")
                #expect(object.get("playerName")?.stringValue == original.get("playerName")?.stringValue)
                #expect(object.get("score")?.intValue == original.get("score")?.intValue)
                #expect(object.get("played")?.dateValue == original.get("played")?.dateValue)
                // Bmob writes no milliseconds: the instant to the second.
                let created = try #require(original.createdAt?.value.timeIntervalSince1970)
                #expect(object.createdAt?.value.timeIntervalSince1970 == created.rounded(.down))
                #expect(object.updatedAt?.value.timeIntervalSince1970 == original.updatedAt?.value.timeIntervalSince1970.rounded(.down))
            }
        }
    }

    @Test("select count(*) answers the count")
    func count() async throws {
        try await withLiveApp { application, _ in
            _ = try await Self.seed(application)
            let all = try await LCBQLClient.execute(application: application, "select count(*) from GameScore_BQL")
            #expect(all.count == 4)
            let some = try await LCBQLClient.execute(application: application, "select count(*) from GameScore_BQL where score > ?", values: [4])
            #expect(some.count == 3)
        }
    }

    @Test("statistics: sum … group by, with groupcount, having and placeholders")
    func statistics() async throws {
        try await withLiveApp { application, _ in
            _ = try await Self.seed(application)
            let rows = try await LCBQLClient.statistics(application: application, "select sum(score) from GameScore_BQL group by playerName")
            let sums = Dictionary(uniqueKeysWithValues: rows.compactMap { row in
                row["playerName"]?.stringValue.map { ($0, row["_sumScore"]?.intValue ?? -1) }
            })
            #expect(sums == ["name1": 5, "name2": 12, "name3": 8])
            let filtered = try await LCBQLClient.statistics(
                application: application,
                "select playerName, sum(score), max(score), groupcount from GameScore_BQL where score > ? group by playerName having _sumScore > 5 order by -_sumScore",
                values: [1]
            )
            #expect(filtered.map { $0["playerName"]?.stringValue } == ["name2", "name3"])
            #expect(filtered.first?["_sumScore"]?.intValue == 12)
            #expect(filtered.first?["_maxScore"]?.intValue == 9)
            #expect(filtered.first?["_count"]?.intValue == 2)
            let average = try await LCBQLClient.statistics(application: application, "select average(score), min(score) from GameScore_BQL")
            #expect(average.first?["_avgScore"]?.doubleValue == 6.25)
            #expect(average.first?["_minScore"]?.intValue == 3)
        }
    }

    @Test("placeholders: where playerName = ? and score = ?")
    func placeholders() async throws {
        try await withLiveApp { application, _ in
            _ = try await Self.seed(application)
            let result = try await LCBQLClient.execute(
                application: application, "select * from GameScore_BQL where playerName = ? and score = ?", values: ["name2", 9]
            )
            #expect(result.objects.count == 1)
            #expect(result.objects.first?.get("score")?.intValue == 9)
            let limited = try await LCBQLClient.execute(
                application: application, "select * from GameScore_BQL where playerName = ? limit ? order by score", values: ["name2", 1]
            )
            #expect(limited.objects.compactMap { $0.get("score")?.intValue } == [3])
        }
    }

    @Test("date(?) takes Bmob's Beijing-time text; a Date value compares at its instant")
    func dates() async throws {
        try await withLiveApp { application, _ in
            let saved = try await Self.seed(application)
            let sample = try await LCBQLClient.execute(
                application: application, "select * from GameScore_BQL where createdAt > date(?)", values: ["2015-05-14 14:56:30"]
            )
            #expect(sample.objects.count == 4)
            let created = try #require(saved.compactMap { $0.createdAt?.value }.min() as Date?)
            let before = Self.bmobText(created.addingTimeInterval(-3600))
            let after = Self.bmobText(created.addingTimeInterval(3600))
            #expect(try await LCBQLClient.execute(application: application, "select count(*) from GameScore_BQL where createdAt > date(?)", values: [before]).count == 4)
            #expect(try await LCBQLClient.execute(application: application, "select count(*) from GameScore_BQL where createdAt > date(?)", values: [after]).count == 0)
            // played: 2015-05-14 14:56:30 Beijing time (score 5) and the three days after it (9, 3, 8); the boundary is inclusive.
            let played = try await LCBQLClient.execute(
                application: application, "select * from GameScore_BQL where played >= date(?) order by played", values: ["2015-05-15 14:56:30"]
            )
            #expect(played.objects.compactMap { $0.get("score")?.intValue } == [9, 3, 8])
            let byDate = try await LCBQLClient.execute(
                application: application, "select count(*) from GameScore_BQL where played < ?", values: [Date(timeIntervalSince1970: 1_431_586_590 + 86_400)]
            )
            #expect(byDate.count == 1)
        }
    }

    @Test("a BQL syntax error is LCError 601 with the server's message")
    func syntaxError() async throws {
        try await withLiveApp { application, _ in
            let error = try await #require(throws: LCError.self) { try await LCBQLClient.execute(application: application, "select * GameScore_BQL") }
            #expect(error.code == 601)
            #expect(error.reason?.hasPrefix("BQL syntax error") == true)
            let statistics = try await #require(throws: LCError.self) {
                try await LCBQLClient.statistics(application: application, "select sum(score) from GameScore_BQL group playerName")
            }
            #expect(statistics.code == 601)
        }
    }

    @Test("a user's private object is found through BQL with that user's session only")
    func privateObject() async throws {
        try await withLiveApp { application, _ in
            let owner = LCUser(application: application)
            owner.username = "owner"
            owner.password = "pw"
            try await owner.signUp()
            let note = LCObject(application: application, className: "Note")
            try note.set("text", value: "secret")
            let acl = LCACL()
            acl.setAccess([.read, .write], allowed: true, forUserID: try #require(owner.objectId?.value))
            note.ACL = acl
            try await note.save()

            let found = try await LCBQLClient.execute(application: application, "select * from Note")
            #expect(found.objects.map(\.objectId) == [note.objectId])
            #expect(found.objects.first?.get("text")?.stringValue == "secret")
            #expect(try await LCBQLClient.execute(application: application, "select count(*) from Note").count == 1)

            LCUser.logOut(application: application)
            #expect(try await LCBQLClient.execute(application: application, "select * from Note").objects.isEmpty)
            #expect(try await LCBQLClient.execute(application: application, "select count(*) from Note").count == 0)

            let other = LCUser(application: application)
            other.username = "other"
            other.password = "pw"
            try await other.signUp()
            #expect(try await LCBQLClient.execute(application: application, "select * from Note").objects.isEmpty)
            #expect(try await LCBQLClient.statistics(application: application, "select groupcount from Note group by text").isEmpty)

            _ = try await LCUser.logIn(application: application, username: "owner", password: "pw")
            #expect(try await LCBQLClient.execute(application: application, "select * from Note").objects.count == 1)
            let rows = try await LCBQLClient.statistics(application: application, "select text, groupcount from Note group by text")
            #expect(rows.first?["_count"]?.intValue == 1)
        }
    }

    @Test("the BQL cache policy: onlyNetwork caches, onlyCache answers after the objects changed")
    func cache() async throws {
        try await withLiveApp { _, server in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cirrus-bql-cache-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let cached = try LCApplication(
                id: server.keys.appId, key: server.keys.appKey, serverURL: server.baseURL,
                configuration: .init(currentUserStorage: .none, queryCacheDirectory: directory)
            )
            let saved = try await Self.seed(cached)
            let bql = "select * from GameScore_BQL where score > ?"
            let network = try await LCBQLClient.execute(application: cached, bql, values: [4], cachePolicy: .onlyNetwork)
            #expect(network.objects.count == 3)
            try await saved[0].delete()
            let fromCache = try await LCBQLClient.execute(application: cached, bql, values: [4], cachePolicy: .onlyCache)
            #expect(fromCache.objects.count == 3)
            #expect(fromCache.objects.allSatisfy { $0.className == "GameScore_BQL" })
            let fresh = try await LCBQLClient.execute(application: cached, bql, values: [4], cachePolicy: .networkElseCache)
            #expect(fresh.objects.count == 2)
        }
    }

    @Test("the completion-handler and blocking forms")
    func callForms() async throws {
        try await withLiveApp { application, _ in
            _ = try await Self.seed(application)
            let found: LCCQLResult = await withCheckedContinuation { continuation in
                _ = LCBQLClient.execute(application: application, "select * from GameScore_BQL", completionQueue: .global()) {
                    continuation.resume(returning: $0)
                }
            }
            #expect(found.isSuccess && found.objects.count == 4)
            let rows: LCQueryResult<LCDictionary> = await withCheckedContinuation { continuation in
                _ = LCBQLClient.statistics(application: application, "select sum(score) from GameScore_BQL", completionQueue: .global()) {
                    continuation.resume(returning: $0)
                }
            }
            #expect(rows.objects?.first?["_sumScore"]?.intValue == 25)
            let (count, sum, failure) = await onThread { () -> (Int, Int?, Int?) in
                let counted: LCCQLResult = LCBQLClient.execute(application: application, "select count(*) from GameScore_BQL")
                let statistics: LCQueryResult<LCDictionary> = LCBQLClient.statistics(application: application, "select max(score) from GameScore_BQL")
                let failed: LCCQLResult = LCBQLClient.execute(application: application, "select * form GameScore_BQL")
                return (counted.count, statistics.objects?.first?["_maxScore"]?.intValue, failed.error?.code)
            }
            #expect(count == 4 && sum == 9 && failure == 601)
        }
    }
}
