// Seed 000 (the LeanCloud Swift guide), section "Queries": L320–L544.
//
// Each sample is copied as written between `// ---- seed Lx–Ly` and `// ---- end`, indented but otherwise unchanged,
// and runs against an in-process Cirrus server over HTTP with `LCApplication.default` pointing at it. The guide's
// one-line constraints (L342, L345–351, L375–383, L421–423, L482) apply to a `query` it declares elsewhere: the test
// declares it just before, runs the line, then finds what it matches. Where the guide lists alternatives for one
// key (`.lessThan` … `.greaterThanOrEqualTo`, `.ascending` and `.descending`, `.existed` and `.notExisted`), each
// line runs on a query of its own, as the guide means them. Samples that only build a query (L404–416, L456–459,
// L501–505, L509–536) are followed by a `find()` of it. Objects the guide's prose describes are stored first, with
// their `createdAt` set where a sample queries by creation time.
//
// Changes to the seed's text in this file:
// - L427–438: the sample declares `let priorityOneOrTwo` twice in one scope (L427 and L438), which Swift refuses
//   ("invalid redeclaration"): it shows two alternatives ("Single query … vs. … Multiple queries"). Change: each
//   alternative is wrapped in a `do { … }` block of its own (L426–429 and L433–438); no line of the seed is edited.
import Cirrus
import CirrusModel
import Foundation
import Testing

extension SeedSamples {
    @Suite("Queries (seed 000 L320–544)")
    struct Queries {
        /// The values of `key` of `objects`, as strings (numbers too), sorted unless `ordered` (the results of a query
        /// without an order come in no defined order).
        static func values(_ objects: [LCObject], _ key: String, ordered: Bool = false) -> [String] {
            let values = objects.map { object in
                let value = object.get(key)
                return value?.stringValue ?? value?.intValue.map(String.init) ?? "-"
            }
            return ordered ? values : values.sorted()
        }

        /// The ids of `objects`, sorted.
        static func ids(_ objects: [LCObject]) -> [String] {
            objects.compactMap { $0.objectId?.value }.sorted()
        }

        /// Stores objects of `className` with these fields, ids `<prefix>0`, `<prefix>1`, …, created a minute apart
        /// from 2020-01-01 on.
        static func insert(_ server: SeedServer, _ className: String, _ rows: [[String: JSON]]) async throws {
            for (index, fields) in rows.enumerated() {
                try await server.insert(
                    className, objectId: "\(className.lowercased())\(index)",
                    createdAt: Date(timeIntervalSince1970: 1_577_836_800 + Double(index) * 60), fields
                )
            }
        }

        /// Seed 000 L322–338.
        @Test("a query for lastName equal to Smith finds the two Smiths (L328–338)")
        func basic() async throws {
            try await withSeedServer { server in
                try await Self.insert(server, "Student", [["lastName": "Smith"], ["lastName": "Jones"], ["lastName": "Smith"]])
                let results = try await server.run {
                    // ---- seed L328–338
                    let query = LCQuery(className: "Student")
                    query.whereKey("lastName", .equalTo("Smith"))
                    _ = query.find { result in
                        switch result {
                        case .success(objects: let students):
                            // students is an array of Student objects satisfying conditions
                            break
                        case .failure(error: let error):
                            print(error)
                        }
                    }
                    // ---- end
                }
                let students = try #require(results.first?.objects)
                #expect(Self.ids(students) == ["student0", "student2"])
                #expect(Self.values(students, "lastName") == ["Smith", "Smith"])
            }
        }

        /// Seed 000 L339–342.
        @Test(".notEqualTo filters out the students named Jack (L342)")
        func notEqualTo() async throws {
            try await withSeedServer { server in
                try await Self.insert(server, "Student", [["firstName": "Jack"], ["firstName": "Jill"], ["firstName": "Bob"]])
                let query = LCQuery(className: "Student")
                // ---- seed L342
                query.whereKey("firstName", .notEqualTo("Jack"))
                // ---- end
                #expect(Self.values(try await query.find(), "firstName") == ["Bob", "Jill"])
            }
        }

