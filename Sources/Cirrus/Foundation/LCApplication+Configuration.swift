public import Foundation

extension LCApplication {
    /// How an app reaches its server and keeps its current user.
    public struct Configuration: Sendable {
        /// What carries requests; by default URLSession.
        public var transport: any Transport
        /// Where the current user is kept across launches.
        public var currentUserStorage: CurrentUserStorage
        /// `true` (the LeanCloud SDKs' way) to send `X-LC-Sign: md5(timestamp + key),timestamp`; `false` to send the
        /// key itself as `X-LC-Key`.
        public var signsRequests: Bool
        /// Where query results are cached (``LCQuery/CachePolicy``), under `<directory>/<app id>/queries`; `nil` for
        /// the platform's caches directory (`~/Library/Caches/cirrus`, `$XDG_CACHE_HOME/cirrus` or `~/.cache/cirrus`).
        public var queryCacheDirectory: URL?

        public init(
            transport: any Transport = URLSessionTransport(), currentUserStorage: CurrentUserStorage = .automatic,
            signsRequests: Bool = true, queryCacheDirectory: URL? = nil
        ) {
            self.transport = transport
            self.currentUserStorage = currentUserStorage
            self.signsRequests = signsRequests
            self.queryCacheDirectory = queryCacheDirectory
        }

        /// URLSession, the platform's storage for the current user, signed requests.
        public static var `default`: Configuration { Configuration() }
    }

    /// Where the current user is kept across launches.
    public enum CurrentUserStorage: Sendable {
        /// The Keychain on Apple platforms; elsewhere a file under `$XDG_DATA_HOME` (or `~/.local/share`)
        /// `/cirrus/<app id>/currentUser.json`.
        case automatic
        /// A file in this directory (`<directory>/<app id>/currentUser.json`).
        case directory(URL)
        /// Not kept: the current user lasts as long as the process.
        case none
    }
}
