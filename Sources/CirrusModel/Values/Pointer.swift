/// A reference to one object of a class.
public struct Pointer: Sendable, Hashable {
    public var className: String
    public var objectId: String

    public init(className: String, objectId: String) {
        self.className = className
        self.objectId = objectId
    }
}

/// A reference to a file: LeanCloud refers by the `_File` row id, Parse and Bmob by name and URL.
public struct FileReference: Sendable, Hashable {
    /// The objectId of the `_File` row, when known.
    public var id: String?
    public var name: String?
    public var url: String?
    /// Other members the client sent (Bmob's `group`, LeanCloud's `mime_type` or `metaData`), kept as given.
    public var extra: [String: JSON]

    public init(id: String? = nil, name: String? = nil, url: String? = nil, extra: [String: JSON] = [:]) {
        self.id = id
        self.name = name
        self.url = url
        self.extra = extra
    }
}