        /// Seed 000 L343–351.
        @Test("each comparison restricts ages as its comment says (L344–351)")
        func comparisons() async throws {
            try await withSeedServer { server in
                try await Self.insert(server, "Student", [["age": 17], ["age": 18], ["age": 19]])
                do {
                    let query = LCQuery(className: "Student")
                    // ---- seed L344–345
                    // Restricts to age < 18
                    query.whereKey("age", .lessThan(18));
                    // ---- end
                    #expect(Self.values(try await query.find(), "age") == ["17"])
                }
                do {
                    let query = LCQuery(className: "Student")
                    // ---- seed L346–347
                    // Restricts to age <= 18
                    query.whereKey("age", .lessThanOrEqualTo(18));
                    // ---- end
                    #expect(Self.values(try await query.find(), "age") == ["17", "18"])
                }
                do {
                    let query = LCQuery(className: "Student")
                    // ---- seed L348–349
                    // Restricts to age > 18
                    query.whereKey("age", .greaterThan(18));
                    // ---- end
                    #expect(Self.values(try await query.find(), "age") == ["19"])
                }
                do {
                    let query = LCQuery(className: "Student")
                    // ---- seed L350–351
                    // Restricts to age >= 18
                    query.whereKey("age", .greaterThanOrEqualTo(18));
                    // ---- end
                    #expect(Self.values(try await query.find(), "age") == ["18", "19"])
                }
            }
        }

        /// Seed 000 L353–356.
        @Test("limit = 10 returns 10 of 12 objects (L354–355)")
        func limit() async throws {
            try await withSeedServer { server in
                try await Self.insert(server, "Todo", (0..<12).map { ["priority": .int(Int64($0))] })
                let query = LCQuery(className: "Todo")
                // ---- seed L354–355
                // Limit to at most 10 results
                query.limit = 10
                // ---- end
                #expect(try await query.find().count == 10)
                #expect(server.exchanges.all.last?.parameters["limit"] == "10")
            }
        }

        /// Seed 000 L357–367.
        @Test("getFirst returns the one Todo of priority 2 (L358–367)")
        func getFirst() async throws {
            try await withSeedServer { server in
                try await Self.insert(server, "Todo", [["priority": 1], ["priority": 2], ["priority": 3]])
                let results = try await server.run {
                    // ---- seed L358–367
                    let query = LCQuery(className: "Todo")
                    query.whereKey("priority", .equalTo(2))
                    _ = query.getFirst { result in
                        switch result {
                        case .success(object: let todo):
                            print(todo)
                        case .failure(error: let error):
                            print(error)
                        }
                    }
                    // ---- end
                }
                let todo = try #require(results.first?.object)
                #expect(todo.objectId?.value == "todo1")
                #expect(server.exchanges.all.first?.parameters["limit"] == "1")
            }
        }

        /// Seed 000 L368–372.
        @Test("skip = 20 skips the first 20 of 25 objects (L369–370)")
        func skip() async throws {
            try await withSeedServer { server in
                try await Self.insert(server, "Todo", (0..<25).map { ["priority": .int(Int64($0))] })
                let query = LCQuery(className: "Todo")
                // ---- seed L369–370
                // Skip the first 20 results
                query.skip = 20
                // ---- end
                query.whereKey("createdAt", .ascending)
                #expect(Self.values(try await query.find(), "priority", ordered: true) == ["20", "21", "22", "23", "24"])
            }
        }

        /// Seed 000 L373–377.
        @Test(".ascending and .descending order the results by createdAt (L374–377)")
        func ordering() async throws {
            try await withSeedServer { server in
                try await Self.insert(server, "Todo", [["title": "first"], ["title": "second"], ["title": "third"]])
                do {
                    let query = LCQuery(className: "Todo")
                    // ---- seed L374–375
                    // Sorts the results in ascending order by the createdAt property
                    query.whereKey("createdAt", .ascending)
                    // ---- end
                    #expect(Self.values(try await query.find(), "title", ordered: true) == ["first", "second", "third"])
                }
                do {
                    let query = LCQuery(className: "Todo")
                    // ---- seed L376–377
                    // Sorts the results in descending order by the createdAt property
                    query.whereKey("createdAt", .descending)
                    // ---- end
                    #expect(Self.values(try await query.find(), "title", ordered: true) == ["third", "second", "first"])
                }
            }
        }

