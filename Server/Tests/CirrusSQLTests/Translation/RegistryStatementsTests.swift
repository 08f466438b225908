import CirrusModel
import CirrusSQL
import Testing

@Suite("RegistryStatements")
struct RegistryStatementsTests {
    /// Every statement over the schema registry and the relation table, pinned for SQLite and PostgreSQL.
    static let cases: [StatementCase] = [
        StatementCase(
            "all classes lists names and tables",
            sqlite: DialectSQL(#"SELECT "name", "table_name", "options" FROM "_cirrus_classes""#, []),
            postgres: DialectSQL(#"SELECT "name", "table_name", "options" FROM "_cirrus_classes""#, [])
        ) {
            RegistryStatements(dialect: $0).allClasses
        },
        StatementCase(
            "find class filters by name",
            sqlite: DialectSQL(#"SELECT "name", "table_name", "options" FROM "_cirrus_classes" WHERE "name" = ?"#, [.text(#"T"#)]),
            postgres: DialectSQL(#"SELECT "name", "table_name", "options" FROM "_cirrus_classes" WHERE "name" = $1"#, [.text(#"T"#)])
        ) {
            RegistryStatements(dialect: $0).findClass("T")
        },
        StatementCase(
            "insert class ignores a class that exists",
            sqlite: DialectSQL(#"INSERT INTO "_cirrus_classes" ("name", "table_name", "created_at") VALUES (?, ?, ?) ON CONFLICT DO NOTHING"#, [.text(#"T"#), .text(#"o_t"#), .int(1000)]),
            postgres: DialectSQL(#"INSERT INTO "_cirrus_classes" ("name", "table_name", "created_at") VALUES ($1, $2, $3) ON CONFLICT DO NOTHING"#, [.text(#"T"#), .text(#"o_t"#), .int(1000)])
        ) {
            RegistryStatements(dialect: $0).insertClass("T", table: "o_t", at: Timestamp(millisecondsSince1970: 1000))
        },
        StatementCase(
            "all fields lists class, field and type",
            sqlite: DialectSQL(#"SELECT "class_name", "field", "type" FROM "_cirrus_fields""#, []),
            postgres: DialectSQL(#"SELECT "class_name", "field", "type" FROM "_cirrus_fields""#, [])
        ) {
            RegistryStatements(dialect: $0).allFields
        },
        StatementCase(
            "fields of one class filter by class name",
            sqlite: DialectSQL(#"SELECT "class_name", "field", "type" FROM "_cirrus_fields" WHERE "class_name" = ?"#, [.text(#"T"#)]),
            postgres: DialectSQL(#"SELECT "class_name", "field", "type" FROM "_cirrus_fields" WHERE "class_name" = $1"#, [.text(#"T"#)])
        ) {
            RegistryStatements(dialect: $0).fields(of: "T")
        },
        StatementCase(
            "insert field stores the type's description and ignores a known field",
            sqlite: DialectSQL(#"INSERT INTO "_cirrus_fields" ("class_name", "field", "type") VALUES (?, ?, ?) ON CONFLICT DO NOTHING"#, [.text(#"T"#), .text(#"p"#), .text(#"Pointer<_User>"#)]),
            postgres: DialectSQL(#"INSERT INTO "_cirrus_fields" ("class_name", "field", "type") VALUES ($1, $2, $3) ON CONFLICT DO NOTHING"#, [.text(#"T"#), .text(#"p"#), .text(#"Pointer<_User>"#)])
        ) {
            RegistryStatements(dialect: $0).insertField("T", field: "p", type: .pointer(targetClass: "_User"))
        },
        StatementCase(
            "add members inserts one row per target and ignores known members",
            sqlite: DialectSQL(#"INSERT INTO "_cirrus_relations" ("owner_class", "field", "owner_id", "target_class", "target_id") VALUES (?, ?, ?, ?, ?), (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"#, [.text(#"T"#), .text(#"r"#), .text(#"a"#), .text(#"_User"#), .text(#"u1"#), .text(#"T"#), .text(#"r"#), .text(#"a"#), .text(#"_User"#), .text(#"u2"#)]),
            postgres: DialectSQL(#"INSERT INTO "_cirrus_relations" ("owner_class", "field", "owner_id", "target_class", "target_id") VALUES ($1, $2, $3, $4, $5), ($6, $7, $8, $9, $10) ON CONFLICT DO NOTHING"#, [.text(#"T"#), .text(#"r"#), .text(#"a"#), .text(#"_User"#), .text(#"u1"#), .text(#"T"#), .text(#"r"#), .text(#"a"#), .text(#"_User"#), .text(#"u2"#)])
        ) {
            RegistryStatements(dialect: $0).addMembers(
                owner: "T", field: "r", objectId: "a",
                targets: [Pointer(className: "_User", objectId: "u1"), Pointer(className: "_User", objectId: "u2")])
        },
        StatementCase(
            "remove members deletes the listed targets",
            sqlite: DialectSQL(#"DELETE FROM "_cirrus_relations" WHERE "owner_class" = ? AND "field" = ? AND "owner_id" = ? AND "target_id" IN (?)"#, [.text(#"T"#), .text(#"r"#), .text(#"a"#), .text(#"u1"#)]),
            postgres: DialectSQL(#"DELETE FROM "_cirrus_relations" WHERE "owner_class" = $1 AND "field" = $2 AND "owner_id" = $3 AND "target_id" IN ($4)"#, [.text(#"T"#), .text(#"r"#), .text(#"a"#), .text(#"u1"#)])
        ) {
            RegistryStatements(dialect: $0).removeMembers(
                owner: "T", field: "r", objectId: "a", targets: [Pointer(className: "_User", objectId: "u1")])
        },
        StatementCase(
            "remove all members deletes the rows of the listed owners",
            sqlite: DialectSQL(#"DELETE FROM "_cirrus_relations" WHERE "owner_class" = ? AND "owner_id" IN (?, ?)"#, [.text(#"T"#), .text(#"a"#), .text(#"b"#)]),
            postgres: DialectSQL(#"DELETE FROM "_cirrus_relations" WHERE "owner_class" = $1 AND "owner_id" IN ($2, $3)"#, [.text(#"T"#), .text(#"a"#), .text(#"b"#)])
        ) {
            RegistryStatements(dialect: $0).removeAllMembers(owner: "T", objectIds: ["a", "b"])
        },
        StatementCase(
            "members lists the targets of one owner's field in id order",
            sqlite: DialectSQL(#"SELECT "target_class", "target_id" FROM "_cirrus_relations" WHERE "owner_class" = ? AND "field" = ? AND "owner_id" = ? ORDER BY "target_id""#, [.text(#"T"#), .text(#"r"#), .text(#"a"#)]),
            postgres: DialectSQL(#"SELECT "target_class", "target_id" FROM "_cirrus_relations" WHERE "owner_class" = $1 AND "field" = $2 AND "owner_id" = $3 ORDER BY "target_id""#, [.text(#"T"#), .text(#"r"#), .text(#"a"#)])
        ) {
            RegistryStatements(dialect: $0).members(owner: "T", field: "r", objectId: "a")
        },
        StatementCase(
            "set options replaces a class's options",
            sqlite: DialectSQL(#"UPDATE "_cirrus_classes" SET "options" = ? WHERE "name" = ?"#, [.text(#"{}"#), .text(#"T"#)]),
            postgres: DialectSQL(#"UPDATE "_cirrus_classes" SET "options" = $1 WHERE "name" = $2"#, [.text(#"{}"#), .text(#"T"#)])
        ) {
            RegistryStatements(dialect: $0).setOptions("T", options: "{}")
        },
    ]

    @Test("each registry statement renders the pinned SQL and bindings in both dialects", arguments: cases)
    func statement(_ pinned: StatementCase) {
        pinned.check()
    }
}
