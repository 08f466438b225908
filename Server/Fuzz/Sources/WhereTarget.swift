import CirrusModel

/// The `where` decoder (operators, geo, sub-queries, relations) and the SQL it compiles to: a JSON text decodes to a
/// condition or to an error a client caused (never an internal one), the same every time, and its SQL keeps its shape.
enum WhereTarget {
    /// LeanCloud and Parse; Bmob (Beijing time, a 100 km `$nearSphere` without a distance).
    static let dialectOptions = [ConditionOptions(), ConditionOptions(defaultOffsetMinutes: 480, defaultMaximumDistance: 100 / Condition.earthRadiusKilometers)]

    static func run(_ input: [UInt8]) {
        guard let json = try? JSONParser.parse(input) else { return }
        for options in dialectOptions {
            let condition: Condition
            do {
                condition = try Condition(where: json, options: options)
            } catch {
                FuzzCheck.that(error.reason != .internalError, "an internal error from a client's where: \(error)")
                continue
            }
            FuzzCheck.that((try? Condition(where: json, options: options)) == condition, "decoding the same where twice differs")
            SQLShape.checkFind(Query(className: "Fuzz", condition: condition))
        }
    }
}
