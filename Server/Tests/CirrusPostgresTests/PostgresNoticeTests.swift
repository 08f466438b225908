import CirrusModel
@testable import CirrusPostgres
import CirrusSQL
import CirrusSQLStore
import CirrusStorage
import Foundation
import Testing

@Suite("PostgreSQL change notices")
struct PostgresNoticeTests {
    @Test("every notice survives its payload encoding, and another instance's notices are told from this one's own")
    func roundTrip() {
        let notices: [ChangeNotice] = [.schema(className: "Post"), .sessions, .everything]
        for notice in notices {
            let payload = JSONWriter.string(PostgresDriver.encode(notice, from: "one"))
            #expect(PostgresDriver.decode(payload, ignoring: "two") == notice)
            #expect(PostgresDriver.decode(payload, ignoring: "one") == nil)
        }
        #expect(PostgresDriver.decode(#"{"from":"x","kind":"objects","change":"moved","class":"P","ids":[]}"#, ignoring: "y") == nil)
        #expect(PostgresDriver.decode(PostgresDriver.changeLogNotice, ignoring: "y") == nil)
    }

    @Test("a change record survives the change-log table's row encoding: images, ACL, updated keys")
    func changeLogRows() throws {
        let before = StoredObject(
            className: "Post", objectId: "p1", createdAt: Timestamp(millisecondsSince1970: 1_000), updatedAt: Timestamp(millisecondsSince1970: 2_000),
            acl: ["*": ["read": true]], fields: ["title": "a", "n": 1, "when": ["__type": "Date", "iso": "2026-01-01T00:00:00.000Z"]]
        )
        var after = before
        after.fields["title"] = "b"
        after.acl = nil
        after.updatedAt = Timestamp(millisecondsSince1970: 3_000)
        let records = [
            ChangeRecord(sequence: 7, kind: .updated, className: "Post", objectId: "p1", before: before, after: after, updatedKeys: ["ACL", "title"]),
            ChangeRecord(sequence: 8, kind: .created, className: "Post", objectId: "p1", before: nil, after: before),
            ChangeRecord(sequence: 9, kind: .deleted, className: "Post", objectId: "p1", before: after, after: nil),
        ]
        for record in records {
            let row = ChangeLogCodec.row(record)
            let values: [SQLValue] = [
                .int(record.sequence), .text(row.kind), .text(row.className), .text(row.objectId), row.before.map(SQLValue.text) ?? .null,
                row.after.map(SQLValue.text) ?? .null, .text(row.updatedKeys),
            ]
            #expect(try ChangeLogCodec.record(values) == record)
        }
    }
}
