import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder of `--files DIR`: finds a file's content by its old key (LeanCloud keys with `/` are subfolders), its
/// new key, its name, or the last part of its old URL, and never hands out anything outside the folder (`..`, or a
/// symbolic link leading out).
///
/// The name and the URL's last part are guesses: they are used only when exactly one file in the whole folder (at any
/// depth) has that name, and not for a second key in the same run once that file was taken for another key.
actor FileSourceDirectory {
    /// The folder as given, for messages.
    let display: String
    /// The folder with symbolic links resolved; every file handed out lies under it.
    private let root: String
    private var namesIndex: [String: [String]]?
    private var claimed: [String: String] = [:]

    /// What a look-up found.
    enum Lookup: Equatable {
        case found(path: String)
        case missing
        /// A candidate path led outside the folder.
        case refused(String)
        /// The file is there but cannot be used (not a regular file, unreadable, …).
        case unusable(String)
    }

    init(directory: URL) throws {
        display = directory.path
        guard let resolved = Self.realPath(directory.path) else {
            throw FileCarryJournal.Failure(message: "the files folder \(directory.path) does not exist")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw FileCarryJournal.Failure(message: "\(directory.path) is not a folder")
        }
        root = resolved
    }

    /// The file holding the content of `key`.
    func locate(key: String, sourceKey: String, url: String?, name: String?) -> Lookup {
        var refusal: String?
        var exact = [sourceKey, key]
        var guesses: [String] = []
        if let path = url.flatMap({ URL(string: $0) })?.path, !path.isEmpty, path != "/" {
            exact.append(path)
            if let last = path.split(separator: "/").last { guesses.append(String(last)) }
        }
        if let name, !name.isEmpty, !name.contains("/") { guesses.insert(name, at: 0) }
        for candidate in exact {
            switch resolve(candidate) {
            case .found(let path):
                claimed[path] = claimed[path] ?? key
                return .found(path: path)
            case .refused(let reason): refusal = refusal ?? reason
            case .unusable(let reason): return .unusable(reason)
            case .missing: continue
            }
        }
        for guess in guesses {
            guard let relative = onlyFile(named: guess) else { continue }
            switch resolve(relative) {
            case .found(let path):
                if let owner = claimed[path], owner != key { continue }
                claimed[path] = key
                return .found(path: path)
            case .refused(let reason): refusal = refusal ?? reason
            case .unusable(let reason): return .unusable(reason)
            case .missing: continue
            }
        }
        return refusal.map(Lookup.refused) ?? .missing
    }

    /// `relative` under the folder, checked to stay inside it once symbolic links are resolved.
    func resolve(_ relative: String) -> Lookup {
        let parts = relative.split(separator: "/").filter { $0 != "." }
        guard !parts.isEmpty, !relative.contains("\0") else { return .missing }
        if parts.contains("..") { return .refused("\(relative) leads outside \(display)") }
        let joined = root + (root.hasSuffix("/") ? "" : "/") + parts.joined(separator: "/")
        guard let resolved = Self.realPath(joined) else { return .missing }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        guard resolved.hasPrefix(prefix) else { return .refused("\(relative) leads outside \(display)") }
        var info = stat()
        guard stat(resolved, &info) == 0 else { return .missing }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .unusable("\(relative) in \(display) is not a regular file") }
        return .found(path: resolved)
    }

    /// Where the only file called `name` lies in the folder (at any depth); `nil` when none or several do.
    private func onlyFile(named name: String) -> String? {
        if namesIndex == nil {
            var index: [String: [String]] = [:]
            if let walker = FileManager.default.enumerator(atPath: root) {
                while let item = walker.nextObject() as? String {
                    guard (walker.fileAttributes?[.type] as? FileAttributeType) != .typeDirectory else { continue }
                    let last = item.split(separator: "/").last.map(String.init) ?? item
                    if index[last, default: []].count < 2 { index[last, default: []].append(item) }
                }
            }
            namesIndex = index
        }
        guard let paths = namesIndex?[name], paths.count == 1 else { return nil }
        return paths[0]
    }

    static func realPath(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
