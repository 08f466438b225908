import ArgumentParser
import CirrusS3
import CirrusServer
import CirrusModel
import CirrusServices
import Foundation

/// The file settings of `cirrus serve`: the file storage, the upload rate limit, the client address behind a proxy,
/// and redirected downloads.
struct FileOptions: ParsableArguments {
    @OptionGroup var storage: FileStorageOptions

    @Option(help: "Uploads one client may start, as N/s, N/min or N/h joined by commas, or off (CIRRUS_UPLOAD_RATE_LIMIT, default 10/s,30/min; LeanCloud's was 1/s,30/min).")
    var uploadRateLimit: String?

    @Option(help: "Header a trusted reverse proxy puts the client address in, e.g. X-Forwarded-For (CIRRUS_CLIENT_IP_HEADER).")
    var clientIpHeader: String?

    @Option(help: "Redirect downloads of /files/<key> to presigned URLs of the bucket valid this many seconds, instead of serving them through Cirrus (CIRRUS_S3_REDIRECT_DOWNLOADS).")
    var s3RedirectDownloads: Int?

    /// Applies the given flags and variables.
    /// - Throws: `ValidationError` for a malformed value or an incomplete S3 setting.
    func apply(_ values: EnvironmentValues, to configuration: inout ServerConfiguration) throws {
        try storage.apply(values, to: &configuration)
        if let limit = values.string(uploadRateLimit, "CIRRUS_UPLOAD_RATE_LIMIT") {
            do {
                configuration.uploadRateLimit = try RateLimit(parsing: limit)
            } catch {
                throw ValidationError(error.message)
            }
        }
        if let header = values.string(clientIpHeader, "CIRRUS_CLIENT_IP_HEADER") {
            guard !header.isEmpty, header.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
                throw ValidationError("'\(header)' is not a header name.")
            }
            configuration.clientAddressHeader = header
        }
        if let seconds = try values.integer(s3RedirectDownloads, "CIRRUS_S3_REDIRECT_DOWNLOADS") {
            guard configuration.s3 != nil else { throw ValidationError("--s3-redirect-downloads needs --s3-endpoint.") }
            guard (1...604_800).contains(seconds) else { throw ValidationError("--s3-redirect-downloads takes 1 to 604800 seconds.") }
            configuration.s3?.downloadRedirectLifetime = .seconds(seconds)
        }
    }
}
