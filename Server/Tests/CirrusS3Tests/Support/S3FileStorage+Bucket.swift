@testable import CirrusS3
import CirrusStorage

extension S3FileStorage {
    /// Creates the configured bucket (in `us-east-1`, which needs no location constraint).
    func createBucket() async throws {
        let response = try await send(endpoint.request("PUT", key: nil))
        guard response.isSuccess || response.errorCode == "BucketAlreadyOwnedByYou" else { throw response.failure("PUT bucket") }
    }
}