        /// Seed 000 L379–383.
        @Test(".existed and .notExisted find the objects that have, or lack, images (L380–383)")
        func existence() async throws {
            try await withSeedServer { server in
                try await Self.insert(server, "Post", [["title": "with", "images": ["a.png"]], ["title": "without"]])
                do {
                    let query = LCQuery(className: "Post")
                    // ---- seed L380–381
                    // Finds objects that have the "images" field
                    query.whereKey("images", .existed)
                    // ---- end
                    #expect(Self.values(try await query.find(), "title") == ["with"])
                }
                do {
                    let query = LCQuery(className: "Post")
                    // ---- seed L382–383
                    // Finds objects that don't have the "images" field
                    query.whereKey("images", .notExisted)
                    // ---- end
                    #expect(Self.values(try await query.find(), "title") == ["without"])
                }
            }
        }

        /// Seed 000 L384–401.
        @Test(".selected returns only title and content, besides the built-in fields (L385–397)")
        func selected() async throws {
            try await withSeedServer { server in
                try await Self.insert(server, "Todo", [["title": "t", "content": "c", "notes": "n"]])
                let results = try await server.run {
                    // ---- seed L385–397
                    let query = LCQuery(className: "Todo")
                    query.whereKey("title", .selected)
                    query.whereKey("content", .selected)
                    _ = query.getFirst { result in
                        switch result {
                        case .success(object: let todo):
                            let title = todo.get("title") // √
                            let content = todo.get("content") // √
                            let notes = todo.get("notes") // nil
                        case .failure(error: let error):
                            print(error)
                        }
                    }
                    // ---- end
                }
                let todo = try #require(results.first?.object)
                #expect(todo.get("title")?.stringValue == "t")
                #expect(todo.get("content")?.stringValue == "c")
                #expect(todo.get("notes") == nil)
                #expect(todo.objectId != nil && todo.createdAt != nil && todo.updatedAt != nil)
                #expect(server.exchanges.all.first?.parameters["keys"] == "title,content")
            }
        }

        /// Seed 000 L402–412.
        @Test(".prefixedBy and .matchedSubstring match lunch case-sensitively (L404–410, L412)")
        func strings() async throws {
            try await withSeedServer { server in
                try await Self.insert(
                    server, "Todo",
                    [["title": "lunch with Bob"], ["title": "Lunch at noon"], ["title": "team lunch"], ["title": "LUNCH"], ["title": "dinner"]]
                )
                do {
                    // ---- seed L404–406
                    let query = LCQuery(className: "Todo")
                    // SQL equivalent: title LIKE 'lunch%'
                    query.whereKey("title", .prefixedBy("lunch"))
                    // ---- end
                    #expect(Self.values(try await query.find(), "title") == ["lunch with Bob"])
                }
                do {
                    // ---- seed L408–410
                    let query = LCQuery(className: "Todo")
                    // SQL equivalent: title LIKE '%lunch%'
                    query.whereKey("title", .matchedSubstring("lunch"))
                    // ---- end
                    #expect(Self.values(try await query.find(), "title") == ["lunch with Bob", "team lunch"])
                }
            }
        }

        /// Seed 000 L413–416.
        @Test("a case-insensitive regular expression finds the titles without ticket (L414–416)")
        func regularExpression() async throws {
            try await withSeedServer { server in
                try await Self.insert(server, "Todo", [["title": "Buy a Ticket"], ["title": "fix the bug"], ["title": "TICKETS"], ["title": "lunch"]])
                // ---- seed L414–416
                let query = LCQuery(className: "Todo")
                // "title" without "ticket" (case-insensitive)
                query.whereKey("title", .matchedRegularExpression("^((?!ticket).)*$", option: "i"))
                // ---- end
                #expect(Self.values(try await query.find(), "title") == ["fix the bug", "lunch"])
            }
        }

