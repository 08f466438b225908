// Seed 000 (the LeanCloud Swift guide), sections "LeanStorage" (introduction), "Data Types", "Creating Objects",
// "Saving Objects", "Retrieving Objects", "Refreshing Objects", "Updating Objects", "Updating Counters",
// "Updating Arrays", "Deleting Objects", "Batch Processing" and "Data Models": L1–L314.
//
// Each sample is copied as written between `// ---- seed Lx–Ly` and `// ---- end`, indented but otherwise unchanged,
// and runs against an in-process Cirrus server over HTTP with `LCApplication.default` pointing at it. Samples that
// are fragments (L181, L313–314) use names the guide declares elsewhere; the test declares them just before.
// Objects the guide names by id (582570f38ac247004f39c24b, 5745557f71cfe40068c6abe0, 57328ca079bc44005c2472d0) are
// stored with that id first.
//
// Changes to the seed's text in this file: none.
import Cirrus
import CirrusModel
import Foundation
import Testing

extension SeedSamples {
    @Suite("Objects (seed 000 L1–314)")
    struct Objects {
        /// Seed 000 L1–21.
        @Test("the introduction's sample saves a Todo titled R&D Weekly Meeting, which the server then holds (L1–21)")
        func introduction() async throws {
            try await withSeedServer { server in
                let results = try await server.run {
                    // ---- seed L2–21
                    do {
                        // Create an object
                        let todo = LCObject(className: "Todo")
                        // Set values of fields
                        try todo.set("title", value: "R&D Weekly Meeting")
                        try todo.set("content", value: "All team members, Tue 2pm")
                        // Save the object to the cloud
                        _ = todo.save { result in
                            switch result {
                            case .success:
                                // Execute any logic that should take place after the object is saved
                                break
                            case .failure(error: let error):
                                // Execute any logic that should take place if the save fails
                                print(error)
                            }
                        }
                    } catch {
                        print(error)
                    }
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true])
                let todos = try await server.objects("Todo")
                #expect(todos.count == 1)
                #expect(todos.first?["title"]?.stringValue == "R&D Weekly Meeting")
                #expect(todos.first?["content"]?.stringValue == "All team members, Tue 2pm")
                #expect(todos.first?["objectId"]?.stringValue?.isEmpty == false)
            }
        }

        /// Seed 000 L33–48.
        @Test("the data types of the guide are made from literals and initializers, and an object saves and reads them back (L33–48)")
        func dataTypes() async throws {
            try await withSeedServer { server in
                // ---- seed L34–48
                let number : LCNumber = 42
                let bool : LCBool = true
                let string : LCString = "foo"
                let dictionary : LCDictionary = LCDictionary(["name": string, "count": number])
                let array : LCArray = LCArray([number, bool, string])
                let data : LCData = LCData()
                let date : LCDate = LCDate()
                let null : LCNull = LCNull()
                let geoPoint : LCGeoPoint = LCGeoPoint(latitude: 45, longitude: -45)
                let acl : LCACL = LCACL()
                let object : LCObject = LCObject()
                let relation : LCRelation = object.relationForKey("elements")
                let user : LCUser = LCUser()
                let file : LCFile = LCFile()
                let installation : LCInstallation = LCInstallation()
                // ---- end
                #expect(number.value == 42)
                #expect(bool.value == true)
                #expect(string.value == "foo")
                #expect(dictionary["name"]?.stringValue == "foo" && dictionary["count"]?.intValue == 42)
                #expect(array.value.count == 3)
                #expect(data.value.isEmpty)
                #expect(abs(date.value.timeIntervalSinceNow) < 3600)
                #expect(geoPoint.latitude == 45 && geoPoint.longitude == -45)
                #expect(acl.value.isEmpty)
                #expect(object.className == "LCObject")
                #expect(relation.key == "elements")
                #expect(user.className == "_User" && file.className == "_File" && installation.className == "_Installation")

                // "LCObject supports a wide range of data types to be used for each field" (L30–32).
                let todo = LCObject(className: "Todo")
                for (key, value) in [
                    ("number", number), ("bool", bool), ("string", string), ("dictionary", dictionary), ("array", array),
                    ("data", LCData(Data([1, 2, 3]))), ("date", date), ("null", null), ("geoPoint", geoPoint),
                ] as [(String, any LCValue)] {
                    try todo.set(key, value: value)
                }
                try await todo.save()
                let id = try #require(todo.objectId?.value)
                let read = try await LCQuery(className: "Todo").get(id)
                #expect(read.get("number")?.intValue == 42)
                #expect(read.get("bool")?.boolValue == true)
                #expect(read.get("string")?.stringValue == "foo")
                #expect(read.get("dictionary")?.dictionaryValue?["count"]?.intValue == 42)
                #expect(read.get("array")?.arrayValue?.count == 3)
                #expect(read.get("data")?.dataValue == Data([1, 2, 3]))
                #expect(abs((read.get("date")?.dateValue ?? .distantPast).timeIntervalSince(date.value)) < 0.001)
                #expect(read.get("null") is LCNull)
                #expect((read.get("geoPoint") as? LCGeoPoint) == geoPoint)
                let stored = try #require(try await server.object("Todo", id))
                #expect(stored["date"]?["__type"]?.stringValue == "Date")
            }
        }

