import ArgumentParser
import CirrusS3
import CirrusServer
import Foundation

/// Where file contents are kept, shared by `serve`, `import` and `export`: the data directory, or an S3-compatible
/// bucket; and the largest file.
struct FileStorageOptions: ParsableArguments {
    @Option(help: "Largest file, in bytes (CIRRUS_MAX_FILE_SIZE, default 20971520).")
    var maxFileSize: Int?

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

    /// Applies the given flags and variables.
    /// - Throws: `ValidationError` for a malformed value or an incomplete S3 setting.
    func apply(_ values: EnvironmentValues, to configuration: inout ServerConfiguration) throws {
        if let size = try values.integer(maxFileSize, "CIRRUS_MAX_FILE_SIZE") {
            guard size > 0 else { throw ValidationError("The maximum file size must be positive.") }
            configuration.maximumFileSize = size
        }
        guard let endpoint = values.string(s3Endpoint, "CIRRUS_S3_ENDPOINT") else { return }
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
    }
}
