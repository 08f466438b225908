import Cirrus
import CirrusTesting
import Foundation
import Testing

/// LCQuery against an in-process server over HTTP, on a small set of todos.
@Suite("Queries on a live server")
struct QueryLiveTests {
    /// name, priority, tags, isComplete, location (latitude, longitude), optional image.
    static let rows: [(String, Int, [String], Bool, (Double, Double), Bool)] = [
        ("lunch with Linda", 1, ["work", "sales"], false, (39.9, 116.4), true),
        ("Lunch at KFC", 2, ["food"], true, (31.2, 121.5), false),
        ("buy tickets", 3, ["travel", "work"], false, (22.5, 114.1), true),
        ("write weekly report", 2, ["work", "sales", "appointment"], true, (39.95, 116.3), false),
        ("call mom", 4, [], false, (-33.9, 151.2), false),
    ]

    /// Saves the rows as Todo objects with one batch.
    static func seed(_ application: LCApplication) async throws {
        let todos = try rows.map { row in
            let todo = LCObject(application: application, className: "Todo")
            try todo.set("title", value: row.0)
            try todo.set("priority", value: row.1)
            try todo.set("tags", value: row.2)
            try todo.set("isComplete", value: row.3)
            try todo.set("location", value: LCGeoPoint(latitude: row.4.0, longitude: row.4.1))
            if row.5 { try todo.set("image", value: "img.png") }
            return todo
        }
        try await LCObject.save(todos)
    }

    /// Constraints and the titles they find.
    static let cases: [(String, [(String, LCQuery.Constraint)], Set<String>)] = [
        ("equalTo", [("priority", .equalTo(2))], ["Lunch at KFC", "write weekly report"]),
        ("notEqualTo", [("priority", .notEqualTo(2))], ["lunch with Linda", "buy tickets", "call mom"]),
        ("a range of two conditions", [("priority", .greaterThan(1)), ("priority", .lessThanOrEqualTo(3))],
         ["Lunch at KFC", "buy tickets", "write weekly report"]),
        ("lessThan", [("priority", .lessThan(2))], ["lunch with Linda"]),
        ("greaterThanOrEqualTo", [("priority", .greaterThanOrEqualTo(3))], ["buy tickets", "call mom"]),
        ("containedIn", [("priority", .containedIn([1, 4]))], ["lunch with Linda", "call mom"]),
        ("notContainedIn", [("priority", .notContainedIn([1, 2, 3]))], ["call mom"]),
        ("an array holding an element", [("tags", .equalTo("work"))], ["lunch with Linda", "buy tickets", "write weekly report"]),
        ("containedAllIn", [("tags", .containedAllIn(["work", "sales"]))], ["lunch with Linda", "write weekly report"]),
        ("equalToSize", [("tags", .equalToSize(3))], ["write weekly report"]),
        ("existed", [("image", .existed)], ["lunch with Linda", "buy tickets"]),
        ("notExisted", [("image", .notExisted)], ["Lunch at KFC", "write weekly report", "call mom"]),
        ("prefixedBy is case-sensitive", [("title", .prefixedBy("lunch"))], ["lunch with Linda"]),
        ("suffixedBy", [("title", .suffixedBy("report"))], ["write weekly report"]),
        ("matchedSubstring", [("title", .matchedSubstring("unch"))], ["lunch with Linda", "Lunch at KFC"]),
        ("matchedRegularExpression without ticket, case-insensitive", [("title", .matchedRegularExpression("^((?!TICKET).)*$", option: "i"))],
         ["lunch with Linda", "Lunch at KFC", "write weekly report", "call mom"]),
        ("a boolean", [("isComplete", .equalTo(true))], ["Lunch at KFC", "write weekly report"]),
        ("locatedWithin a box", [("location", .locatedWithin(southwest: LCGeoPoint(latitude: 30, longitude: 115),
                                                            northeast: LCGeoPoint(latitude: 40, longitude: 118)))],
         ["lunch with Linda", "write weekly report"]),
        ("locatedNear within 100 km", [("location", .locatedNear(LCGeoPoint(latitude: 39.9, longitude: 116.4), to: .init(value: 100, unit: .kilometer)))],
         ["lunch with Linda", "write weekly report"]),
        ("createdAt between two dates", [("createdAt", .greaterThanOrEqualTo(Date(timeIntervalSinceNow: -86_400))),
                                         ("createdAt", .lessThan(Date(timeIntervalSinceNow: 86_400)))],
         ["lunch with Linda", "Lunch at KFC", "buy tickets", "write weekly report", "call mom"]),
        ("createdAt in the future", [("createdAt", .greaterThan(Date(timeIntervalSinceNow: 86_400)))], []),
        ("locatedNear beyond 100 km", [("location", .locatedNear(LCGeoPoint(latitude: 39.9, longitude: 116.4), from: .init(value: 100, unit: .kilometer)))],
         ["Lunch at KFC", "buy tickets", "call mom"]),
        ("locatedNear within 0.02 radians", [("location", .locatedNear(LCGeoPoint(latitude: 39.9, longitude: 116.4), to: .init(value: 0.02, unit: .radian)))],
         ["lunch with Linda", "write weekly report"]),
    ]

