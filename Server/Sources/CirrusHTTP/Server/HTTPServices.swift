import CirrusServices
import CirrusModel
package import Logging

/// Builds the endpoint table from the services.
package enum HTTPServices {
    /// The responder for an app: every endpoint, authentication and the error map, over services built by the
    /// composition root.
    /// - Parameters:
    ///   - liveQuery: whether LiveQuery's REST endpoints are served (`--livequery`).
    ///   - dashboard: the web console's files, or `nil` when the console is turned off (`--dashboard false`).
    ///   - requestLogFile: the file every answered request is written to (`--request-log`), if any.
    package static func makeResponder(
        _ services: AppServices, keys: AppKeys, maximumBodySize: Int, liveQuery: Bool = true, dashboard: DashboardAssets? = DashboardAssets(),
        requestLogFile: RequestLogFile? = nil, logger: Logger
    ) -> CirrusResponder {
        let (objects, users, verification, files) = (services.objects, services.users, services.verification, services.files)
        let objectsController = ObjectsController(objects: objects)
        let routerBox = RouterBox()
        var router = APIRouter()
        SystemController().register(on: &router)
        // Before the object endpoints: `POST /classes/_User` is a sign-up.
        let usersController = UsersController(users: users, objects: objectsController, verification: verification)
        usersController.register(on: &router)
        VerificationController(verification: verification, users: usersController).register(on: &router)
        AccountMailController(verification: verification).register(on: &router)
        SessionsController(users: users, objects: objectsController).register(on: &router)
        // Before the object endpoints: deleting a `_File` row removes its content.
        FilesController(files: files, objects: objectsController).register(on: &router)
        // Before the object endpoints: `POST /classes/_Installation` is an upsert.
        InstallationsController(installations: InstallationService(objects: objects), objects: objectsController).register(on: &router)
        // Before the object endpoints: Parse's `classes/_PushStatus` is the push records.
        PushController(push: services.push).register(on: &router)
        let friendships = FriendshipService(objects: objects)
        FriendshipController(
            friendships: friendships, requests: FriendRequestService(objects: objects, friendships: friendships), objects: objectsController
        ).register(on: &router)
        StatusesController(statuses: StatusService(objects: objects), objects: objectsController).register(on: &router)
        SearchController(
            search: SearchService(objects: objects), cursors: SearchCursorCodec(masterKey: keys.masterKey), limits: objects.configuration.queryLimits
        ).register(on: &router)
        objectsController.register(on: &router)
        ScanController(objects: objects, cursors: ScanCursorCodec(masterKey: keys.masterKey)).register(on: &router)
        ExportDataController(jobs: services.exports, appId: keys.appId, fileURLBase: objects.configuration.fileURLBase).register(on: &router)
        CloudQueryController(cloudQuery: services.cloudQuery).register(on: &router)
        FunctionsController(engine: services.engine).register(on: &router)
        WebhooksController(webhooks: services.engine?.webhooks).register(on: &router)
        if let jobs = services.jobs { JobsController(jobs: jobs).register(on: &router) }
        SchemaController(schemas: services.schema).register(on: &router)
        if liveQuery { LiveQueryController(liveQuery: services.liveQuery).register(on: &router) }
        BatchController(objects: objects, users: users, router: { routerBox.router }).register(on: &router)
        routerBox.router = router
        var responder = CirrusResponder(
            router: router, authenticator: Authenticator(keys: keys), users: users, maximumBodySize: maximumBodySize,
            maximumUploadSize: files.settings.maximumSize, logger: logger,
            pages: AccountPagesController(verification: verification, logger: logger), downloads: FileDownloads(files: files)
        )
        responder.exports = ExportDownloads(jobs: services.exports)
        let requestLog = RequestLog(file: requestLogFile)
        if dashboard != nil || requestLogFile != nil { responder.requestLog = requestLog }
        if let dashboard {
            responder.dashboard = DashboardController(
                service: DashboardService(users: users), keys: keys, assets: dashboard, requestLog: requestLog, logger: logger
            )
        }
        return responder
    }
}

/// Lets the batch endpoint reach the finished router it belongs to.
final class RouterBox: @unchecked Sendable {
    private var value = APIRouter()
    private let lock = Lock()

    var router: APIRouter {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
