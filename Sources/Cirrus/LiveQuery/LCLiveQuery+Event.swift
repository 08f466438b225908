import CirrusModel

extension LCLiveQuery {
    /// What happened to an object of the live query's results (seed 001 LQ-04–08), or to its connection.
    public enum Event: Sendable {
        /// A new object matches the query.
        case create(object: LCObject)
        /// An object that matched still matches after an update; `updatedKeys` are the keys the update touched.
        case update(object: LCObject, updatedKeys: [String])
        /// An existing object matches after an update, not before; `object` is its new state.
        case enter(object: LCObject, updatedKeys: [String])
        /// An object that matched does not after an update; `object` is its new state.
        case leave(object: LCObject, updatedKeys: [String])
        /// An object that matched was deleted; `object` is its last state.
        case delete(object: LCObject)
        /// A user matching a `_User` live query logged in.
        case login(user: LCUser)
        /// The connection dropped and is back, the subscription renewed. `complete`: the server replayed every change
        /// of the drop, so no event was lost; `false` when it could not (a long drop, a restarted server): reload
        /// what you show from a query.
        case reconnected(complete: Bool)
    }
}

extension LCLiveQuery.Event {
    /// The event of a LiveQuery message (`{query_id, op, object, updatedKeys}`), its object decoded for
    /// `application`; `nil` for an operation the SDK does not know.
    init?(message: [String: JSON], application: LCApplication) {
        guard let op = message["op"]?.stringValue, let json = message["object"], json.objectValue != nil else { return nil }
        let className = json["className"]?.stringValue ?? ""
        let object = ObjectDecoder(application: application).object(json, className: className)
        let keys = message["updatedKeys"]?.arrayValue?.compactMap(\.stringValue) ?? []
        switch op {
        case "create": self = .create(object: object)
        case "update": self = .update(object: object, updatedKeys: keys)
        case "enter": self = .enter(object: object, updatedKeys: keys)
        case "leave": self = .leave(object: object, updatedKeys: keys)
        case "delete": self = .delete(object: object)
        case "login":
            guard let user = object as? LCUser else { return nil }
            self = .login(user: user)
        default: return nil
        }
    }
}
