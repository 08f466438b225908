package import CirrusModel
package import CirrusStorage

extension StorageError {
    /// The client-facing reason for a store failure; database details stay in the logs.
    package func apiError(className: String) -> APIError {
        switch self {
        case .objectNotFound(_, let objectId):
            APIError(.objectNotFound, "Could not find object by id '\(objectId)' for class '\(className)'.")
        case .conditionNotMatched:
            APIError(.conditionNotMatched, "No effect on updating/deleting a document.")
        case .duplicateObjectId(let id):
            APIError(.duplicateValue, "An object with this objectId already exists. \(id)")
        case .duplicateValue(let field):
            switch (className, field) {
            case ("_User", "username"): APIError(.usernameTaken, "Username has already been taken.")
            case ("_User", "email"): APIError(.emailTaken, "Email has already been taken.")
            case ("_User", "mobilePhoneNumber"): APIError(.mobilePhoneNumberTaken, "Mobile phone number has already been taken.")
            case ("_User", "authData"): APIError(.authDataTaken, "This third-party account is already linked to another user.")
            case ("_Role", "name"): APIError(.duplicateValue, "A role with this name already exists.")
            default: APIError(.duplicateValue, "A unique field was given a value that is already taken.")
            }
        case .writeDenied:
            APIError(.writeDenied, "Forbidden writing by object's ACL.")
        case .typeConflict(let field, let recorded, let attempted):
            APIError(.incorrectType, "Invalid value type for field '\(field)': expected \(recorded) but got \(attempted).")
        case .objectTooLarge(let size, let limit):
            APIError(.objectTooLarge, "The object is too large: \(size) bytes, the limit is \(limit) bytes.")
        case .classNotFound(let name):
            APIError(.classNotFound, "Class \(name) does not exist.")
        case .classNotEmpty(let count):
            APIError(.classNotEmpty, "Class \(className) is not empty, contains \(count) objects, cannot drop schema.")
        case .unsupportedValue(let detail):
            APIError(.incorrectType, "The database cannot store this value: \(detail).")
        case .rolledBack:
            APIError(.internalError, "Rolled back because another request of the transaction failed.")
        case .database:
            APIError(.internalError, "Internal server error.")
        case .refused(let error):
            error
        }
    }
}
