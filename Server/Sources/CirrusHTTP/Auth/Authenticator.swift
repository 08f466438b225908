import CirrusModel
import CirrusServices
import Crypto

/// Checks a request's app id and key (or signature) and decides whether it has master rights.
struct Authenticator: Sendable {
    let keys: AppKeys

    /// The caller for valid credentials.
    /// - Throws: ``APIError`` ``APIError/Reason/unauthorized`` for a missing or wrong app id, key or signature.
    func authenticate(_ credentials: Credentials) throws(APIError) -> Caller {
        var caller = try authenticateKeys(credentials)
        if let hookKey = credentials.hookKey, let expected = keys.hookKey, !expected.isEmpty {
            caller.holdsHookKey = Self.equal(hookKey, expected)
        }
        return caller
    }

    /// The caller the app id and key, master key or signature make.
    private func authenticateKeys(_ credentials: Credentials) throws(APIError) -> Caller {
        guard let appId = credentials.appId, Self.equal(appId, keys.appId) else { throw Self.unauthorized }
        if let masterKey = credentials.masterKey {
            guard Self.equal(masterKey, keys.masterKey) else { throw Self.unauthorized }
            return .master
        }
        if let signature = credentials.signature {
            return Caller(isMaster: try verify(signature: signature))
        }
        guard let key = credentials.key else { throw Self.unauthorized }
        let parts = key.split(separator: ",", maxSplits: 1).map(String.init)
        if parts.count == 2, parts[1] == "master" {
            guard !credentials.keyFromBody, Self.equal(parts[0], keys.masterKey) else { throw Self.unauthorized }
            return .master
        }
        guard Self.equal(key, keys.appKey) else { throw Self.unauthorized }
        return .anonymous
    }

    /// `sign,timestamp[,master]` with `sign = md5(timestamp + key)` in lowercase hex; any timestamp age is
    /// accepted, as LeanCloud does. Returns whether it was signed with the master key.
    private func verify(signature: String) throws(APIError) -> Bool {
        let parts = signature.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 || (parts.count == 3 && parts[2] == "master"), !parts[1].isEmpty,
            parts[1].allSatisfy({ $0.isASCII && $0.isNumber })
        else { throw Self.unauthorized }
        let isMaster = parts.count == 3
        let expected = Self.md5Hex(parts[1] + (isMaster ? keys.masterKey : keys.appKey))
        guard Self.equal(parts[0], expected) else { throw Self.unauthorized }
        return isMaster
    }

    static func md5Hex(_ text: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        for byte in Insecure.MD5.hash(data: Array(text.utf8)) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// Compares secrets in time independent of where they differ.
    static func equal(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        var difference = UInt8(left.count == right.count ? 0 : 1)
        for index in 0..<max(left.count, right.count) {
            difference |= (index < left.count ? left[index] : 0) ^ (index < right.count ? right[index] : 0)
        }
        return difference == 0
    }

    static let unauthorized = APIError(.unauthorized, "Unauthorized.")
}
