import CirrusModel
import CirrusStorage

/// The operator matrix: every operator against a field holding each value type (string, integer, double,
/// boolean, null, Date, Pointer, array, object) or missing, with the ids each row must select.
extension StorageConformance {
    static var operatorMatrixChecks: [StorageCheck] {
        [
            StorageCheck("every operator selects the right objects whatever the type of value the field holds", operatorMatrix),
            StorageCheck("$inQuery, $notInQuery, $select, $dontSelect and $relatedTo select the right objects in SQL", referenceTable),
            StorageCheck("inner queries find at most their limit", innerLimit),
            StorageCheck("$select compares createdAt and updatedAt as Dates on either side", selectBuiltInDates),
            StorageCheck("a reader sees only objects without an ACL or whose ACL grants it read, the master key sees all", readAccess),
            StorageCheck("sub-queries only reach objects the reader may read", readAccessInSubQueries),
        ]
    }

    /// One object per value type in the field `v` of class `Matrix`; `x` lacks it.
    static let matrixObjects: [(id: String, fields: JSON)] = [
        ("s", ["v": "m"]),
        ("i", ["v": 5]),
        ("d", ["v": 2.5]),
        ("b", ["v": true]),
        ("n", ["v": nil]),
        ("t", ["v": date("2020-01-01T00:00:00.000Z")]),
        ("p", ["v": pointer("p1", "Post")]),
        ("a", ["v": ["m", 5]]),
        ("o", ["v": ["k": "m", "n": 1]]),
        ("x", [:]),
    ]

