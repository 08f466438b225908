import CirrusModel
package import CirrusSQL
package import CirrusStorage

/// An object decoded from a row of `id, created_at, updated_at, acl, data` (the documents as JSON text), as every
/// SQL store selects them.
package struct StoredRow: Sendable {
    package let object: StoredObject
    /// The size in bytes of the stored document text.
    package let encodedSize: Int

    /// Decodes the first five values of a row.
    /// - Throws: ``StorageError/database(_:)`` when a column has an unexpected type or the document is not an object.
    package static func decode(_ values: [SQLValue], className: String) throws -> StoredRow {
        guard values.count >= 5, let id = values[0].text, let created = values[1].integer, let updated = values[2].integer,
            let dataText = values[4].text
        else { throw StorageError.database("a stored row of \(className) has unexpected columns: \(values.prefix(5))") }
        // Compact, whatever the engine's layout (PostgreSQL's jsonb text has spaces), as replies send it.
        let document = JSONWriter.compacted(Array(dataText.utf8))
        guard case .object(let fields) = try JSONParser.parse(document) else {
            throw StorageError.database("the stored document of \(className) is not a JSON object")
        }
        let object = StoredObject(
            className: className, objectId: id, createdAt: Timestamp(millisecondsSince1970: created),
            updatedAt: Timestamp(millisecondsSince1970: updated), acl: try values[3].text.map { try JSONParser.parse($0) }, fields: fields,
            document: document
        )
        return StoredRow(object: object, encodedSize: document.count)
    }
}
