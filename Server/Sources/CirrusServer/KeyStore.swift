public import CirrusHTTP
import CirrusModel
import Foundation

/// The app keys kept in `<data dir>/keys.json`: generated on the first start, reused afterwards.
public enum KeyStore {
    public static let fileName = "keys.json"

    /// The stored keys, or new ones written to the data directory; `created` tells which.
    /// - Throws: when the file exists but cannot be read, or cannot be written.
    public static func loadOrCreate(in directory: String) throws -> (keys: AppKeys, created: Bool) {
        let url = URL(fileURLWithPath: directory).appendingPathComponent(fileName)
        if let data = FileManager.default.contents(atPath: url.path) {
            guard case .object(let members) = try JSONParser.parse(Array(data)),
                let appId = members["appId"]?.stringValue, let appKey = members["appKey"]?.stringValue,
                let masterKey = members["masterKey"]?.stringValue
            else { throw KeyStoreError.unreadable(url.path) }
            return (AppKeys(appId: appId, appKey: appKey, masterKey: masterKey), false)
        }
        let keys = AppKeys(appId: randomKey(24), appKey: randomKey(24), masterKey: randomKey(24))
        let json: JSON = ["appId": .string(keys.appId), "appKey": .string(keys.appKey), "masterKey": .string(keys.masterKey)]
        guard FileManager.default.createFile(atPath: url.path, contents: Data(JSONWriter.bytes(json)), attributes: [.posixPermissions: 0o600]) else {
            throw KeyStoreError.unwritable(url.path)
        }
        return (keys, true)
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
        case .unreadable(let path): "\(path) is not a valid key file (expected appId, appKey and masterKey)."
        case .unwritable(let path): "Cannot write the key file \(path)."
        }
    }
}
