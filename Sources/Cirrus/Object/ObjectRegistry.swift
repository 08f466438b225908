import CirrusModel

/// The classes objects of each class name are made of: registered subclasses (``LCObject/register()``), then
/// `_User` → ``LCUser``, `_Role` → ``LCRole``, `_File` → ``LCFile``, `_Installation` → ``LCInstallation``; others
/// are ``LCObject``s.
enum ObjectRegistry {
    private static let lock = Lock()
    nonisolated(unsafe) private static var registered: [String: LCObject.Type] = [:]

    /// Makes `type` the class of objects of its class name.
    static func register(_ type: LCObject.Type) {
        lock.withLock { registered[type.objectClassName()] = type }
    }

    /// An empty object of `className` for what the server sends: what its initializer set (an ``LCInstallation``'s
    /// fields of this device, a subclass's defaults) is dropped, so that none of it is taken for a change to save.
    static func make(application: LCApplication, className: String) -> LCObject {
        let object = instance(application: application, className: className)
        object.lock.withLock { object.state = LCObject.State() }
        return object
    }

    private static func instance(application: LCApplication, className: String) -> LCObject {
        if let type = lock.withLock({ registered[className] }) { return type.init(application: application) }
        switch className {
        case LCUser.objectClassName(): return LCUser(application: application)
        case LCRole.objectClassName(): return LCRole(application: application)
        case LCFile.objectClassName(): return LCFile(application: application)
        case LCInstallation.objectClassName(): return LCInstallation(application: application)
        default: return LCObject(application: application, className: className)
        }
    }
}

extension LCObject {
    /// Registers this subclass: objects of its ``objectClassName()`` read from the server (query results, pointers,
    /// included objects) are made of it.
    ///
    /// ```swift
    /// final class Product: LCObject, @unchecked Sendable {
    ///     @LCField("name") var name: LCString?
    ///     override class func objectClassName() -> String { "Product" }
    /// }
    /// Product.register()
    /// ```
    public class func register() {
        ObjectRegistry.register(self)
    }
}
