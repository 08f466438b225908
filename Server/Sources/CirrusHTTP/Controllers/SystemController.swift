import CirrusModel
import HTTPTypes

/// Endpoints that need no credentials: server time.
struct SystemController: Sendable {
    func register(on router: inout APIRouter) {
        router.on(.get, "date", dialects: [.leancloud, .parse], authenticated: false) { _ in
            APIResponse(body: .date(Timestamp.now()))
        }
        router.on(.get, "timestamp", dialects: [.bmob], authenticated: false) { _ in
            let now = Timestamp.now()
            return APIResponse(body: [
                "timestamp": .int(now.millisecondsSince1970 / 1000), "datetime": .string(Dialect.bmob.format(now)),
            ])
        }
        router.on(.get, "health", authenticated: false) { _ in APIResponse(body: ["status": "ok"]) }
    }

}
