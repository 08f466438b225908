import Foundation

/// The web console's files: those of `Server/Dashboard/` compiled into the binary (``embedded``, which
/// `scripts/dashboard-embed` writes), or, for working on the page without rebuilding, read from a directory
/// (`CIRRUS_DASHBOARD_DIR`).
package struct DashboardAssets: Sendable {
    /// The directory the files are read from on each request, or `nil` for the compiled-in files.
    let directory: String?

    package init(directory: String? = nil) {
        self.directory = directory
    }

    /// A file's text and content type; `nil` for a path that names no file (or leaves the directory).
    func file(_ path: String) -> (text: String, contentType: String)? {
        guard let type = Self.contentTypes[(path as NSString).pathExtension.lowercased()], Self.isPlain(path) else { return nil }
        guard let directory else { return Self.embedded[path].map { ($0, type) } }
        guard let text = try? String(contentsOfFile: directory + "/" + path, encoding: .utf8) else { return nil }
        return (text, type)
    }

    /// Whether a path is relative, of plain names: no `..`, `.`, empty or hidden parts.
    static func isPlain(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return !parts.isEmpty && parts.allSatisfy { !$0.isEmpty && !$0.hasPrefix(".") && !$0.contains("\\") }
    }

    static let contentTypes = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
        "svg": "image/svg+xml", "json": "application/json; charset=utf-8",
    ]
}
