/// The ids that name a device's installation (`deviceToken`, `installationId`). One of 64 hex digits (an APNs token)
/// is kept and compared lower-cased: devices, SDKs and exports send it in either case, and one device must match
/// one installation.
public enum DeviceIdentifier {
    /// The `_Installation` fields that identify a device.
    public static let fields = ["deviceToken", "installationId"]

    /// `text` lower-cased when it is 64 hex digits, else as it is.
    public static func canonical(_ text: String) -> String {
        let isHexToken = text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }
        return isHexToken ? text.lowercased() : text
    }
}