    /// Conditions on `v` and the ids they select among ``matrixObjects``.
    static var matrixCases: [(name: String, condition: Condition, ids: Set<String>)] {
        let v = FieldPath(field: "v")
        func cmp(_ op: Condition.Comparison, _ value: Value) -> Condition { .compare(v, op, value) }
        func day(_ iso: String) -> Value { .date(Timestamp(parsing: iso)!) }
        let p1 = Value.pointer(Pointer(className: "Post", objectId: "p1"))
        let all: Set<String> = Set(matrixObjects.map(\.id))
        return [
            ("$eq string", cmp(.equal, .string("m")), ["s", "a"]),
            ("$eq integer", cmp(.equal, .int(5)), ["i", "a"]),
            ("$eq double equal to an integer", cmp(.equal, .double(5)), ["i", "a"]),
            ("$eq double", cmp(.equal, .double(2.5)), ["d"]),
            ("$eq boolean", cmp(.equal, .bool(true)), ["b"]),
            ("$eq false", cmp(.equal, .bool(false)), []),
            ("$eq null", cmp(.equal, .null), ["n", "x"]),
            ("$eq Date", cmp(.equal, day("2020-01-01T00:00:00.000Z")), ["t"]),
            ("$eq Pointer", cmp(.equal, p1), ["p"]),
            ("$eq Pointer of another class", cmp(.equal, .pointer(Pointer(className: "Other", objectId: "p1"))), []),
            ("$eq whole array", cmp(.equal, .array([.string("m"), .int(5)])), ["a"]),
            ("$eq array in another order", cmp(.equal, .array([.int(5), .string("m")])), []),
            ("$eq whole object", cmp(.equal, .object(["n": .int(1), "k": .string("m")])), ["o"]),
            ("$ne string", cmp(.notEqual, .string("m")), all.subtracting(["s", "a"])),
            ("$ne integer", cmp(.notEqual, .int(5)), all.subtracting(["i", "a"])),
            ("$ne null", cmp(.notEqual, .null), all.subtracting(["n", "x"])),
            ("$ne Pointer", cmp(.notEqual, p1), all.subtracting(["p"])),
            ("$ne Date", cmp(.notEqual, day("2020-01-01T00:00:00.000Z")), all.subtracting(["t"])),
            ("$lt integer", cmp(.lessThan, .int(5)), ["d"]),
            ("$lte integer", cmp(.lessThanOrEqual, .int(5)), ["i", "d", "a"]),
            ("$gt integer", cmp(.greaterThan, .int(2)), ["i", "d", "a"]),
            ("$gte double", cmp(.greaterThanOrEqual, .double(2.5)), ["i", "d", "a"]),
            ("$gt double", cmp(.greaterThan, .double(2.5)), ["i", "a"]),
            ("$lt string", cmp(.lessThan, .string("n")), ["s", "a"]),
            ("$gt string", cmp(.greaterThan, .string("m")), []),
            ("$gte string", cmp(.greaterThanOrEqual, .string("m")), ["s", "a"]),
            ("$lt Date", cmp(.lessThan, day("2021-01-01T00:00:00.000Z")), ["t"]),
            ("$gte Date", cmp(.greaterThanOrEqual, day("2020-01-01T00:00:00.000Z")), ["t"]),
            ("$gt Date", cmp(.greaterThan, day("2020-01-01T00:00:00.000Z")), []),
            ("$lt a boolean matches nothing", cmp(.lessThan, .bool(true)), []),
            ("$gt null matches nothing", cmp(.greaterThan, .null), []),
            ("$lt Pointer matches nothing", cmp(.lessThan, p1), []),
            ("$in strings and doubles", .inList(v, [.string("m"), .double(2.5)], negated: false), ["s", "d", "a"]),
            ("$in null", .inList(v, [.null], negated: false), ["n", "x"]),
            ("$in boolean and Pointer", .inList(v, [.bool(true), p1], negated: false), ["b", "p"]),
            ("$in Date", .inList(v, [day("2020-01-01T00:00:00.000Z")], negated: false), ["t"]),
            ("$in object", .inList(v, [.object(["k": .string("m"), "n": .int(1)])], negated: false), ["o"]),
            ("$nin string and integer", .inList(v, [.string("m"), .int(5)], negated: true), all.subtracting(["s", "i", "a"])),
            ("$nin null", .inList(v, [.null], negated: true), all.subtracting(["n", "x"])),
            ("$all of both elements", .containsAll(v, [.string("m"), .int(5)]), ["a"]),
            ("$all of one value matches a scalar equal to it", .containsAll(v, [.string("m")]), ["s", "a"]),
            ("$exists", .exists(v, true), all.subtracting(["x"])),
            ("$exists false", .exists(v, false), ["x"]),
            ("$size 2", .size(v, 2), ["a"]),
            ("$size 0", .size(v, 0), []),
            ("$regex anchored", .regex(v, pattern: "^m$", options: ""), ["s", "a"]),
            ("$regex with i", .regex(v, pattern: "^M", options: "i"), ["s", "a"]),
            ("$regex lookahead", .regex(v, pattern: "^(?=m)", options: ""), ["s", "a"]),
            ("$regex negative lookahead", .regex(v, pattern: "^(?!m)", options: ""), []),
            ("$regex \\Q…\\E", .regex(v, pattern: "\\Qm\\E", options: ""), ["s", "a"]),
            ("$regex never matches numbers", .regex(v, pattern: "5", options: ""), []),
            ("$or", .or([cmp(.equal, .int(5)), cmp(.equal, .bool(true))]), ["i", "b", "a"]),
            ("$and", .and([.exists(v, true), cmp(.notEqual, .string("m"))]), ["i", "d", "b", "n", "t", "p", "o"]),
            ("$nor", .nor([.exists(v, true)]), ["x"]),
            ("dot path equal", .compare(FieldPath(["v", "k"]), .equal, .string("m")), ["o"]),
            ("dot path greater than", .compare(FieldPath(["v", "n"]), .greaterThan, .int(0)), ["o"]),
            ("dot path into a Date", .compare(FieldPath(["v", "iso"]), .equal, .string("2020-01-01T00:00:00.000Z")), ["t"]),
            ("dot path into a Pointer", .compare(FieldPath(["v", "objectId"]), .equal, .string("p1")), ["p"]),
            ("dot path exists", .exists(FieldPath(["v", "k"]), true), ["o"]),
            ("dot path not equal", .compare(FieldPath(["v", "k"]), .notEqual, .string("m")), all.subtracting(["o"])),
        ]
    }

    /// Without a schema: one field holds every type here, which a class schema would refuse.
    static func operatorMatrix(_ driver: StorageConformanceDriver) async throws {
        for (id, fields) in matrixObjects { try await insertUntyped(driver, "Matrix", fields, id: id) }
        for (name, condition, expected) in matrixCases {
            let found = try await driver.findIds("Matrix", condition, schema: .none)
            try verifyEqual(found.sorted(), expected.sorted(), name)
            try verifyEqual(try await driver.count("Matrix", condition, schema: .none), expected.count, "count of \(name)")
        }
    }

    /// Inserts an object without recording field types, as a class without a schema would hold values of
    /// several types in one field.
    static func insertUntyped(_ driver: StorageConformanceDriver, _ className: String, _ fields: JSON, id: String) async throws {
        let object = StoredObject(
            className: className, objectId: id, createdAt: StorageConformanceDriver.baseTime, updatedAt: StorageConformanceDriver.baseTime,
            acl: nil, fields: fields.objectValue ?? [:]
        )
        let command = WriteCommand.insert(WriteCommand.Insert(
            object: object, relations: [], newFields: [:], maximumSize: StorageConformanceDriver.defaultMaximumSize
        ))
        try verifySuccess(try await driver.perform(command), "inserting \(className)/\(id)")
    }
}