        /// Seed 000 L419–424.
        @Test(".equalTo finds arrays holding work and .equalToSize arrays of three elements (L421, L423)")
        func arrays() async throws {
            try await withSeedServer { server in
                try await Self.insert(
                    server, "Todo",
                    [["tags": ["work", "sales"]], ["tags": ["home"]], ["tags": ["work", "sales", "appointment"]], ["tags": ["a", "b", "c"]]]
                )
                do {
                    let query = LCQuery(className: "Todo")
                    // ---- seed L421
                    query.whereKey("tags", .equalTo("work"))
                    // ---- end
                    #expect(Self.ids(try await query.find()) == ["todo0", "todo2"])
                }
                do {
                    let query = LCQuery(className: "Todo")
                    // ---- seed L423
                    query.whereKey("tags", .equalToSize(3))
                    // ---- end
                    #expect(Self.ids(try await query.find()) == ["todo2", "todo3"])
                }
            }
        }

        /// Seed 000 L425–440.
        @Test(".containedIn([1, 2]) and the OR of two equalTo queries find the same todos of priority 1 or 2 (L426–439)")
        func containedIn() async throws {
            try await withSeedServer { server in
                try await Self.insert(server, "Todo", [["priority": 1], ["priority": 2], ["priority": 3], ["priority": 2]])
                do {
                    // ---- seed L426–429
                    // Single query
                    let priorityOneOrTwo = LCQuery(className: "Todo")
                    priorityOneOrTwo.whereKey("priority", .containedIn([1, 2]))
                    // Mission completed :)
                    // ---- end
                    #expect(Self.values(try await priorityOneOrTwo.find(), "priority") == ["1", "2", "2"])
                }
                // ---- seed L430–432
                // ---------------
                // vs.
                // ---------------
                // ---- end
                do {
                    // ---- seed L433–439
                    // Multiple queries
                    let priorityOne = LCQuery(className: "Todo")
                    priorityOne.whereKey("priority", .equalTo(1))
                    let priorityTwo = LCQuery(className: "Todo")
                    priorityTwo.whereKey("priority", .equalTo(2))
                    let priorityOneOrTwo = priorityOne.or(priorityTwo)
                    // Kind of verbose :(
                    // ---- end
                    #expect(Self.values(try await priorityOneOrTwo.find(), "priority") == ["1", "2", "2"])
                }
                // "Conversely, you can use .notContainedIn" (L440).
                let others = LCQuery(className: "Todo")
                others.whereKey("priority", .notContainedIn([1, 2]))
                #expect(Self.values(try await others.find(), "priority") == ["3"])
            }
        }

        /// Stores the post 57328ca079bc44005c2472d0 (with an image), another post without one, and comments on each.
        static func insertPostsAndComments(_ server: SeedServer, author: LCUser? = nil) async throws {
            var fields: [String: JSON] = ["title": "I am starving!", "image": "lunch.png"]
            if let id = author?.objectId?.value { fields["author"] = ["__type": "Pointer", "className": "_User", "objectId": .string(id)] }
            try await server.insert("Post", objectId: "57328ca079bc44005c2472d0", createdAt: Date(timeIntervalSince1970: 1_577_836_800), fields)
            try await server.insert("Post", objectId: "otherpost", createdAt: Date(timeIntervalSince1970: 1_577_836_860), ["title": "no image"])
            for (index, (post, content)) in [("57328ca079bc44005c2472d0", "KFC is the best!"), ("otherpost", "Nice"), ("57328ca079bc44005c2472d0", "Pizza")]
                .enumerated()
            {
                try await server.insert(
                    "Comment", objectId: "comment\(index)", createdAt: Date(timeIntervalSince1970: 1_577_836_920 + Double(index) * 60),
                    ["content": .string(content), "post": ["__type": "Pointer", "className": "Post", "objectId": .string(post)]]
                )
            }
        }

        /// Seed 000 L441–454.
        @Test(".equalTo(post) finds the comments of that post (L443–454)")
        func relationalEqualTo() async throws {
            try await withSeedServer { server in
                try await Self.insertPostsAndComments(server)
                let results = try await server.run {
                    // ---- seed L443–454
                    let post = LCObject(className: "Post", objectId: "57328ca079bc44005c2472d0")
                    let query = LCQuery(className: "Comment")
                    query.whereKey("post", .equalTo(post))
                    _ = query.find { result in
                        switch result {
                        case .success(objects: let comments):
                            // comments contains the comments for the post
                            break
                        case .failure(error: let error):
                            print(error)
                        }
                    }
                    // ---- end
                }
                #expect(Self.values(try #require(results.first?.objects), "content") == ["KFC is the best!", "Pizza"])
            }
        }

