/// The version of this build of Cirrus, as `cirrus --version` and the console's settings show it.
public enum CirrusVersion {
    public static let current = "0.9.0"
}
