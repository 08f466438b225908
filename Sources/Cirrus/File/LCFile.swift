import CirrusModel
public import Foundation

/// A file (`_File`): contents uploaded to the server's file storage, or an external URL.
///
/// ```swift
/// let file = LCFile(payload: .data(data: Data("LeanCloud".utf8)))
/// file.mimeType = "text/plain"
/// try await file.save(progress: { print($0) })
/// print(file.url?.value ?? "")
/// ```
/// Uploads go through the LeanCloud protocol: `POST /1.1/fileTokens`, `PUT` of the bytes to the `upload_url` it
/// returns, `POST /1.1/fileCallback`. Files in the fields of an object are uploaded when the object is saved.
open class LCFile: LCObject, @unchecked Sendable {
    /// The contents of a file to upload.
    public enum Payload: Sendable {
        /// Bytes in memory.
        case data(data: Data)
        /// A local file.
        case fileURL(fileURL: URL)
    }

    open override class func objectClassName() -> String { "_File" }

    override var endpoint: String { "/files" }

    private var payloadValue: Payload?

    /// An empty file; give it a payload or a URL before saving.
    public required init(application: LCApplication = .default) {
        super.init(application: application)
    }

    /// A file to upload.
    public convenience init(application: LCApplication = .default, payload: Payload) {
        self.init(application: application)
        payloadValue = payload
        if case .fileURL(let url) = payload { try? set("name", value: url.lastPathComponent) }
    }

    /// A file that is only a URL (an external file): saving records the URL, nothing is uploaded.
    public convenience init(application: LCApplication = .default, url: URL) {
        self.init(application: application)
        try? set("url", value: url.absoluteString)
        try? set("name", value: url.lastPathComponent.isEmpty ? "file" : url.lastPathComponent)
    }

    /// The contents to upload, `nil` for a saved or external file.
    public var payload: Payload? { lock.withLock { payloadValue } }

    /// The file's name; the server takes its MIME type from the extension unless ``mimeType`` is set.
    public var name: LCString? {
        get { self.get("name") as? LCString }
        set { try? set("name", value: newValue) }
    }

    /// The URL the contents are downloaded from.
    public var url: LCString? {
        get { self.get("url") as? LCString }
        set { try? set("url", value: newValue) }
    }

    /// The MIME type (`Content-Type`).
    public var mimeType: LCString? {
        get { self.get("mime_type") as? LCString }
        set { try? set("mime_type", value: newValue) }
    }

    /// The storage key of the contents.
    public var key: LCString? { self.get("key") as? LCString }

    /// Metadata sent with the upload (`metaData`); after the upload the server's, with `size` and `owner`.
    public var metaData: LCDictionary {
        lock.withLock {
            if let dictionary = state.properties["metaData"] as? LCDictionary { return dictionary }
            let dictionary = LCDictionary()
            state.properties["metaData"] = dictionary
            return dictionary
        }
    }

    /// Forgets the payload once it is uploaded.
    func dropPayload() {
        lock.withLock { payloadValue = nil }
    }
}
