import CirrusModel
import HTTPTypes
import CirrusServices
import Logging

/// Turns any error thrown by a handler into the dialect's JSON error reply.
enum ErrorReply {
    static let logger = Logger(label: "cirrus.http")

    static func response(for error: any Error, dialect: Dialect) -> APIResponse {
        let apiError: APIError
        if let known = error as? APIError {
            apiError = known
        } else {
            logger.error("unexpected error", metadata: ["error": "\(String(reflecting: error))"])
            apiError = APIError(.internalError, "Internal server error.")
        }
        let wire = dialect.wireError(for: apiError)
        return APIResponse(status: .init(code: wire.status), body: wire.body)
    }
}
