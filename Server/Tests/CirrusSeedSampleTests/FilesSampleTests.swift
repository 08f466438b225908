// Seed 000 (the LeanCloud Swift guide), section "Files": L545–L632.
//
// Each sample is copied between `// ---- seed Lx–Ly` and `// ---- end`, indented, and runs against an in-process
// Cirrus server over HTTP with `LCApplication.default` pointing at it. The samples of L572–624 use a `file` the
// guide created earlier (L549–551); the test creates it just before.
//
// Not run as the guide means it:
// - L563–565 runs, but `Bundle.main` of a test process is the test runner's bundle, which has no resource
//   avatar.jpg, so `if let url` skips the body and nothing is created. The body's statement (L564) runs on its own
//   in "a local avatar.jpg is uploaded with its name", with `url` a temporary avatar.jpg.
//
// Changes to the seed's text in this file:
// - L586 `todo.set("title", value: "Get Cakes")` and L588 `todo.append("attachments", element: file)`: both methods
//   throw (the guide writes `try` before them everywhere else, e.g. L63, L208) and Swift refuses a call that throws
//   without `try`. Change: `try todo.set(…)` and `try todo.append(…)`.
// - L611–620 is not Swift: L616, L618 and L620 declare variables the C#/Java way (`String? author = …`), and L611
//   assigns a string literal where the metadata dictionary holds `LCValue`s (as `LCDictionary` does in the
//   LeanCloud SDK). Changes:
//   - L611 `file.metaData["author"] = "LeanCloud"` → `file.metaData["author"] = LCString("LeanCloud")`;
//   - L616 `String? author = file.metaData["author"]` → `let author: String? = file.metaData["author"]?.stringValue`;
//   - L618 `String? fileName = file.name` → `let fileName: String? = file.name?.value`;
//   - L620 `UInt64? size = file.metaData["size"]` →
//     `let size: UInt64? = (file.metaData["size"]?.intValue).map { UInt64($0) }`.
import Cirrus
import CirrusModel
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension SeedSamples {
    @Suite("Files (seed 000 L545–632)")
    struct Files {
        /// Seed 000 L547–569.
        @Test("creating files from a string, a URL, JSON with a MIME type or a bundle resource sends nothing (L549–565)")
        func creating() async throws {
            try await withSeedServer { server in
                try await server.run {
                    // ---- seed L549–551
                    if let data = "LeanCloud".data(using: .utf8) {
                        let file = LCFile(payload: .data(data: data))
                    }
                    // ---- end
                    // ---- seed L553–555
                    if let url = URL(string: "https://leancloud.cn/assets/imgs/press/Logo%20-%20Blue%20Padding.a60eb2fa.png") {
                        let file = LCFile(url: url)
                    }
                    // ---- end
                    // ---- seed L558–561
                    if let data = "{\"company\":\"LeanCloud\"}".data(using: .utf8) {
                        let file = LCFile(payload: .data(data: data))
                        file.mimeType = "application/json"
                    }
                    // ---- end
                    // ---- seed L563–565
                    if let url = Bundle.main.url(forResource: "avatar", withExtension: "jpg") {
                        let file = LCFile(payload: .fileURL(fileURL: url))
                    }
                    // ---- end
                }
                // "the SDK will not upload the actual files into the cloud" (L556); nothing is sent before a save.
                #expect(server.exchanges.all.isEmpty)
                #expect(Bundle.main.url(forResource: "avatar", withExtension: "jpg") == nil)
            }
        }

        /// Seed 000 L553–556.
        @Test("a file created from a URL is saved as an external file: nothing is uploaded and the URL is kept (L553–556)")
        func external() async throws {
            try await withSeedServer { server in
                let url = try #require(URL(string: "https://leancloud.cn/assets/imgs/press/Logo%20-%20Blue%20Padding.a60eb2fa.png"))
                // ---- seed L554
                let file = LCFile(url: url)
                // ---- end
                try await file.save()
                #expect(server.exchanges.all.map(\.path) == ["/1.1/files"])
                let stored = try #require(try await server.object("_File", file.objectId?.value ?? "-"))
                #expect(stored["url"]?.stringValue == url.absoluteString)
            }
        }

        /// Seed 000 L557–561.
        @Test("the MIME type set on a file is the one it is stored with (L558–561)")
        func mimeType() async throws {
            try await withSeedServer { server in
                let data = try #require("{\"company\":\"LeanCloud\"}".data(using: .utf8))
                // ---- seed L559–560
                let file = LCFile(payload: .data(data: data))
                file.mimeType = "application/json"
                // ---- end
                try await file.save()
                let stored = try #require(try await server.object("_File", file.objectId?.value ?? "-"))
                #expect(stored["mime_type"]?.stringValue == "application/json")
            }
        }

        /// Seed 000 L562–569.
        @Test("a local avatar.jpg is uploaded with its name and the type its extension gives (L564, L566–568)")
        func localFile() async throws {
            try await withSeedServer { server in
                let directory = server.directory.appendingPathComponent("bundle")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                let url = directory.appendingPathComponent("avatar.jpg")
                try Data([0xFF, 0xD8, 0xFF, 0xE0]).write(to: url)
                // ---- seed L564
                let file = LCFile(payload: .fileURL(fileURL: url))
                // ---- end
                try await file.save()
                #expect(file.name?.value == "avatar.jpg")
                #expect(file.mimeType?.value == "image/jpeg")
                let (status, downloaded) = try await LiveTestServerDownload.get(try #require(file.url?.value))
                #expect(status == 200 && downloaded == Data([0xFF, 0xD8, 0xFF, 0xE0]))
            }
        }

        /// Seed 000 L570–583.
        @Test("saving a file uploads it and gives it an objectId and a URL that serves its bytes (L572–582)")
        func saving() async throws {
            try await withSeedServer { server in
                let file = LCFile(payload: .data(data: Data("LeanCloud".utf8)))
                let results = try await server.run {
                    // ---- seed L572–582
                    _ = file.save { result in
                        switch result {
                        case .success:
                            if let value = file.objectId?.value {
                                print("File uploaded. objectId: " + value)
                            }
                        case .failure(error: let error):
                            // The file either could not be read or could not be saved to LeanCloud
                            print(error)
                        }
                    }
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true])
                let paths = server.exchanges.all.map(\.path)
                #expect(paths.count == 3 && paths.first == "/1.1/fileTokens" && paths.last == "/1.1/fileCallback")
                #expect(server.exchanges.all.map(\.method) == ["POST", "PUT", "POST"])
                let id = try #require(file.objectId?.value)
                #expect(try await server.exists("_File", id))
                let (status, downloaded) = try await LiveTestServerDownload.get(try #require(file.url?.value))
                #expect(status == 200 && downloaded == Data("LeanCloud".utf8))
            }
        }

        /// Seed 000 L584–594.
        @Test("a saved file appended to a todo's attachments is stored there, and a _File query finds it (L585–591)")
        func attaching() async throws {
            try await withSeedServer { server in
                let file = LCFile(payload: .data(data: Data("LeanCloud".utf8)))
                try await file.save()
                let results = try await server.run {
                    // ---- seed L585–589 (L586, L588: `try` added)
                    let todo = LCObject(className: "Todo")
                    try todo.set("title", value: "Get Cakes")
                    // attachments is an Array field
                    try todo.append("attachments", element: file)
                    todo.save()
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true])
                let todo = try #require(try await server.objects("Todo").first)
                #expect(todo["title"]?.stringValue == "Get Cakes")
                let fileId = try #require(file.objectId?.value)
                #expect(todo["attachments"]?.elements.first?["objectId"] == .string(fileId))
                #expect(todo["attachments"]?.elements.first?["__type"]?.stringValue == "File")
                // ---- seed L591
                let query = LCQuery(className: "_File")
                // ---- end
                let files = try await query.find()
                #expect(files.map { $0.objectId } == [file.objectId])
                #expect((files.first as? LCFile)?.url == file.url)
            }
        }

        /// Seed 000 L595–607.
        @Test("save(progress:) reports progress and uploads the file (L597–607)")
        func progress() async throws {
            try await withSeedServer { server in
                let file = LCFile(payload: .data(data: Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0) })))
                let results = try await server.run {
                    // ---- seed L597–607
                    _ = file.save(progress: { (progress) in
                        print(progress)
                    }) { (result) in
                        switch result {
                        case .success:
                            // Things to do after saving
                            break
                        case .failure(error: let error):
                            print(error)
                        }
                    }
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true])
                let stored = try #require(try await server.object("_File", file.objectId?.value ?? "-"))
                #expect(stored["metaData"]?["size"]?.intValue == 100_000)
            }
        }

        /// Seed 000 L608–624.
        @Test("metadata set before the upload is stored with the file, with its size (L610–624)")
        func metadata() async throws {
            try await withSeedServer { server in
                let file = LCFile(payload: .data(data: Data("LeanCloud".utf8)))
                file.name = "notes.txt"
                let results = try await server.run {
                    // ---- seed L610–624 (L611, L616, L618, L620 changed: see the top of the file)
                    // Set metadata
                    file.metaData["author"] = LCString("LeanCloud")
                    _ = file.save { result in
                        switch result {
                        case .success:
                            // Get author
                            let author: String? = file.metaData["author"]?.stringValue
                            // Get file name
                            let fileName: String? = file.name?.value
                            // Get size (not available for files created from base64-encoded strings or URLs)
                            let size: UInt64? = (file.metaData["size"]?.intValue).map { UInt64($0) }
                        case .failure(error: let error):
                            print(error)
                        }
                    }
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true])
                #expect(file.metaData["author"]?.stringValue == "LeanCloud")
                #expect(file.name?.value == "notes.txt")
                #expect(file.metaData["size"]?.intValue == 9)
                let stored = try #require(try await server.object("_File", file.objectId?.value ?? "-"))
                #expect(stored["metaData"]?["author"]?.stringValue == "LeanCloud")
            }
        }

        /// The sample of seed 000 L627–628.
        static func deleteFile() {
            // ---- seed L627–628
            let file = LCObject(className: "_File", objectId: "552e0a27e4b0643b709e891e")
            file.delete()
            // ---- end
        }

        /// Seed 000 L625–629.
        @Test("a file cannot be deleted by default; once the _File delete permission is granted it is (L627–629)")
        func deleting() async throws {
            try await withSeedServer { server in
                try await server.insert(
                    "_File", objectId: "552e0a27e4b0643b709e891e",
                    ["name": "logo.png", "url": "https://leancloud.cn/logo.png", "mime_type": "image/png", "metaData": [:]]
                )
                let refused = try await server.run(Files.deleteFile)
                #expect(refused.map { $0.error?.code } == [403])
                #expect(try await server.exists("_File", "552e0a27e4b0643b709e891e"))
                let (status, _) = try await server.master("PUT", "/1.1/schemas/_File", #"{"classLevelPermissions":{"delete":{"*":true}}}"#)
                #expect(status == 200)
                let deleted = try await server.run(Files.deleteFile)
                #expect(deleted.map(\.isSuccess) == [true])
                #expect(try await !server.exists("_File", "552e0a27e4b0643b709e891e"))
            }
        }
    }
}

/// Downloads without the SDK.
enum LiveTestServerDownload {
    static func get(_ url: String) async throws -> (Int, Data) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: url)!)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }
}
