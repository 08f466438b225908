import CirrusTesting
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Durability of acknowledged writes")
struct DurabilityTests {
    @Test("creates, updates and deletes acknowledged before kill -9 are all there after a restart")
    func survivesKill() async throws {
        try await Sandbox.with { sandbox in
            let server = try await sandbox.startServer()
            var ids: [String] = []
            for index in 0..<20 {
                let created = try await server.client.send("POST", "/1.1/classes/Ledger", json: ["index": .int(Int64(index)), "balance": 100])
                try #require(created.status == 201)
                ids.append(try #require(created.json["objectId"]?.stringValue))
            }
            for (index, id) in ids.enumerated() {
                let body: JSON = ["balance": ["__op": "Increment", "amount": .int(Int64(index))], "note": "updated"]
                let updated = try await server.client.send("PUT", "/1.1/classes/Ledger/\(id)", json: body)
                try #require(updated.status == 200)
            }
            let deleted = try await server.client.send("DELETE", "/1.1/classes/Ledger/\(ids[0])")
            try #require(deleted.status == 200)
            #expect(try await server.crash() == .signalled(SIGKILL))

            let restarted = try await sandbox.startServer()
            let gone = try await restarted.client.send("GET", "/1.1/classes/Ledger/\(ids[0])")
            #expect(gone.json == [:])
            for (index, id) in ids.enumerated().dropFirst() {
                let fetched = try await restarted.client.send("GET", "/1.1/classes/Ledger/\(id)")
                #expect(fetched.status == 200)
                #expect(fetched.json["index"] == .int(Int64(index)))
                #expect(fetched.json["balance"] == .int(Int64(100 + index)))
                #expect(fetched.json["note"] == "updated")
            }
            let count = try await restarted.client.send("GET", "/1.1/classes/Ledger?count=1&limit=0")
            #expect(count.json["count"] == .int(Int64(ids.count - 1)))
            try await restarted.stop()
        }
    }
}
