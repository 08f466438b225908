import Cirrus
import CirrusTesting
import Foundation
import Testing

/// Query statistics against an in-process server over HTTP.
@Suite("Statistics on a live server")
struct StatisticsLiveTests {
    @Test("sums, averages, extremes, groups, group counts and having give the rows seed 004 describes")
    func statistics() async throws {
        try await withLiveApp { application, _ in
            let scores = [("Sean", 10), ("Sean", 50), ("Ann", 30), ("Bob", 5), ("Bob", 70)]
            let objects = try scores.map { name, score in
                let object = LCObject(application: application, className: "GameScore")
                try object.set("playerName", value: name)
                try object.set("score", value: score)
                return object
            }
            try await LCObject.save(objects)

            let total = LCQuery(application: application, className: "GameScore")
            total.sum(keys: ["score"])
            total.max(keys: ["score"])
            total.min(keys: ["score"])
            total.average(keys: ["score"])
            let row = try #require(try await total.calculate().first)
            #expect(row["_sumScore"]?.intValue == 165)
            #expect(row["_maxScore"]?.intValue == 70)
            #expect(row["_minScore"]?.intValue == 5)
            #expect(row["_avgScore"]?.doubleValue == 33)

            let grouped = LCQuery(application: application, className: "GameScore")
            grouped.groupBy(keys: ["playerName"])
            grouped.sum(keys: ["score"])
            grouped.groupCount = true
            grouped.having("_sumScore", .greaterThan(50))
            let rows = try await grouped.calculate()
            let byName = Dictionary(uniqueKeysWithValues: rows.compactMap { row in
                row["playerName"]?.stringValue.map { ($0, (row["_sumScore"]?.intValue, row["_count"]?.intValue)) }
            })
            #expect(byName.count == 2)
            #expect(byName["Sean"]?.0 == 60 && byName["Sean"]?.1 == 2)
            #expect(byName["Bob"]?.0 == 75 && byName["Bob"]?.1 == 2)
        }
    }
}