        /// Seed 000 L53–56.
        @Test("a new object has its class name and none of the built-in fields until it is saved (L55, L97)")
        func creating() async throws {
            try await withSeedServer { server in
                // ---- seed L55
                let todo = LCObject(className: "Todo")
                // ---- end
                #expect(todo.className == "Todo")
                #expect(todo.objectId == nil && todo.createdAt == nil && todo.updatedAt == nil)
                #expect(server.exchanges.all.isEmpty)
            }
        }

        /// Seed 000 L57–100.
        @Test("saving a new Todo creates the class and an object with objectId, createdAt and updatedAt (L59–78, L79–97)")
        func saving() async throws {
            try await withSeedServer { server in
                let results = try await server.run {
                    // ---- seed L59–78
                    do {
                        // Create an object
                        let todo = LCObject(className: "Todo")
                        // Set values of fields
                        try todo.set("title", value: "Sign up for Marathon")
                        try todo.set("priority", value: 2)
                        // Save the object to the cloud
                        _ = todo.save { result in
                            switch result {
                            case .success:
                                // Execute any logic that should take place after the object is saved
                                break
                            case .failure(error: let error):
                                // Execute any logic that should take place if the save fails
                                print(error)
                            }
                        }
                    } catch {
                        print(error)
                    }
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true])
                let todo = try #require(try await server.objects("Todo").first)
                #expect(todo["title"]?.stringValue == "Sign up for Marathon")
                #expect(todo["priority"]?.intValue == 2)
                #expect(todo["createdAt"]?.stringValue?.isEmpty == false && todo["updatedAt"]?.stringValue?.isEmpty == false)
                #expect(todo["objectId"]?.stringValue?.isEmpty == false)
                let (status, schema) = try await server.master("GET", "/1.1/schemas/Todo")
                #expect(status == 200)
                #expect(schema["title"]?["type"]?.stringValue == "String")
                #expect(schema["priority"]?["type"]?.stringValue == "Number")
            }
        }

        /// Seed 000 L101–119.
        @Test("getting a Todo by objectId reads its fields and built-in properties (L103–117)")
        func retrieving() async throws {
            try await withSeedServer { server in
                try await server.insert("Todo", objectId: "582570f38ac247004f39c24b", ["title": "Weekly meeting", "priority": 1])
                let results = try await server.run {
                    // ---- seed L103–117
                    let query = LCQuery(className: "Todo")
                    let _ = query.get("582570f38ac247004f39c24b") { (result) in
                        switch result {
                        case .success(object: let todo):
                            // todo is the instance of the Todo object with objectId 582570f38ac247004f39c24b
                            let title = todo.get("title")
                            let priority = todo.get("priority")
                            // Acquire special properties
                            let objectId = todo.objectId
                            let updatedAt = todo.updatedAt
                            let createdAt = todo.createdAt
                        case .failure(error: let error):
                            print(error)
                        }
                    }
                    // ---- end
                }
                let todo = try #require(results.first?.object)
                #expect(todo.objectId?.value == "582570f38ac247004f39c24b")
                #expect(todo.get("title")?.stringValue == "Weekly meeting")
                #expect(todo.get("priority")?.intValue == 1)
                #expect(todo.createdAt != nil && todo.updatedAt != nil)
                // "If you try to access a field or property that doesn't exist, the SDK … will return nil." (L119)
                #expect(todo.get("notes") == nil)
                #expect(server.exchanges.all.map(\.path) == ["/1.1/classes/Todo/582570f38ac247004f39c24b"])
            }
        }

        /// Seed 000 L120–131.
        @Test("fetch refreshes an object known by its id with the server's fields (L122–131)")
        func refreshing() async throws {
            try await withSeedServer { server in
                try await server.insert("Todo", objectId: "582570f38ac247004f39c24b", ["title": "Weekly meeting"])
                let results = try await server.run {
                    // ---- seed L122–131
                    let todo = LCObject(className: "Todo", objectId: "582570f38ac247004f39c24b")
                    _ = todo.fetch { result in
                        switch result {
                        case .success:
                            // todo is refreshed
                            break
                        case .failure(error: let error):
                            print(error)
                        }
                    }
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true])
                let exchange = try #require(server.exchanges.all.first)
                #expect(exchange.method == "GET" && exchange.path == "/1.1/classes/Todo/582570f38ac247004f39c24b")
                #expect(exchange.responseBody?["title"]?.stringValue == "Weekly meeting")
            }
        }

        /// Seed 000 L132–148.
        @Test("an update sends only the changed field and leaves the others intact (L134–147, L148)")
        func updating() async throws {
            try await withSeedServer { server in
                try await server.insert(
                    "Todo", objectId: "582570f38ac247004f39c24b", ["title": "R&D Weekly Meeting", "content": "All team members, Tue 2pm"]
                )
                let results = try await server.run {
                    // ---- seed L134–147
                    do {
                        let todo = LCObject(className: "Todo", objectId: "582570f38ac247004f39c24b")
                        try todo.set("content", value: "Weekly meeting has been rescheduled to Wed 3pm for this week.")
                        todo.save { (result) in
                            switch result {
                            case .success:
                                break
                            case .failure(error: let error):
                                print(error)
                            }
                        }
                    } catch {
                        print(error)
                    }
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true])
                let exchange = try #require(server.exchanges.all.first)
                #expect(exchange.method == "PUT")
                #expect(exchange.requestBody == .object(["content": "Weekly meeting has been rescheduled to Wed 3pm for this week."]))
                let todo = try #require(try await server.object("Todo", "582570f38ac247004f39c24b"))
                #expect(todo["content"]?.stringValue == "Weekly meeting has been rescheduled to Wed 3pm for this week.")
                #expect(todo["title"]?.stringValue == "R&D Weekly Meeting")
            }
        }

        /// The sample of seed 000 L149–178, run in both of the cases it handles.
        static func conditionalUpdate() {
            // ---- seed L149–178
            do {
                let account = LCObject(className: "Account", objectId: "5745557f71cfe40068c6abe0")
                // Atomically decrease balance by 100
                let amount = -100
                try account.increase("balance", by: amount)
                // Add the condition
                let query = LCQuery(className: "Account")
                query.whereKey("balance", .greaterThanOrEqualTo(-amount))
                let options: [LCObject.SaveOption] = [
                    .query(query),
                    // Return the latest data in the cloud upon completion.
                    // All the fields will be returned if the object is new,
                    // otherwise only fields with changes will be returned.
                    .fetchWhenSave
                ]
                account.save(options: options) { (result) in
                    switch result {
                    case .success:
                        if let balance = account["balance"] {
                            print("Balance: \(balance)")
                        }
                    case .failure(error: let error):
                        if error.code == 305 {
                            print("Insufficient balance. Operation failed!")
                        }
                    }
                }
            } catch {
                print(error)
            }
            // ---- end
        }

        /// Seed 000 L149–178.
        @Test("a conditional decrement of an account holding 150 succeeds and fetchWhenSave returns the new balance, 50 (L149–178)")
        func conditionalUpdateSucceeds() async throws {
            try await withSeedServer { server in
                try await server.insert("Account", objectId: "5745557f71cfe40068c6abe0", ["balance": 150])
                let results = try await server.run(Objects.conditionalUpdate)
                #expect(results.map(\.isSuccess) == [true])
                let exchange = try #require(server.exchanges.all.first)
                #expect(exchange.parameters["fetchWhenSave"] == "true")
                #expect(exchange.parameters["where"].flatMap { try? JSONParser.parse($0) } == .object(["balance": ["$gte": 100]]))
                #expect(exchange.responseBody?["balance"]?.intValue == 50)
                #expect(try await server.object("Account", "5745557f71cfe40068c6abe0")?["balance"]?.intValue == 50)
            }
        }

        /// Seed 000 L149–178.
        @Test("a conditional decrement of an account holding 50 fails with 305 and leaves the balance at 50 (L149–178)")
        func conditionalUpdateFails() async throws {
            try await withSeedServer { server in
                try await server.insert("Account", objectId: "5745557f71cfe40068c6abe0", ["balance": 50])
                let results = try await server.run(Objects.conditionalUpdate)
                #expect(results.map { $0.error?.code } == [305])
                #expect(try await server.object("Account", "5745557f71cfe40068c6abe0")?["balance"]?.intValue == 50)
            }
        }

        /// Seed 000 L179–182.
        @Test("increase(_:by:) atomically adds to a counter (L181)")
        func counters() async throws {
            try await withSeedServer { server in
                try await server.insert("Post", objectId: "57328ca079bc44005c2472d0", ["likes": 10])
                let post = LCObject(className: "Post", objectId: "57328ca079bc44005c2472d0")
                // ---- seed L181
                try post.increase("likes", by: 1)
                // ---- end
                try await post.save()
                #expect(server.exchanges.all.first?.requestBody == .object(["likes": ["__op": "Increment", "amount": 1]]))
                #expect(try await server.object("Post", "57328ca079bc44005c2472d0")?["likes"]?.intValue == 11)
            }
        }

        /// Seed 000 L183–220.
        @Test("testSetArray saves two reminders, then appends a third with unique: true (L192–220)")
        func updatingArrays() async throws {
            try await withSeedServer { server in
                let results = try await server.run {
                    // ---- seed L192–220
                    func dateWithString(_ string: String) -> LCDate {
                        let dateFormatter = DateFormatter()
                        dateFormatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
                        dateFormatter.locale = Locale(identifier: "en_US_POSIX")
                        let date = LCDate(dateFormatter.date(from: string)!)
                        return date
                    }
                    func testSetArray() {
                        do {
                            let todo = LCObject(className: "Todo")
                            let reminder1 = dateWithString("2018-04-30 07:10:00")
                            let reminder2 = dateWithString("2018-04-30 07:20:00")
                            try todo.set("reminders", value: [reminder1, reminder2])
                            let result = todo.save()
                            assert(result.isSuccess)
                            let reminder3 = dateWithString("2018-04-30 07:30:00")
                            try todo.append("reminders", element: reminder3, unique: true)
                            _ = todo.save { result in
                                switch result {
                                case .success:
                                    break
                                case .failure(error: let error):
                                    print(error)
                                }
                            }
                        } catch {
                            print(error)
                        }
                    }
                    // ---- end
                    testSetArray()
                }
                #expect(results.map(\.isSuccess) == [true, true])
                let formatter = DateFormatter()
                formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
                formatter.locale = Locale(identifier: "en_US_POSIX")
                let expected = ["2018-04-30 07:10:00", "2018-04-30 07:20:00", "2018-04-30 07:30:00"].map { formatter.date(from: $0)! }
                let todo = try #require(try await server.objects("Todo").first)
                let stored = todo["reminders"]?.elements.compactMap { $0["iso"]?.stringValue }.compactMap { LCDate(isoString: $0)?.value }
                #expect(stored == expected)
                #expect(server.exchanges.all.last?.requestBody?["reminders"]?["__op"]?.stringValue == "AddUnique")
            }
        }

        /// Seed 000 L221–232.
        @Test("delete removes the Todo from the server (L223–231)")
        func deleting() async throws {
            try await withSeedServer { server in
                try await server.insert("Todo", objectId: "582570f38ac247004f39c24b", ["title": "to go"])
                let results = try await server.run {
                    // ---- seed L223–231
                    let todo = LCObject(className: "Todo", objectId: "582570f38ac247004f39c24b")
                    _ = todo.delete { result in
                        switch result {
                        case .success:
                            break
                        case .failure(error: let error):
                            print(error)
                        }
                    }
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true])
                #expect(try await !server.exists("Todo", "582570f38ac247004f39c24b"))
            }
        }

        /// Seed 000 L233–263.
        @Test("the batch save, delete and fetch of an empty array succeed without a request (L235–263)")
        func batchOfNothing() async throws {
            try await withSeedServer { server in
                let results = try await server.run {
                    // ---- seed L235–263
                    // Create an array for storing LCObjects
                    let objects: [LCObject] = []
                    // Batch create and update
                    _ = LCObject.save(objects, completion: { (result) in
                        switch result {
                        case .success:
                            break
                        case .failure(error: let error):
                            print(error)
                        }
                    })
                    // Batch delete
                    _ = LCObject.delete(objects, completion: { (result) in
                        switch result {
                        case .success:
                            break
                        case .failure(error: let error):
                            print(error)
                        }
                    })
                    // Batch fetch
                    _ = LCObject.fetch(objects, completion: { (result) in
                        switch result {
                        case .success:
                            break
                        case .failure(error: let error):
                            print(error)
                        }
                    })
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true, true, true])
                #expect(server.exchanges.all.isEmpty)
            }
        }

        /// Seed 000 L264–291.
        @Test("every Todo found is marked complete and all are saved in one batch request (L265–290)")
        func batchComplete() async throws {
            try await withSeedServer { server in
                for (index, title) in ["a", "b", "c"].enumerated() {
                    try await server.insert("Todo", objectId: "todo\(index)", ["title": .string(title), "isComplete": false])
                }
                let results = try await server.run {
                    // ---- seed L265–290
                    let query = LCQuery(className: "Todo")
                    _ = query.find { (result) in
                        switch result {
                        case .success(objects: let todos):
                            // Get a collection of todos to work on
                            for todo in todos {
                                do {
                                    // Update value
                                    try todo.set("isComplete", value: true)
                                } catch {
                                    print(error)
                                }
                            }
                            // Save all at once
                            let _ = LCObject.save(todos, completion: { (result) in
                                switch result {
                                case .success:
                                    break
                                case .failure(error: let error):
                                    print(error)
                                }
                            })
                        case .failure(error: let error):
                            print(error)
                        }
                    }
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true, true])
                #expect(results.first?.objects?.count == 3)
                #expect(server.exchanges.all.map(\.path) == ["/1.1/classes/Todo", "/1.1/batch"])
                #expect(server.exchanges.all.last?.requestBody?["requests"]?.elements.count == 3)
                let todos = try await server.objects("Todo")
                #expect(todos.count == 3 && todos.allSatisfy { $0["isComplete"] == .bool(true) })
            }
        }

        /// Seed 000 L292–311.
        @Test("saving a comment that points to a new post saves both, the comment's parent pointing to the post (L297–311)")
        func oneToOne() async throws {
            try await withSeedServer { server in
                let results = try await server.run {
                    // ---- seed L297–311
                    do {
                        // Create a post
                        let post = LCObject(className: "Post")
                        try post.set("title", value: "I am starving!")
                        try post.set("content", value: "Hmmm, where should I go for lunch?")
                        // Create a comment
                        let comment = LCObject(className: "Comment")
                        try comment.set("content", value: "KFC is the best!")
                        // Add the post as a property of the comment
                        try comment.set("parent", value: post)
                        // This will save both post and comment
                        assert(comment.save().isSuccess)
                    } catch {
                        print(error)
                    }
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true])
                let post = try #require(try await server.objects("Post").first)
                let comment = try #require(try await server.objects("Comment").first)
                #expect(post["title"]?.stringValue == "I am starving!")
                #expect(comment["content"]?.stringValue == "KFC is the best!")
                let postId = try #require(post["objectId"])
                #expect(comment["parent"] == .object(["__type": "Pointer", "className": "Post", "objectId": postId]))
            }
        }

        /// Seed 000 L312–315.
        @Test("a pointer made from an objectId links a comment to an existing post (L313–314)")
        func pointerById() async throws {
            try await withSeedServer { server in
                try await server.insert("Post", objectId: "57328ca079bc44005c2472d0", ["title": "I am starving!"])
                let comment = LCObject(className: "Comment")
                // ---- seed L313–314
                let post = LCObject(className: "Post", objectId: "57328ca079bc44005c2472d0")
                try comment.set("post", value: post)
                // ---- end
                try await comment.save()
                #expect(server.exchanges.all.map(\.path) == ["/1.1/classes/Comment"])
                let stored = try #require(try await server.objects("Comment").first)
                #expect(stored["post"] == .object(["__type": "Pointer", "className": "Post", "objectId": "57328ca079bc44005c2472d0"]))
            }
        }
    }
}
