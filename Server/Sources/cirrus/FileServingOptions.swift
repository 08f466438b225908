import ArgumentParser
import CirrusServer

/// Where `cirrus serve` says uploaded files are downloaded from.
struct FileServingOptions: ParsableArguments {
    @Option(help: "Origin file URLs start with instead of --public-url, e.g. https://files.example.com: a domain of its own keeps uploaded content away from the API's origin (CIRRUS_FILE_PUBLIC_URL).")
    var filePublicUrl: String?

    /// Applies the given flag or variable.
    /// - Throws: `ValidationError` for anything but an http(s) URL.
    func apply(_ values: EnvironmentValues, to configuration: inout ServerConfiguration) throws {
        configuration.filePublicURL = try AuthDataOptions.url(values.string(filePublicUrl, "CIRRUS_FILE_PUBLIC_URL"))
    }
}