        /// Seed 000 L455–460.
        @Test(".matchedQuery finds the comments of posts with images; .notMatchedQuery the others (L456–460)")
        func matchedQuery() async throws {
            try await withSeedServer { server in
                try await Self.insertPostsAndComments(server)
                // ---- seed L456–459
                let innerQuery = LCQuery(className: "Post")
                innerQuery.whereKey("image", .existed)
                let query = LCQuery(className: "Comment")
                query.whereKey("post", .matchedQuery(innerQuery))
                // ---- end
                #expect(Self.values(try await query.find(), "content") == ["KFC is the best!", "Pizza"])
                // "To retrieve objects whose given field does not contain LCObject that matches a different query, use
                // .notMatchedQuery instead." (L460)
                let others = LCQuery(className: "Comment")
                others.whereKey("post", .notMatchedQuery(innerQuery))
                #expect(Self.values(try await others.find(), "content") == ["Nice"])
            }
        }

        /// Seed 000 L461–480.
        @Test("the last 10 comments come with their posts included, readable without a request (L462–480)")
        func included() async throws {
            try await withSeedServer { server in
                try await Self.insertPostsAndComments(server)
                let results = try await server.run {
                    // ---- seed L462–480
                    let query = LCQuery(className: "Comment")
                    // Retrieve the most recent ones
                    query.whereKey("createdAt", .descending)
                    // Only retrieve the last 10
                    query.limit = 10
                    // Include the related post together with each comment
                    query.whereKey("post", .included)
                    _ = query.find { result in
                        switch result {
                        case .success(objects: let comments):
                            // comments contains the last 10 comments including the post associated with each
                            for comment in comments {
                                // This does not require a network access
                                let post = comment.get("post") as? LCObject
                            }
                        case .failure(error: let error):
                            print(error)
                        }
                    }
                    // ---- end
                }
                let comments = try #require(results.first?.objects)
                #expect(Self.values(comments, "content", ordered: true) == ["Pizza", "Nice", "KFC is the best!"])
                let posts = comments.map { $0.get("post") as? LCObject }
                #expect(posts.map { $0?.get("title")?.stringValue } == ["I am starving!", "no image", "I am starving!"])
                #expect(server.exchanges.all.count == 1)
                #expect(server.exchanges.all.first?.parameters["include"] == "post")
                #expect(server.exchanges.all.first?.parameters["order"] == "-createdAt")
            }
        }

        /// Seed 000 L481–484.
        @Test(".included with a dot path includes the post and the post's author (L482)")
        func includedPath() async throws {
            try await withSeedServer { server in
                let author = LCUser()
                author.username = "Tom"
                author.password = "cat!@#123"
                try await author.signUp()
                try await Self.insertPostsAndComments(server, author: author)
                let query = LCQuery(className: "Comment")
                // ---- seed L482
                query.whereKey("post.author", .included)
                // ---- end
                let comment = try await query.get("comment0")
                let post = try #require(comment.get("post") as? LCObject)
                let user = try #require(post.get("author") as? LCUser)
                #expect(post.get("title")?.stringValue == "I am starving!")
                #expect(user.username?.value == "Tom")
            }
        }

        /// Seed 000 L491–495.
        @Test("count() counts the completed todos without retrieving them (L493–495)")
        func count() async throws {
            try await withSeedServer { server in
                try await Self.insert(server, "Todo", [["isComplete": true], ["isComplete": false], ["isComplete": true]])
                let results = try await server.run {
                    // ---- seed L493–495
                    let query = LCQuery(className: "Todo")
                    query.whereKey("isComplete", .equalTo(true))
                    let count = query.count()
                    // ---- end
                }
                #expect(results.map(\.count) == [2])
                #expect(server.exchanges.all.first?.parameters["count"] == "1")
                #expect(server.exchanges.all.first?.parameters["limit"] == "0")
            }
        }

