import CirrusModel
import CirrusServices
import CirrusStorage

extension ImportRun {
    /// Fields of a class description that are not fields to define: the built-in columns, a user's secrets, and
    /// LeanCloud's `Any` (types are then learnt from the data).
    static let undefinedFields: Set<String> = [
        "objectId", "createdAt", "updatedAt", "ACL", "password", "salt", "sessionToken", "bcryptPassword", "scryptPassword", "_hashed_password",
    ]

    /// `_schema.json`: each class as the schema API describes it (fields with types, class permissions, indexes);
    /// classes are created, or their missing fields added; a type that differs from the store's is a failure.
    func importSchema(_ entry: ImportInput.Entry, _ source: any ByteSource) async throws -> Int {
        let bytes = try readAll(source, limit: RecordReader.documentLimit, name: entry.name)
        guard let classes = RecordReader.elements(of: bytes) else {
            fail(entry, line: nil, objectId: nil, reason: "Invalid JSON.")
            return 1
        }
        for (index, description) in classes.enumerated() {
            progress.records += 1
            guard case .object(var members) = description, let className = members["className"]?.stringValue else {
                fail(entry, line: index + 1, objectId: nil, reason: "A class description needs a className.")
                continue
            }
            if case .object(let fields)? = members["fields"] {
                var kept: [String: JSON] = [:]
                for (name, spec) in fields where !Self.undefinedFields.contains(name) && spec["type"]?.stringValue != "Any" {
                    kept[name] = spec
                    if spec["type"]?.stringValue == "Relation", let target = (spec["targetClass"] ?? spec["className"])?.stringValue {
                        schemaRelations[className, default: [:]][name] = target
                    }
                }
                members["fields"] = .object(kept)
            }
            if case .object(var indexes)? = members["indexes"] {
                // MongoDB's own index on _id, and indexes over several fields, are not named indexes Cirrus keeps.
                indexes = indexes.filter { $0.key != "_id_" && ($0.value.objectValue?.count ?? 0) == 1 }
                members["indexes"] = .object(indexes)
            }
            do {
                try ClassName.validate(className)
                let change = try SchemaChange(body: .object(members))
                let current = try await store.loadSchema(of: className)
                for (field, type) in change.fields {
                    let recorded = current?.type(of: field) ?? dryRunFields[className]?[field]
                    if let recorded, recorded != type {
                        throw APIError(.incorrectType, "The field '\(field)' exists with type \(recorded), not \(type).")
                    }
                }
                if options.dryRun {
                    for (field, type) in change.fields { dryRunFields[className, default: [:]][field] = type }
                } else {
                    let service = SchemaService(objects: objects)
                    if current == nil {
                        _ = try await service.create(className, change: change, caller: .master)
                    } else {
                        _ = try await service.update(className, change: change, caller: .master)
                    }
                }
                summary.count(entry.kind.summaryClass) { $0.imported += 1 }
            } catch {
                fail(entry, line: index + 1, objectId: nil, reason: "\(className): " + Self.reason(error, className))
            }
        }
        return classes.count
    }
}
