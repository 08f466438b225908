/// A failure to start or prepare the moto server, with what to do about it.
struct MotoServerError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
