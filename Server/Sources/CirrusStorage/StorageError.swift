package import CirrusModel

/// Why a store could not do what it was asked.
package enum StorageError: Error, Sendable, Equatable {
    /// No object of the class has that id (or the class has no table yet).
    case objectNotFound(className: String, objectId: String)
    /// The object exists but does not satisfy the write's condition.
    case conditionNotMatched
    /// An object with this id already exists.
    case duplicateObjectId(String)
    /// A unique value is already taken: the field whose unique index refused it.
    case duplicateValue(field: String)
    /// The object exists, but no writer of the command may write it.
    case writeDenied
    /// The class does not exist.
    case classNotFound(String)
    /// A class to drop still holds objects.
    case classNotEmpty(count: Int)
    /// The class records another type for the field.
    case typeConflict(field: String, recorded: FieldType, attempted: FieldType)
    /// The document would exceed the size limit.
    case objectTooLarge(size: Int, limit: Int)
    /// The database cannot store a value the object holds (PostgreSQL: a NUL character in a string).
    case unsupportedValue(String)
    /// An earlier write of an all-or-nothing batch failed, so this one was rolled back.
    case rolledBack
    /// The database failed; the message is for logs, not for clients.
    case database(String)
    /// The statement refused what the request asked, for a reason the client caused (a regular expression out of its
    /// budget, a number beyond the largest double): the error the client gets.
    case refused(APIError)
}
