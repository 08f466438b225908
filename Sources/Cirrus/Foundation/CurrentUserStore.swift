import CirrusModel
import Foundation
#if canImport(Security)
import Security
#endif

/// Reads and writes the current user's snapshot (its JSON) where ``LCApplication/CurrentUserStorage`` says; with
/// `name` `currentInstallation`, the current installation's, beside it.
struct CurrentUserStore {
    let storage: LCApplication.CurrentUserStorage
    let appId: String
    /// The item: the file `<name>.json`, the Keychain service `cirrus.<name>.<app id>`.
    var name = "currentUser"

    /// The stored snapshot, or `nil` when none is stored or it does not parse.
    func load() -> JSON? {
        guard let bytes = read() else { return nil }
        return try? JSONParser.parse(bytes)
    }

    /// Stores `snapshot`, or removes the stored one for `nil`. Failures are ignored: the user stays logged in (the
    /// installation stays current) for this launch.
    func save(_ snapshot: JSON?) {
        if let snapshot {
            write(Data(JSONWriter.bytes(snapshot)))
        } else {
            remove()
        }
    }

    private func read() -> Data? {
        switch storage {
        case .none: return nil
        case .directory(let directory): return try? Data(contentsOf: fileURL(in: directory))
        case .automatic:
            #if canImport(Security)
            return Keychain.read(service: service)
            #else
            return try? Data(contentsOf: fileURL(in: Self.dataDirectory))
            #endif
        }
    }

    private func write(_ data: Data) {
        switch storage {
        case .none: return
        case .directory(let directory): writeFile(data, in: directory)
        case .automatic:
            #if canImport(Security)
            Keychain.write(data, service: service)
            #else
            writeFile(data, in: Self.dataDirectory)
            #endif
        }
    }

    private func remove() {
        switch storage {
        case .none: return
        case .directory(let directory): try? FileManager.default.removeItem(at: fileURL(in: directory))
        case .automatic:
            #if canImport(Security)
            Keychain.remove(service: service)
            #else
            try? FileManager.default.removeItem(at: fileURL(in: Self.dataDirectory))
            #endif
        }
    }

    private var service: String { "cirrus.\(name).\(appId)" }

    private func fileURL(in directory: URL) -> URL {
        directory.appendingPathComponent(appId, isDirectory: true).appendingPathComponent(name + ".json")
    }

    private func writeFile(_ data: Data, in directory: URL) {
        let file = fileURL(in: directory)
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? data.write(to: file, options: .atomic)
        try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    }

    /// Application Support's `cirrus` folder on Apple platforms (where `.automatic` uses the Keychain, and
    /// `homeDirectoryForCurrentUser` does not exist on iOS, tvOS and watchOS); elsewhere `$XDG_DATA_HOME/cirrus`, or
    /// `~/.local/share/cirrus`.
    static var dataDirectory: URL {
        #if canImport(Darwin)
        let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return support.appendingPathComponent("cirrus", isDirectory: true)
        #else
        if let xdg = ProcessInfo.processInfo.environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("cirrus", isDirectory: true)
        }
        return FileManager.default.homeDirectoryForCurrentUser
            .appendingPathComponent(".local/share/cirrus", isDirectory: true)
        #endif
    }
}

#if canImport(Security)
/// The current user's snapshot as a generic password item of the Keychain.
enum Keychain {
    static func read(service: String) -> Data? {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecReturnData as String: true, kSecMatchLimit as String: kSecMatchLimitOne,
        ]
        var item: CFTypeRef?
        guard SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess else { return nil }
        return item as? Data
    }

    static func write(_ data: Data, service: String) {
        remove(service: service)
        let item: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock, kSecValueData as String: data,
        ]
        SecItemAdd(item as CFDictionary, nil)
    }

    static func remove(service: String) {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service]
        SecItemDelete(query as CFDictionary)
    }
}
#endif
