package import CirrusModel
package import CirrusServices
package import CirrusStorage

/// One change record as its events show it: the record, its class's schema, and the objects its events show, each
/// made once per way of showing it (``LiveObject``) and shared by every subscriber that sees it alike.
package final class LiveRecord: Sendable {
    /// Which of the record's objects an event shows: the object before the write or after it.
    enum Image: Hashable {
        case before, after
    }

    /// What decides how an object is shown: the image, the subscriber's audience for its fields, `returnACL` and `keys`.
    struct Variant: Hashable {
        var image: Image
        var audience: FieldVisibility.Audience
        var returnACL: Bool
        var selection: KeySelection?
    }

    package let change: ChangeRecord
    /// The class's schema as it is now.
    package let schema: ClassSchema?
    let visibility: FieldVisibility
    private let lock = Lock()
    nonisolated(unsafe) private var shown: [Variant: LiveObject] = [:]

    package init(_ change: ChangeRecord, schema: ClassSchema?, visibility: FieldVisibility) {
        self.change = change
        self.schema = schema
        self.visibility = visibility
    }

    /// The record's object before or after the write.
    func object(_ image: Image) -> StoredObject? {
        image == .before ? change.before : change.after
    }

    /// The object of `image` (which the record has) as `subscription`, acting as `caller`, may see it: redacted as every
    /// read is, its ACL only when the subscription asked for it, only the subscription's `keys` when it has some.
    func shown(_ image: Image, to caller: Caller, for subscription: LiveSubscription) -> LiveObject {
        guard let object = object(image) else { preconditionFailure("a LiveQuery event shows an object the record does not have") }
        let variant = Variant(
            image: image, audience: visibility.audience(of: object, for: caller), returnACL: subscription.returnACL, selection: subscription.selection
        )
        return lock.withLock {
            if let made = shown[variant] { return made }
            let made = LiveObject(show(object, as: variant), showsACL: variant.returnACL)
            shown[variant] = made
            return made
        }
    }

    private func show(_ object: StoredObject, as variant: Variant) -> StoredObject {
        var object = object
        visibility.redact(&object, schema: schema, audience: variant.audience)
        if !variant.returnACL { object.acl = nil }
        if let selection = variant.selection { KeyProjection.apply(selection, to: &object.fields) }
        return object
    }
}
