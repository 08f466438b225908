import Cirrus
import CirrusTesting
import Foundation
import Testing

/// LCObject against an in-process server over HTTP.
@Suite("Objects on a live server")
struct ObjectLiveTests {
    @Test("an object with every value type is saved and read back with the same values")
    func roundTrip() async throws {
        try await withLiveApp { application, _ in
            let todo = LCObject(application: application, className: "Todo")
            let when = try #require(LCDate(isoString: "2018-04-30T07:10:00.000Z"))
            try todo.set("title", value: "R&D Weekly Meeting")
            try todo.set("priority", value: 2)
            try todo.set("ratio", value: 0.25)
            try todo.set("done", value: false)
            try todo.set("tags", value: ["work", "sales"])
            try todo.set("reminders", value: [when])
            try todo.set("meta", value: LCDictionary(["name": LCString("x"), "count": LCNumber(3)]))
            try todo.set("location", value: LCGeoPoint(latitude: 39.9, longitude: 116.4))
            try todo.set("blob", value: LCData(Data([0, 1, 2, 255])))
            try todo.set("nothing", value: LCNull())
            try await todo.save()
            let id = try #require(todo.objectId?.value)
            let read = try await LCQuery(application: application, className: "Todo").get(id)
            #expect(read.get("title")?.stringValue == "R&D Weekly Meeting")
            #expect(read.get("priority")?.intValue == 2)
            #expect(read.get("ratio")?.doubleValue == 0.25)
            #expect(read.get("done")?.boolValue == false)
            #expect(read.get("tags")?.arrayValue?.compactMap(\.stringValue) == ["work", "sales"])
            #expect(read.get("reminders")?.arrayValue?.first?.dateValue == when.value)
            #expect(read.get("meta")?.dictionaryValue?["count"]?.intValue == 3)
            #expect((read.get("location") as? LCGeoPoint) == LCGeoPoint(latitude: 39.9, longitude: 116.4))
            #expect(read.get("blob")?.dataValue == Data([0, 1, 2, 255]))
            #expect(read.get("nothing") is LCNull)
            #expect(read.createdAt == todo.createdAt)
            #expect(read.get("notes") == nil)
        }
    }

    @Test("an update with atomic operations changes only what it names; fetchWhenSave returns the new values")
    func update() async throws {
        try await withLiveApp { application, _ in
            let post = LCObject(application: application, className: "Post")
            try post.set("likes", value: 10)
            try post.set("tags", value: ["a", "b"])
            try post.set("title", value: "kept")
            try post.set("draft", value: true)
            try await post.save()
            let id = try #require(post.objectId?.value)
            let other = LCObject(application: application, className: "Post", objectId: id)
            try other.increase("likes", by: 5)
            try other.append("tags", elements: ["b", "c"], unique: true)
            try other.unset("draft")
            try await other.save(options: [.fetchWhenSave])
            #expect(other.get("likes")?.intValue == 15)
            try other.remove("tags", element: "a")
            try await other.save()
            try await post.fetch()
            #expect(post.get("likes")?.intValue == 15)
            #expect(post.get("tags")?.arrayValue?.compactMap(\.stringValue) == ["b", "c"])
            #expect(post.get("title")?.stringValue == "kept")
            #expect(post.get("draft") == nil)
            #expect(try #require(post.updatedAt?.value) > (try #require(post.createdAt?.value)))
        }
    }

