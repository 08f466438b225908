package import CirrusMigration
package import CirrusLiveQuery
package import CirrusServices

/// Every service of an app, built once by the composition root (`CirrusServer.build`); the HTTP layer only routes
/// requests to them (``HTTPServices/makeResponder(_:keys:maximumBodySize:liveQuery:logger:)``).
package struct AppServices: Sendable {
    package let objects: ObjectService
    package let users: UserService
    package let verification: VerificationService
    package let files: FileService
    package let cloudQuery: CloudQueryService
    package let schema: SchemaService
    package let exports: ExportJobs
    package let liveQuery: LiveQueryService
    package let push: PushService
    /// The app's cloud-code engine (also in ``objects``' configuration, for the hooks); `nil` for none.
    package var engine: CloudEngine? { objects.configuration.engine }
    /// The scheduled jobs' API, with the app's cloud code; `nil` without.
    package var jobs: ScheduledJobs? {
        engine.map { ScheduledJobs(store: objects.store, scheduler: JobScheduler(engine: $0, store: objects.store, logger: objects.logger)) }
    }

    package init(
        objects: ObjectService, users: UserService, verification: VerificationService, files: FileService, cloudQuery: CloudQueryService,
        schema: SchemaService, exports: ExportJobs, liveQuery: LiveQueryService, push: PushService
    ) {
        self.liveQuery = liveQuery
        self.push = push
        self.objects = objects
        self.users = users
        self.verification = verification
        self.files = files
        self.cloudQuery = cloudQuery
        self.schema = schema
        self.exports = exports
    }
}
