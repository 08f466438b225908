import CirrusModel
import Testing

@Suite("ClassSchema and FieldType")
struct ClassSchemaTests {
    @Test("field types round-trip through their stored names", arguments: [
        FieldType.string, .number, .boolean, .date, .bytes, .file, .geoPoint, .array, .object, .acl,
        .pointer(targetClass: "_User"), .relation(targetClass: "Post"),
    ])
    func storedNames(_ type: FieldType) {
        #expect(FieldType(storedName: type.description) == type)
    }

    @Test("stored names: Pointer and Relation carry their target, unknown names are refused")
    func names() {
        #expect(FieldType.pointer(targetClass: "_User").description == "Pointer<_User>")
        #expect(FieldType.relation(targetClass: "Post").name == "Relation")
        #expect(FieldType.geoPoint.description == "GeoPoint")
        #expect(FieldType.string.targetClass == nil)
        #expect(FieldType(storedName: "Polygon") == nil)
        #expect(FieldType(storedName: "Array<_User>") == nil)
        #expect(FieldType(storedName: "string") == nil)
    }

    @Test("built-in fields have fixed types, nested paths have none")
    func types() throws {
        let schema = ClassSchema(className: "T", fields: ["score": .number, "objectId": .number])
        #expect(schema.type(of: "objectId") == .string)
        #expect(schema.type(of: "createdAt") == .date)
        #expect(schema.type(of: "ACL") == .acl)
        #expect(schema.type(of: "score") == .number)
        #expect(schema.type(of: "missing") == nil)
        #expect(schema.type(at: FieldPath(field: "score")) == .number)
        #expect(schema.type(at: try FieldPath(parsing: "score.x")) == nil)
    }

    @Test("relation fields are listed by name and the GeoPoint field is found")
    func relationsAndGeoPoint() {
        let schema = ClassSchema(className: "T", fields: [
            "z": .relation(targetClass: "A"), "b": .relation(targetClass: "B"), "where": .geoPoint, "n": .number,
        ])
        #expect(schema.relationFields.map(\.name) == ["b", "z"])
        #expect(schema.relationFields.map(\.targetClass) == ["B", "A"])
        #expect(schema.geoPointField == "where")
        #expect(ClassSchema(className: "T").geoPointField == nil)
    }
}
