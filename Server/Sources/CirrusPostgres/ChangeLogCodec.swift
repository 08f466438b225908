import CirrusModel
import CirrusSQL
import CirrusSQLStore
import CirrusStorage

/// Change records as rows of the change-log table and back: an object image is
/// `{"createdAt": ms, "updatedAt": ms, "ACL": …, "fields": {…}}`, the updated keys a JSON array.
enum ChangeLogCodec {
    static func row(_ record: ChangeRecord) -> PostgresDialect.ChangeLogRow {
        PostgresDialect.ChangeLogRow(
            kind: record.kind.rawValue, className: record.className, objectId: record.objectId,
            before: record.before.map(image), after: record.after.map(image),
            updatedKeys: JSONWriter.string(.array(record.updatedKeys.map(JSON.string)))
        )
    }

    static func image(_ object: StoredObject) -> String {
        var image: [String: JSON] = [
            "createdAt": .int(object.createdAt.millisecondsSince1970), "updatedAt": .int(object.updatedAt.millisecondsSince1970),
            "fields": .object(object.fields),
        ]
        if let acl = object.acl { image["ACL"] = acl }
        return JSONWriter.string(.object(image))
    }

    /// The record of a row of ``PostgresDialect/changes(after:limit:)`` (its first seven columns).
    static func record(_ row: [SQLValue]) throws -> ChangeRecord {
        guard row.count >= 7, let sequence = row[0].integer, let kind = row[1].text.flatMap(ChangeRecord.Kind.init(rawValue:)),
            let className = row[2].text, let objectId = row[3].text, let keysText = row[6].text,
            case .array(let keys) = try JSONParser.parse(keysText)
        else { throw StorageError.database("a change-log row has unexpected columns") }
        func object(_ value: SQLValue) throws -> StoredObject? {
            guard let text = value.text else { return nil }
            let image = try JSONParser.parse(text)
            guard let created = image["createdAt"]?.intValue, let updated = image["updatedAt"]?.intValue,
                case .object(let fields) = image["fields"]
            else { throw StorageError.database("a change-log image is malformed") }
            return StoredObject(
                className: className, objectId: objectId, createdAt: Timestamp(millisecondsSince1970: created),
                updatedAt: Timestamp(millisecondsSince1970: updated), acl: image["ACL"], fields: fields
            )
        }
        return ChangeRecord(
            sequence: sequence, kind: kind, className: className, objectId: objectId, before: try object(row[4]), after: try object(row[5]),
            updatedKeys: keys.compactMap(\.stringValue)
        )
    }
}
