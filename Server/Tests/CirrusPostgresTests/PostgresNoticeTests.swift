import CirrusModel
@testable import CirrusPostgres
import CirrusSQLStore
import CirrusStorage
import Foundation
import Testing

@Suite("PostgreSQL change notices")
struct PostgresNoticeTests {
    @Test("every notice survives its payload encoding, and another instance's notices are told from this one's own")
    func roundTrip() {
        let notices: [ChangeNotice] = [
            .schema(className: "Post"), .sessions, .everything, .objects(ObjectChange(kind: .deleted, className: "Post", objectIds: ["a", "b"])),
        ]
        for notice in notices {
            let payload = JSONWriter.string(PostgresDriver.encode(notice, from: "one"))
            #expect(PostgresDriver.decode(payload, ignoring: "two") == notice)
            #expect(PostgresDriver.decode(payload, ignoring: "one") == nil)
        }
        #expect(PostgresDriver.decode(#"{"from":"x","kind":"objects","change":"moved","class":"P","ids":[]}"#, ignoring: "y") == nil)
    }

    @Test("a change of many objects goes in pieces whose payloads stay under PostgreSQL's 8000 bytes, keeping every id in order")
    func pieces() {
        let ids = (0..<2_000).map { String(format: "%024d", $0) }
        let change = ObjectChange(kind: .created, className: String(repeating: "C", count: 128), objectIds: ids)
        let pieces = PostgresDriver.pieces(of: change)
        #expect(pieces.count > 1)
        #expect(pieces.flatMap(\.objectIds) == ids)
        for piece in pieces {
            let payload = JSONWriter.string(PostgresDriver.encode(.objects(piece), from: "0123456789abcdef0123456789abcdef"))
            #expect(payload.utf8.count + 64 < 8_000)
        }
    }
}
