import CirrusModel

/// A friend request (`_FriendshipRequest`): `user` asked `friend` to be friends; `status` is `pending`, `accepted` or
/// `declined`.
///
/// ```swift
/// let request = try await tom.requestFriendship(with: jerryId, attributes: ["group": "school"])
/// // Jerry, on his device:
/// let pending = try await jerry.friendshipRequestQuery().find()     // LCFriendshipRequests, `user` included
/// try await jerry.acceptFriendshipRequest(pending[0], attributes: ["group": "work"])
/// try await jerry.friendshipQuery().find()                           // now holds Tom
/// ```
/// Asking makes the requester follow the friend with `friendStatus: false`; accepting makes both follow each other with
/// `friendStatus: true`; declining leaves the requester's follow. A request is answered once (the server answers 305
/// the second time) and is readable by its two users only.
open class LCFriendshipRequest: LCObject, @unchecked Sendable {
    open override class func objectClassName() -> String { "_FriendshipRequest" }

    /// A request known by its id (from a push, a status, …), to accept or decline it.
    public convenience init(application: LCApplication = .default, objectId: String) {
        self.init(application: application)
        lock.withLock { state.objectId = objectId }
    }

    /// The user who asked.
    public var user: LCUser? { self.get("user") as? LCUser }

    /// The user asked.
    public var friend: LCUser? { self.get("friend") as? LCUser }

    /// `pending`, `accepted` or `declined`.
    public var status: LCString? { self.get("status") as? LCString }

    /// Makes objects of `_FriendshipRequest` read from the server ``LCFriendshipRequest``s, unless the app registered a
    /// class of its own for them.
    static func registerUnlessRegistered(application: LCApplication) {
        let made = ObjectRegistry.make(application: application, className: objectClassName())
        if type(of: made) == LCObject.self { register() }
    }
}
