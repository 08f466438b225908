import ArgumentParser
import CirrusS3
import CirrusServer
import CirrusModel
import CirrusServices
import Foundation

/// The file settings of `cirrus serve`: the size limit, and where contents are kept (the data directory, or an
/// S3-compatible bucket).
struct FileOptions: ParsableArguments {
    @Option(help: "Largest uploaded file, in bytes (CIRRUS_MAX_FILE_SIZE, default 20971520).")
    var maxFileSize: Int?

    @Option(help: "Uploads one client may start, as N/s, N/min or N/h joined by commas, or off (CIRRUS_UPLOAD_RATE_LIMIT, default 10/s,30/min; LeanCloud's was 1/s,30/min).")
    var uploadRateLimit: String?

    @Option(help: "Header a trusted reverse proxy puts the client address in, e.g. X-Forwarded-For (CIRRUS_CLIENT_IP_HEADER).")
    var clientIpHeader: String?

    @Option(help: "Endpoint of an S3-compatible store; with it, file contents go to --s3-bucket (CIRRUS_S3_ENDPOINT).")
    var s3Endpoint: String?

    @Option(help: "Bucket of file contents (CIRRUS_S3_BUCKET).")
    var s3Bucket: String?

    @Option(help: "Region the requests are signed for (CIRRUS_S3_REGION, default us-east-1).")
    var s3Region: String?

    @Option(help: "Access key id (CIRRUS_S3_ACCESS_KEY_ID).")
    var s3AccessKeyId: String?

    @Option(help: "Secret access key (CIRRUS_S3_SECRET_ACCESS_KEY).")
    var s3SecretAccessKey: String?

    @Option(help: "Prefix of the object names, e.g. files/ (CIRRUS_S3_KEY_PREFIX).")
    var s3KeyPrefix: String?

    @Flag(inversion: .prefixedNo, help: "Address the bucket as <bucket>.<host> instead of <host>/<bucket> (CIRRUS_S3_VIRTUAL_HOST).")
    var s3VirtualHost: Bool?

    @Option(help: "Redirect downloads of /files/<key> to presigned URLs of the bucket valid this many seconds, instead of serving them through Cirrus (CIRRUS_S3_REDIRECT_DOWNLOADS).")
    var s3RedirectDownloads: Int?

    /// Applies the given flags and variables.
    /// - Throws: `ValidationError` for a malformed value or an incomplete S3 setting.
    func apply(_ values: EnvironmentValues, to configuration: inout ServerConfiguration) throws {
        if let size = try values.integer(maxFileSize, "CIRRUS_MAX_FILE_SIZE") {
            guard size > 0 else { throw ValidationError("The maximum file size must be positive.") }
            configuration.maximumFileSize = size
        }
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
        let redirectSeconds = try values.integer(s3RedirectDownloads, "CIRRUS_S3_REDIRECT_DOWNLOADS")
        guard let endpoint = values.string(s3Endpoint, "CIRRUS_S3_ENDPOINT") else {
            if redirectSeconds != nil { throw ValidationError("--s3-redirect-downloads needs --s3-endpoint.") }
            return
        }
        guard let url = URL(string: endpoint), let bucket = values.string(s3Bucket, "CIRRUS_S3_BUCKET"),
            let accessKey = values.string(s3AccessKeyId, "CIRRUS_S3_ACCESS_KEY_ID"),
            let secret = values.string(s3SecretAccessKey, "CIRRUS_S3_SECRET_ACCESS_KEY")
        else {
            throw ValidationError("An S3 endpoint needs a valid URL, --s3-bucket, --s3-access-key-id and --s3-secret-access-key.")
        }
        configuration.s3 = S3Configuration(
            endpoint: url, region: values.string(s3Region, "CIRRUS_S3_REGION") ?? "us-east-1", bucket: bucket, accessKeyID: accessKey,
            secretAccessKey: secret, addressing: try values.bool(s3VirtualHost, "CIRRUS_S3_VIRTUAL_HOST") == true ? .virtualHost : .pathStyle,
            keyPrefix: values.string(s3KeyPrefix, "CIRRUS_S3_KEY_PREFIX") ?? ""
        )
        if let seconds = redirectSeconds {
            guard (1...604_800).contains(seconds) else { throw ValidationError("--s3-redirect-downloads takes 1 to 604800 seconds.") }
            configuration.s3?.downloadRedirectLifetime = .seconds(seconds)
        }
    }
}
