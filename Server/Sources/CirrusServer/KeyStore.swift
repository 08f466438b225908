public import CirrusHTTP
import CirrusModel
import Foundation

/// The app keys kept in `<data dir>/keys.json`: generated on the first start, reused afterwards.
public enum KeyStore {
    public static let fileName = "keys.json"

    /// The stored keys, or new ones written to the data directory; `created` tells which were generated now: all of
    /// them for a new file, or only the hook key, added to a file written before there was one.
    /// - Throws: when the file exists but cannot be read, or cannot be written.
    public static func loadOrCreate(in directory: String) throws -> (keys: AppKeys, created: Created?) {
        let url = URL(fileURLWithPath: directory).appendingPathComponent(fileName)
        if let data = FileManager.default.contents(atPath: url.path) {
            guard case .object(let members) = try JSONParser.parse(Array(data)),
                let appId = members["appId"]?.stringValue, let appKey = members["appKey"]?.stringValue,
                let masterKey = members["masterKey"]?.stringValue
            else { throw KeyStoreError.unreadable(url.path) }
            if let hookKey = members["hookKey"]?.stringValue {
                return (AppKeys(appId: appId, appKey: appKey, masterKey: masterKey, hookKey: hookKey), nil)
            }
            let keys = AppKeys(appId: appId, appKey: appKey, masterKey: masterKey, hookKey: randomKey(24))
            try write(keys, to: url)
            return (keys, .hookKey)
        }
        let keys = AppKeys(appId: randomKey(24), appKey: randomKey(24), masterKey: randomKey(24), hookKey: randomKey(24))
        try write(keys, to: url)
        return (keys, .all)
    }

    /// Which keys ``loadOrCreate(in:)`` generated.
    public enum Created: Sendable {
        case all
        case hookKey
    }

    private static func write(_ keys: AppKeys, to url: URL) throws {
        let json: JSON = [
            "appId": .string(keys.appId), "appKey": .string(keys.appKey), "masterKey": .string(keys.masterKey),
            "hookKey": .string(keys.hookKey ?? ""),
        ]
        guard FileManager.default.createFile(atPath: url.path, contents: Data(JSONWriter.bytes(json)), attributes: [.posixPermissions: 0o600]) else {
            throw KeyStoreError.unwritable(url.path)
        }
    }

    /// Letters and digits from the system's secure random source.
    static func randomKey(_ length: Int) -> String {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }
}

/// Why the key file could not be used.
public enum KeyStoreError: Error, CustomStringConvertible {
    case unreadable(String)
    case unwritable(String)

    public var description: String {
        switch self {
        case .unreadable(let path): "\(path) is not a valid key file (expected appId, appKey, masterKey and perhaps hookKey)."
        case .unwritable(let path): "Cannot write the key file \(path)."
        }
    }
}
