/// The MIME type of a file from its name, for clients that send none (the LeanCloud Python SDK sends `null`).
package enum MIMETypes {
    static let byExtension: [String: String] = [
        "txt": "text/plain", "text": "text/plain", "html": "text/html", "htm": "text/html", "css": "text/css", "csv": "text/csv",
        "js": "application/javascript", "json": "application/json", "xml": "application/xml", "pdf": "application/pdf",
        "zip": "application/zip", "gz": "application/gzip", "tar": "application/x-tar",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp", "svg": "image/svg+xml",
        "bmp": "image/bmp", "ico": "image/x-icon", "heic": "image/heic",
        "mp3": "audio/mpeg", "wav": "audio/wav", "ogg": "audio/ogg", "m4a": "audio/mp4", "aac": "audio/aac", "amr": "audio/amr",
        "mp4": "video/mp4", "mov": "video/quicktime", "webm": "video/webm", "avi": "video/x-msvideo",
        "doc": "application/msword", "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls": "application/vnd.ms-excel", "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "ppt": "application/vnd.ms-powerpoint", "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "apk": "application/vnd.android.package-archive", "wasm": "application/wasm",
    ]

    static let fallback = "application/octet-stream"

    /// The given type when it is a plausible `type/subtype`, else the type of the name's extension, else
    /// `application/octet-stream`.
    package static func type(given: String?, name: String) -> String {
        if let given, given.contains("/"), !given.contains(where: { $0.isWhitespace || $0.isNewline }) { return given }
        return FileNaming.fileExtension(name).flatMap { byExtension[$0] } ?? fallback
    }

    /// Whether a browser shows content of this type without running anything in the page's origin: images (not
    /// SVG, which holds scripts), audio, video, PDF and plain text. Every other type (HTML, SVG, XML, JavaScript,
    /// unknown ones) is served as an attachment.
    package static func isPassive(_ type: String) -> Bool {
        let essence = type.split(separator: ";", maxSplits: 1).first.map { $0.filter { !$0.isWhitespace }.lowercased() } ?? ""
        if essence.hasPrefix("image/") { return !essence.contains("svg") }
        return essence.hasPrefix("audio/") || essence.hasPrefix("video/") || essence == "application/pdf" || essence == "text/plain"
    }
}
