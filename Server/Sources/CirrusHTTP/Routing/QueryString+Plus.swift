extension QueryString {
    /// The `User-Agent` of the LeanCloud Python SDK (`AVOS Cloud python-<version> SDK (<Python version>)`).
    static let pythonSDKAgent = "AVOS Cloud python-"

    /// How `+` is read in the query of a request: form-style, except in the `where` of an update the LeanCloud
    /// Python SDK sends (identified by its `User-Agent`). Apart from QueryString.swift, which the fuzz build compiles
    /// without the dialects.
    static func plus(method: String, userAgent: String?, dialect: Dialect) -> Plus {
        dialect == .leancloud && method == "PUT" && userAgent?.hasPrefix(pythonSDKAgent) == true ? .literalInWhere : .space
    }
}