        /// Seed 000 L499–506.
        @Test("the OR of two queries finds todos of priority 3 or more, or completed (L501–505)")
        func orQuery() async throws {
            try await withSeedServer { server in
                try await Self.insert(
                    server, "Todo",
                    [["priority": 3, "isComplete": false], ["priority": 1, "isComplete": true], ["priority": 1, "isComplete": false], ["priority": 4]]
                )
                // ---- seed L501–505
                let priorityQuery = LCQuery(className: "Todo")
                priorityQuery.whereKey("priority", .greaterThanOrEqualTo(3))
                let isCompleteQuery = LCQuery(className: "Todo")
                isCompleteQuery.whereKey("isComplete", .equalTo(true))
                let query = priorityQuery.or(isCompleteQuery)
                // ---- end
                #expect(Self.ids(try await query.find()) == ["todo0", "todo1", "todo3"])
            }
        }

        /// A moment of a day, UTC.
        static func day(_ text: String, hour: Int = 12) -> Date {
            var components = DateComponents()
            let parts = text.split(separator: "-").compactMap { Int($0) }
            (components.year, components.month, components.day, components.hour) = (parts[0], parts[1], parts[2], hour)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            return calendar.date(from: components)!
        }

        /// Seed 000 L507–518.
        @Test("the AND of two date queries finds the todos created from 2016-11-13 to 2016-12-02 (L509–518)")
        func andQuery() async throws {
            try await withSeedServer { server in
                for (id, date) in [("before", "2016-11-10"), ("first", "2016-11-20"), ("last", "2016-12-01"), ("after", "2016-12-05")] {
                    try await server.insert("Todo", objectId: id, createdAt: Self.day(date), ["title": .string(id)])
                }
                // ---- seed L509–518
                let dateFromString: (String) -> Date? = { string in
                    let dateFormatter = DateFormatter()
                    dateFormatter.dateFormat = "yyyy-MM-dd"
                    return dateFormatter.date(from: string)
                }
                let startDateQuery = LCQuery(className: "Todo")
                startDateQuery.whereKey("createdAt", .greaterThanOrEqualTo(dateFromString("2016-11-13")))
                let endDateQuery = LCQuery(className: "Todo")
                endDateQuery.whereKey("createdAt", .lessThan(dateFromString("2016-12-03")))
                let query = startDateQuery.and(endDateQuery)
                // ---- end
                #expect(Self.values(try await query.find(), "title") == ["first", "last"])
            }
        }

        /// Seed 000 L519–536.
        @Test("the AND of two OR queries finds todos of priority 2 or 3 created on 2018-04-30 or without a location (L520–536)")
        func andOfOrs() async throws {
            try await withSeedServer { server in
                let location: JSON = ["__type": "GeoPoint", "latitude": 39.9, "longitude": 116.4]
                let rows: [(String, Date, [String: JSON])] = [
                    ("onTheDay", Self.day("2018-04-30"), ["priority": 2, "location": location]),
                    ("noLocation", Self.day("2020-01-01"), ["priority": 3]),
                    ("neither", Self.day("2020-01-01"), ["priority": 2, "location": location]),
                    ("priorityOne", Self.day("2018-04-30"), ["priority": 1]),
                ]
                for (id, date, fields) in rows {
                    try await server.insert("Todo", objectId: id, createdAt: date, fields)
                }
                // ---- seed L520–536
                let dateFromString: (String) -> Date? = { string in
                    let dateFormatter = DateFormatter()
                    dateFormatter.dateFormat = "yyyy-MM-dd"
                    return dateFormatter.date(from: string)
                }
                let createdAtQuery = LCQuery(className: "Todo")
                createdAtQuery.whereKey("createdAt", .greaterThanOrEqualTo(dateFromString("2018-04-30")))
                createdAtQuery.whereKey("createdAt", .lessThan(dateFromString("2018-05-01")))
                let locationQuery = LCQuery(className: "Todo")
                locationQuery.whereKey("location", .notExisted)
                let priority2Query = LCQuery(className: "Todo")
                priority2Query.whereKey("priority", .equalTo(2))
                let priority3Query = LCQuery(className: "Todo")
                priority3Query.whereKey("priority", .equalTo(3))
                let priorityQuery = priority2Query.or(priority3Query)
                let timeLocationQuery = locationQuery.or(createdAtQuery)
                let query = priorityQuery.and(timeLocationQuery)
                // ---- end
                #expect(Self.ids(try await query.find()) == ["noLocation", "onTheDay"])
            }
        }
    }
}
