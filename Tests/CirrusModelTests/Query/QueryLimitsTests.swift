import CirrusModel
import Foundation
import Testing

@Suite("Query limits: each bound refuses one past it and accepts it exactly")
struct QueryLimitsTests {
    static let limits = QueryLimits(
        maximumConditions: 4, maximumListValues: 3, maximumConditionDepth: 3, maximumSubqueryDepth: 2, maximumOrderKeys: 2, maximumKeys: 3,
        maximumIncludeDepth: 2, maximumIncludedObjects: 10, maximumRegexLength: 5, regexBudgetMilliseconds: 50
    )

    struct Case: Sendable, CustomTestStringConvertible {
        let label: String
        let whereJSON: String
        let refused: Bool
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(label: "4 conditions", whereJSON: #"{"a":1,"b":2,"c":3,"d":4}"#, refused: false),
        Case(label: "5 conditions", whereJSON: #"{"a":1,"b":2,"c":3,"d":4,"e":5}"#, refused: true),
        Case(label: "operators of one field count one each", whereJSON: #"{"a":{"$gt":1,"$lt":5,"$ne":3},"b":1,"c":2}"#, refused: true),
        Case(label: "conditions inside $or count", whereJSON: #"{"$or":[{"a":1,"b":2},{"c":3,"d":4}],"e":5}"#, refused: true),
        Case(label: "conditions inside a sub-query count", whereJSON: #"{"p":{"$inQuery":{"className":"C","where":{"a":1,"b":2,"c":3,"d":4}}}}"#, refused: true),
        Case(label: "$in with 3 values", whereJSON: #"{"a":{"$in":[1,2,3]}}"#, refused: false),
        Case(label: "$in with 4 values", whereJSON: #"{"a":{"$in":[1,2,3,4]}}"#, refused: true),
        Case(label: "$nin with 4 values", whereJSON: #"{"a":{"$nin":[1,2,3,4]}}"#, refused: true),
        Case(label: "$all with 4 values", whereJSON: #"{"a":{"$all":[1,2,3,4]}}"#, refused: true),
        Case(label: "$or nested three times", whereJSON: #"{"$or":[{"$or":[{"$or":[{"a":1},{"b":1}]},{"c":1}]},{"d":1}]}"#, refused: false),
        Case(label: "$or nested four times", whereJSON: #"{"$or":[{"$or":[{"$or":[{"$or":[{"a":1},{"b":1}]},{"c":1}]},{"d":1}]},{"e":1}]}"#, refused: true),
        Case(label: "sub-queries nested twice", whereJSON: #"{"p":{"$inQuery":{"className":"C","where":{"q":{"$inQuery":{"className":"D","where":{}}}}}}}"#, refused: false),
        Case(
            label: "sub-queries nested three times",
            whereJSON: #"{"p":{"$inQuery":{"className":"C","where":{"q":{"$select":{"query":{"className":"D","where":{"r":{"$inQuery":{"className":"E","where":{}}}}},"key":"k"}}}}}}"#,
            refused: true
        ),
        Case(label: "a pattern of 5 characters", whereJSON: #"{"a":{"$regex":"^abcd"}}"#, refused: false),
        Case(label: "a pattern of 6 characters", whereJSON: #"{"a":{"$regex":"^abcde"}}"#, refused: true),
    ]

    @Test("a where is checked as it is decoded", arguments: cases)
    func whereLimits(_ row: Case) throws {
        let json = try JSONParser.parse(row.whereJSON)
        let options = ConditionOptions(limits: Self.limits)
        if row.refused {
            #expect { try Condition(where: json, options: options) } throws: { ($0 as? APIError)?.reason == .queryTooComplex }
        } else {
            _ = try Condition(where: json, options: options)
        }
    }

    @Test("order, keys and include of a find are checked; repeated order keys count once")
    func findLimits() throws {
        let order = try SortKey.parseList("a,-a,+b,a,-b")
        #expect(order == [SortKey(path: FieldPath(field: "a")), SortKey(path: FieldPath(field: "b"))])
        try Self.limits.check(Query(className: "C", order: order, keys: KeySelection(included: [FieldPath(field: "x")], excluded: [FieldPath(field: "y")]), include: [FieldPath(["a", "b"])]))
        let refused: [Query] = [
            Query(className: "C", order: try SortKey.parseList("a,b,c")),
            Query(className: "C", keys: KeySelection(included: [FieldPath(field: "x"), FieldPath(field: "y")], excluded: [FieldPath(field: "z"), FieldPath(field: "w")])),
            Query(className: "C", include: [FieldPath(["a", "b", "c"])]),
            Query(className: "C", include: ["a", "b", "c", "d"].map { FieldPath(field: $0) }),
        ]
        for query in refused {
            #expect { try Self.limits.check(query) } throws: { ($0 as? APIError)?.reason == .queryTooComplex }
        }
    }

    @Test("a backtracking pattern stops at its budget, in SQL functions and in memory alike")
    func regexBudget() throws {
        let text = String(repeating: "a", count: 1000) + "!"
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            #expect { try RegexPattern.matches(text, pattern: "(a+)+$", options: "", budgetMilliseconds: 50) } throws: {
                ($0 as? APIError)?.reason == .queryTooComplex
            }
        }
        #expect(elapsed < .seconds(2))
        #expect(try RegexPattern.matches(text, pattern: "^a+!$", options: ""))
        #expect(try !RegexPattern.matches(text, pattern: "b", options: ""))
        let zero = Timestamp(millisecondsSince1970: 0)
        let subject = ConditionSubject(className: "T", objectId: "t", createdAt: zero, updatedAt: zero, fields: ["body": .string(text)])
        let inMemory = clock.measure {
            #expect(!Condition.regex(FieldPath(field: "body"), pattern: "(a+)+$", options: "").matches(subject))
        }
        #expect(inMemory < .seconds(2))
    }

    @Test("Decrement by the smallest integer adds 2^63 as a double; sums overflow into doubles")
    func numbersAtTheEdges() throws {
        #expect(try FieldOperation(wire: ["__op": "Decrement", "amount": .int(.min)]) == .increment(.double(9_223_372_036_854_775_808)))
        #expect(try FieldOperation(wire: ["__op": "Decrement", "amount": .int(.max)]) == .increment(.int(-.max)))
        #expect(FieldOperation.increment(.int(1)).apply(to: .int(.max)) == .double(9_223_372_036_854_775_808))
        #expect(Value.double(2).equivalenceKey == .int(2))
        #expect(Value.array([.double(1), .string("x")]).equivalenceKey == Value.array([.int(1), .string("x")]))
        #expect(Value.double(0.5).equivalenceKey == .double(0.5))
    }
}
