public import CirrusMigration
public import CirrusServices

/// Every service of an app, built once by the composition root (`CirrusServer.build`); the HTTP layer only routes
/// requests to them (``HTTPServices/makeResponder(_:keys:maximumBodySize:logger:)``).
public struct AppServices: Sendable {
    public let objects: ObjectService
    public let users: UserService
    public let verification: VerificationService
    public let files: FileService
    public let cloudQuery: CloudQueryService
    public let schema: SchemaService
    public let exports: ExportJobs

    public init(
        objects: ObjectService, users: UserService, verification: VerificationService, files: FileService, cloudQuery: CloudQueryService,
        schema: SchemaService, exports: ExportJobs
    ) {
        self.objects = objects
        self.users = users
        self.verification = verification
        self.files = files
        self.cloudQuery = cloudQuery
        self.schema = schema
        self.exports = exports
    }
}
