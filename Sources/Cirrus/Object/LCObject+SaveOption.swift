extension LCObject {
    /// How a save is made.
    public enum SaveOption: Sendable {
        /// Save only when the object matches `query` on the server (`where`); otherwise the save fails with code
        /// 305 and nothing changes.
        case query(LCQuery)
        /// Return the saved fields' values from the server (`fetchWhenSave=true`), for atomic operations.
        case fetchWhenSave
    }
}

extension [LCObject.SaveOption] {
    /// The query parameters of these options.
    var parameters: [(String, String)] {
        var parameters: [(String, String)] = []
        for option in self {
            switch option {
            case .fetchWhenSave: parameters.append(("fetchWhenSave", "true"))
            case .query(let query): parameters.append(("where", query.whereText))
            }
        }
        return parameters
    }
}