    @Test("fetch with keys reads only those keys")
    func fetchKeys() async throws {
        try await withLiveApp { application, _ in
            let todo = LCObject(application: application, className: "Todo")
            try todo.set("title", value: "t")
            try todo.set("content", value: "c")
            try todo.set("notes", value: "n")
            try await todo.save()
            let partial = LCObject(application: application, className: "Todo", objectId: try #require(todo.objectId?.value))
            try await partial.fetch(keys: ["title", "content"])
            #expect(partial.get("title")?.stringValue == "t")
            #expect(partial.get("content")?.stringValue == "c")
            #expect(partial.get("notes") == nil)
        }
    }

    @Test("a conditional save that matches nothing fails with 305 and changes nothing")
    func conditionalSave() async throws {
        try await withLiveApp { application, _ in
            let account = LCObject(application: application, className: "Account")
            try account.set("balance", value: 50)
            try await account.save()
            let amount = -100
            try account.increase("balance", by: amount)
            let query = LCQuery(application: application, className: "Account")
            query.whereKey("balance", .greaterThanOrEqualTo(-amount))
            let error = try await #require(throws: LCError.self) { try await account.save(options: [.query(query), .fetchWhenSave]) }
            #expect(error.code == 305)
            let fresh = try await LCQuery(application: application, className: "Account").get(try #require(account.objectId?.value))
            #expect(fresh.get("balance")?.intValue == 50)
            let enough = LCQuery(application: application, className: "Account")
            enough.whereKey("balance", .greaterThanOrEqualTo(10))
            let spend = LCObject(application: application, className: "Account", objectId: try #require(account.objectId?.value))
            try spend.increase("balance", by: -10)
            try await spend.save(options: [.query(enough), .fetchWhenSave])
            #expect(spend.get("balance")?.intValue == 40)
        }
    }

    @Test("a batch save with fetchWhenSave reads back each object's new values; with a query, the object that does not match fails with 305 alone")
    func batchSaveWithOptions() async throws {
        try await withLiveApp { application, _ in
            let rich = LCObject(application: application, className: "Account")
            let poor = LCObject(application: application, className: "Account")
            try rich.set("balance", value: 100)
            try poor.set("balance", value: 5)
            try await LCObject.save([rich, poor])
            let richCopy = LCObject(application: application, className: "Account", objectId: try #require(rich.objectId?.value))
            let poorCopy = LCObject(application: application, className: "Account", objectId: try #require(poor.objectId?.value))
            try richCopy.increase("balance", by: 1)
            try poorCopy.increase("balance", by: 2)
            try await LCObject.save([richCopy, poorCopy], options: [.fetchWhenSave])
            #expect(richCopy.get("balance")?.intValue == 101)
            #expect(poorCopy.get("balance")?.intValue == 7)

            try richCopy.increase("balance", by: -10)
            try poorCopy.increase("balance", by: -10)
            let enough = LCQuery(application: application, className: "Account")
            enough.whereKey("balance", .greaterThanOrEqualTo(10))
            let error = try await #require(throws: LCError.self) {
                try await LCObject.save([richCopy, poorCopy], options: [.query(enough), .fetchWhenSave])
            }
            #expect(error.code == 305)
            #expect(richCopy.get("balance")?.intValue == 91)
            #expect(poorCopy.hasDataToUpload)
            try await poor.fetch()
            #expect(poor.get("balance")?.intValue == 7)
        }
    }

    @Test("a comment pointing to a new post saves both; include reads the post back")
    func pointers() async throws {
        try await withLiveApp { application, _ in
            let post = LCObject(application: application, className: "Post")
            try post.set("title", value: "I am starving!")
            let comment = LCObject(application: application, className: "Comment")
            try comment.set("content", value: "KFC is the best!")
            try comment.set("parent", value: post)
            try await comment.save()
            #expect(post.objectId != nil)
            let query = LCQuery(application: application, className: "Comment")
            query.whereKey("parent", .included)
            let found = try await query.get(try #require(comment.objectId?.value))
            let parent = try #require(found.get("parent") as? LCObject)
            #expect(parent.objectId == post.objectId)
            #expect(parent.get("title")?.stringValue == "I am starving!")
            let byPost = LCQuery(application: application, className: "Comment")
            byPost.whereKey("parent", .equalTo(post))
            #expect(try await byPost.count() == 1)
        }
    }

    @Test("the batch statics save, fetch and delete several objects")
    func batch() async throws {
        try await withLiveApp { application, _ in
            let todos = (1...3).map { index in
                let todo = LCObject(application: application, className: "Todo")
                try? todo.set("index", value: index)
                return todo
            }
            try await LCObject.save(todos)
            #expect(todos.allSatisfy { $0.objectId != nil })
            for todo in todos { try todo.set("isComplete", value: true) }
            try await LCObject.save(todos)
            let copies = todos.map { LCObject(application: application, className: "Todo", objectId: $0.objectId!.value) }
            try await LCObject.fetch(copies)
            #expect(copies.map { $0.get("index")?.intValue } == [1, 2, 3])
            #expect(copies.allSatisfy { $0.get("isComplete")?.boolValue == true })
            try await LCObject.delete(todos)
            #expect(try await LCQuery(application: application, className: "Todo").count() == 0)
            let error = try await #require(throws: LCError.self) { try await LCObject.fetch(copies) }
            #expect(error.code == 101)
        }
    }

    @Test("a deleted object can no longer be fetched (101)")
    func delete() async throws {
        try await withLiveApp { application, _ in
            let todo = LCObject(application: application, className: "Todo")
            try todo.set("title", value: "x")
            try await todo.save()
            try await todo.delete()
            let error = try await #require(throws: LCError.self) { try await todo.fetch() }
            #expect(error.code == 101)
        }
    }

    @Test("a relation records members and its query finds them")
    func relation() async throws {
        try await withLiveApp { application, _ in
            let tags = try (1...2).map { index in
                let tag = LCObject(application: application, className: "Tag")
                try tag.set("name", value: "tag\(index)")
                return tag
            }
            try await LCObject.save(tags)
            let post = LCObject(application: application, className: "Post")
            try post.set("title", value: "p")
            let relation = post.relationForKey("tags")
            for tag in tags { try relation.insert(tag) }
            try await post.save()
            let members = try await post.relationForKey("tags").query.find()
            #expect(Set(members.compactMap { $0.get("name")?.stringValue }) == ["tag1", "tag2"])
            try post.relationForKey("tags").remove(tags[0])
            try await post.save()
            let fresh = LCObject(application: application, className: "Post", objectId: try #require(post.objectId?.value))
            try await fresh.fetch()
            let remaining = try await fresh.relationForKey("tags").query.find()
            #expect(remaining.compactMap { $0.get("name")?.stringValue } == ["tag2"])
        }
    }

    @Test("server errors surface as LCError with the server's code", arguments: [
        ("a class name with a dash", "Bad-Class", "title", 103),
        ("a key starting with a dollar", "Todo", "$title", 105),
    ])
    func badInput(name: String, className: String, key: String, code: Int) async throws {
        try await withLiveApp { application, _ in
            let object = LCObject(application: application, className: className)
            try object.set(key, value: "x")
            let error = try await #require(throws: LCError.self) { try await object.save() }
            #expect(error.code == code, "\(name): \(error)")
            #expect(error.reason?.isEmpty == false)
        }
    }

    @Test("the completion-handler and blocking forms work over HTTP")
    func callForms() async throws {
        try await withLiveApp { application, _ in
            let todo = LCObject(application: application, className: "Todo")
            try todo.set("title", value: "Sign up for Marathon")
            let result = await withCheckedContinuation { continuation in
                _ = todo.save(completionQueue: .global()) { result in continuation.resume(returning: result) }
            }
            #expect(result.isSuccess)
            let count = await onThread {
                let query = LCQuery(application: application, className: "Todo")
                query.whereKey("title", .equalTo("Sign up for Marathon"))
                return query.count()
            }
            #expect(count.intValue == 1)
        }
    }
}

/// The blocking forms over HTTP, called from a thread of their own as a command-line program would.
@Suite("Blocking forms on a live server")
struct BlockingLiveTests {
    @Test("sign-up, log-in, password change, save, query, CQL and statistics in their blocking forms")
    func blocking() async throws {
        try await withLiveApp { application, _ in
            let outcome = await onThread { () -> [String] in
                var failures: [String] = []
                func check(_ name: String, _ ok: Bool) { if !ok { failures.append(name) } }
                let user = LCUser(application: application)
                user.username = "Tom"
                user.password = "cat"
                check("signUp", user.signUp().isSuccess)
                check("updatePassword", user.updatePassword(oldPassword: "cat", newPassword: "dog").isSuccess)
                check("logIn", LCUser.logIn(application: application, username: "Tom", password: "dog").isSuccess)
                let todo = LCObject(application: application, className: "Todo")
                try? todo.set("priority", value: 3)
                check("save", todo.save().isSuccess)
                let query = LCQuery(application: application, className: "Todo")
                query.whereKey("priority", .equalTo(3))
                check("find", query.find().objects?.count == 1)
                check("count", query.count().intValue == 1)
                check("getFirst", query.getFirst().object?.objectId == todo.objectId)
                check("CQL", LCCQLClient.execute(application: application, "select * from Todo").objects.count == 1)
                let statistics = LCQuery(application: application, className: "Todo")
                statistics.sum(keys: ["priority"])
                check("calculate", statistics.calculate().objects?.first?["_sumPriority"]?.intValue == 3)
                check("getRoles", user.getRoles().objects?.isEmpty == true)
                check("delete", todo.delete().isSuccess)
                check("wrong password", LCUser.logIn(application: application, username: "Tom", password: "cat").error?.code == 210)
                return failures
            }
            #expect(outcome.isEmpty, "failed: \(outcome)")
        }
    }
}