    @Test("each constraint finds the todos it describes")
    func constraints() async throws {
        try await withLiveApp { application, _ in
            try await Self.seed(application)
            for (name, constraints, expected) in Self.cases {
                let query = LCQuery(application: application, className: "Todo")
                for (key, constraint) in constraints { query.whereKey(key, constraint) }
                let titles = Set(try await query.find().compactMap { $0.get("title")?.stringValue })
                #expect(titles == expected, "\(name)")
                #expect(try await query.count() == expected.count, "\(name)")
            }
        }
    }

    @Test("order, limit and skip page through the results")
    func paging() async throws {
        try await withLiveApp { application, _ in
            try await Self.seed(application)
            let query = LCQuery(application: application, className: "Todo")
            query.whereKey("priority", .descending)
            query.whereKey("title", .ascending)
            query.limit = 2
            query.skip = 1
            let titles = try await query.find().compactMap { $0.get("title")?.stringValue }
            #expect(titles == ["buy tickets", "Lunch at KFC"])
            let near = LCQuery(application: application, className: "Todo")
            near.whereKey("location", .locatedNear(LCGeoPoint(latitude: 39.9, longitude: 116.4)))
            near.limit = 2
            #expect(try await near.find().compactMap { $0.get("title")?.stringValue } == ["lunch with Linda", "write weekly report"])
        }
    }

    @Test("selected keys leave the others out; getFirst reads one object")
    func selected() async throws {
        try await withLiveApp { application, _ in
            try await Self.seed(application)
            let query = LCQuery(application: application, className: "Todo")
            query.whereKey("title", .selected)
            query.whereKey("priority", .equalTo(4))
            let todo = try await query.getFirst()
            #expect(todo.get("title")?.stringValue == "call mom")
            #expect(todo.get("tags") == nil)
            #expect(todo.objectId != nil && todo.createdAt != nil)
            let none = LCQuery(application: application, className: "Todo")
            none.whereKey("priority", .equalTo(99))
            let error = try await #require(throws: LCError.self) { try await none.getFirst() }
            #expect(error.code == 101)
        }
    }

    @Test("or and and combine queries")
    func compound() async throws {
        try await withLiveApp { application, _ in
            try await Self.seed(application)
            let priority = LCQuery(application: application, className: "Todo")
            priority.whereKey("priority", .greaterThanOrEqualTo(3))
            let complete = LCQuery(application: application, className: "Todo")
            complete.whereKey("isComplete", .equalTo(true))
            let either = Set(try await priority.or(complete).find().compactMap { $0.get("title")?.stringValue })
            #expect(either == ["buy tickets", "call mom", "Lunch at KFC", "write weekly report"])
            let work = LCQuery(application: application, className: "Todo")
            work.whereKey("tags", .equalTo("work"))
            let both = try await priority.or(complete).and(work).find().compactMap { $0.get("title")?.stringValue }
            #expect(Set(both) == ["buy tickets", "write weekly report"])
        }
    }

    @Test("inner queries match pointers to the objects they find")
    func innerQueries() async throws {
        try await withLiveApp { application, _ in
            let withImage = LCObject(application: application, className: "Post")
            try withImage.set("image", value: "a.png")
            let without = LCObject(application: application, className: "Post")
            try without.set("title", value: "plain")
            let comments = try [withImage, without, withImage].enumerated().map { index, post in
                let comment = LCObject(application: application, className: "Comment")
                try comment.set("post", value: post)
                try comment.set("index", value: index)
                return comment
            }
            try await LCObject.save(comments)
            let inner = LCQuery(application: application, className: "Post")
            inner.whereKey("image", .existed)
            let matched = LCQuery(application: application, className: "Comment")
            matched.whereKey("post", .matchedQuery(inner))
            #expect(Set(try await matched.find().compactMap { $0.get("index")?.intValue }) == [0, 2])
            let unmatched = LCQuery(application: application, className: "Comment")
            unmatched.whereKey("post", .notMatchedQuery(inner))
            #expect(try await unmatched.find().compactMap { $0.get("index")?.intValue } == [1])
        }
    }

    @Test("get of a missing id fails with 101")
    func missing() async throws {
        try await withLiveApp { application, _ in
            try await Self.seed(application)
            let error = try await #require(throws: LCError.self) {
                try await LCQuery(application: application, className: "Todo").get("582570f38ac247004f39c24b")
            }
            #expect(error.code == 101)
        }
    }
}
