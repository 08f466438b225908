package import CirrusModel

/// Statements over the schema registry and the relation join table.
package struct RegistryStatements: Sendable {
    package let dialect: any SQLDialect

    package init(dialect: any SQLDialect) {
        self.dialect = dialect
    }

    private var classes: String { dialect.quote(SystemSchema.classesTable) }
    private var fields: String { dialect.quote(SystemSchema.fieldsTable) }
    private var relations: String { dialect.quote(SystemSchema.relationsTable) }

    /// Columns: name, table_name, options.
    package var allClasses: SQLFragment { "SELECT \"name\", \"table_name\", \"options\" FROM \(raw: classes)" }

    /// Columns: name, table_name, options.
    package func findClass(_ name: String) -> SQLFragment {
        "SELECT \"name\", \"table_name\", \"options\" FROM \(raw: classes) WHERE \"name\" = \(bind: .text(name))"
    }

    /// Replaces a class's options (`NULL` for the defaults).
    package func setOptions(_ name: String, options: String?) -> SQLFragment {
        "UPDATE \(raw: classes) SET \"options\" = \(bind: options.map(SQLValue.text) ?? .null) WHERE \"name\" = \(bind: .text(name))"
    }

    /// Forgets a class: its registry row, field types and relation members.
    package func deleteClass(_ name: String) -> [SQLFragment] {
        [
            "DELETE FROM \(raw: relations) WHERE \"owner_class\" = \(bind: .text(name))",
            "DELETE FROM \(raw: fields) WHERE \"class_name\" = \(bind: .text(name))",
            "DELETE FROM \(raw: classes) WHERE \"name\" = \(bind: .text(name))",
        ]
    }

    /// Forgets fields of a class: their types and relation members.
    package func deleteFields(_ className: String, fields names: [String]) -> [SQLFragment] {
        let list = names.map { SQLFragment.bind(.text($0)) }.joined(separator: ", ")
        return [
            "DELETE FROM \(raw: relations) WHERE \"owner_class\" = \(bind: .text(className)) AND \"field\" IN (\(list))",
            "DELETE FROM \(raw: fields) WHERE \"class_name\" = \(bind: .text(className)) AND \"field\" IN (\(list))",
        ]
    }

    package func insertClass(_ name: String, table: String, at time: Timestamp) -> SQLFragment {
        "INSERT INTO \(raw: classes) (\"name\", \"table_name\", \"created_at\") VALUES (\(bind: .text(name)), \(bind: .text(table)), "
            + "\(bind: .int(time.millisecondsSince1970))) ON CONFLICT DO NOTHING"
    }

    /// Columns: class_name, field, type.
    package var allFields: SQLFragment { "SELECT \"class_name\", \"field\", \"type\" FROM \(raw: fields)" }

    package func fields(of className: String) -> SQLFragment {
        "SELECT \"class_name\", \"field\", \"type\" FROM \(raw: fields) WHERE \"class_name\" = \(bind: .text(className))"
    }

    package func insertField(_ className: String, field: String, type: FieldType) -> SQLFragment {
        "INSERT INTO \(raw: fields) (\"class_name\", \"field\", \"type\") VALUES (\(bind: .text(className)), \(bind: .text(field)), "
            + "\(bind: .text(type.description))) ON CONFLICT DO NOTHING"
    }

    package func addMembers(owner: String, field: String, objectId: String, targets: [Pointer]) -> SQLFragment {
        let rows = targets.map { target in
            "(\(bind: .text(owner)), \(bind: .text(field)), \(bind: .text(objectId)), \(bind: .text(target.className)), \(bind: .text(target.objectId)))"
                as SQLFragment
        }
        return "INSERT INTO \(raw: relations) (\"owner_class\", \"field\", \"owner_id\", \"target_class\", \"target_id\") VALUES "
            + rows.joined(separator: ", ") + " ON CONFLICT DO NOTHING"
    }

    package func removeMembers(owner: String, field: String, objectId: String, targets: [Pointer]) -> SQLFragment {
        "DELETE FROM \(raw: relations) WHERE \"owner_class\" = \(bind: .text(owner)) AND \"field\" = \(bind: .text(field)) "
            + "AND \"owner_id\" = \(bind: .text(objectId)) AND \"target_id\" IN (\(targets.map { SQLFragment.bind(.text($0.objectId)) }.joined(separator: ", ")))"
    }

    package func removeAllMembers(owner: String, objectIds: [String]) -> SQLFragment {
        "DELETE FROM \(raw: relations) WHERE \"owner_class\" = \(bind: .text(owner)) "
            + "AND \"owner_id\" IN (\(objectIds.map { SQLFragment.bind(.text($0)) }.joined(separator: ", ")))"
    }

    /// Columns: target_class, target_id.
    package func members(owner: String, field: String, objectId: String) -> SQLFragment {
        "SELECT \"target_class\", \"target_id\" FROM \(raw: relations) WHERE \"owner_class\" = \(bind: .text(owner)) "
            + "AND \"field\" = \(bind: .text(field)) AND \"owner_id\" = \(bind: .text(objectId)) ORDER BY \"target_id\""
    }

    /// One page of every member of a class's relation field, ordered by owner then target (the primary key's order,
    /// so each page is one index range), after the pair `after` of the previous page. Columns: owner_id, target_id.
    package func allMembers(owner: String, field: String, after: (owningId: String, relatedId: String)?, limit: Int) -> SQLFragment {
        var statement: SQLFragment = "SELECT \"owner_id\", \"target_id\" FROM \(raw: relations) WHERE \"owner_class\" = \(bind: .text(owner)) "
            + "AND \"field\" = \(bind: .text(field))"
        if let after {
            statement = statement + " AND (\"owner_id\" > \(bind: .text(after.owningId)) OR (\"owner_id\" = \(bind: .text(after.owningId)) "
                + "AND \"target_id\" > \(bind: .text(after.relatedId))))"
        }
        return statement + " ORDER BY \"owner_id\", \"target_id\" LIMIT \(bind: .int(Int64(max(limit, 0))))"
    }
}
