/// The classes objects of the built-in class names are made of: `_User` → ``LCUser``, `_Role` → ``LCRole``,
/// `_File` → ``LCFile``, `_Installation` → ``LCInstallation``; others are ``LCObject``s.
enum ObjectRegistry {
    static func make(application: LCApplication, className: String) -> LCObject {
        switch className {
        case LCUser.objectClassName(): LCUser(application: application)
        case LCRole.objectClassName(): LCRole(application: application)
        case LCFile.objectClassName(): LCFile(application: application)
        case LCInstallation.objectClassName(): LCInstallation(application: application)
        default: LCObject(application: application, className: className)
        }
    }
}
