import CirrusModel
import CirrusServices
import Testing

@Suite("A push's data as an Apple notification")
struct APNsPayloadTests {
    static let token = String(repeating: "ab", count: 32)

    struct Case: Sendable, CustomTestStringConvertible {
        var data: JSON
        var payload: JSON
        var pushType = "alert"
        var priority = 10
        var collapseId: String?
        var testDescription: String { JSONWriter.string(data) }
    }

    static let cases: [Case] = [
        // alert keys in aps, custom keys beside it
        Case(data: ["alert": "Hi", "sound": "default", "game": "chess"], payload: ["aps": ["alert": "Hi", "sound": "default"], "game": "chess"]),
        // a silent notification: background, priority 5
        Case(data: ["content-available": 1, "k": "v"], payload: ["aps": ["content-available": 1], "k": "v"], pushType: "background", priority: 5),
        // headers taken out of the payload
        Case(data: ["alert": "Hi", "collapse-id": "c1", "apns-priority": 5], payload: ["aps": ["alert": "Hi"]], priority: 5, collapseId: "c1"),
        // a raw aps payload goes as it is
        Case(
            data: ["aps": ["alert": ["title": "T", "body": "B"], "mutable-content": 1], "x": 1],
            payload: ["aps": ["alert": ["title": "T", "body": "B"], "mutable-content": 1], "x": 1]
        ),
        // the ios override wins; other platforms' keys never reach Apple
        Case(data: ["alert": "generic", "ios": ["alert": "for iOS", "badge": 2], "android": ["title": "A"]], payload: ["aps": ["alert": "for iOS", "badge": 2]]),
        Case(data: ["alert": "generic", "android": ["title": "A"], "fcm": ["x": 1]], payload: ["aps": ["alert": "generic"]]),
    ]

    @Test("data becomes aps, custom keys and headers as APNs reads them", arguments: cases)
    func payload(_ example: Case) {
        let notification = APNsPayload.notification(data: example.data.objectValue!, deviceToken: Self.token, topic: "t")
        #expect(notification.payload == example.payload)
        #expect(notification.pushType == example.pushType)
        #expect(notification.priority == example.priority)
        #expect(notification.collapseId == example.collapseId)
    }

    static let increments: [(JSON, Int?)] = [
        (["alert": "x", "badge": "Increment"], 1),
        (["alert": "x", "badge": ["__op": "Increment", "amount": 3]], 3),
        (["aps": ["badge": "Increment"]], 1),
        (["alert": "x", "badge": 5], nil),
        (["alert": "x"], nil),
    ]

    @Test("a badge increment is the device's badge after it", arguments: increments)
    func badge(data: JSON, increment: Int?) {
        #expect(APNsPayload.badgeIncrement(data.objectValue!) == increment)
        if increment != nil {
            let notification = APNsPayload.notification(data: data.objectValue!, deviceToken: Self.token, topic: "t", badge: 7)
            #expect(notification.payload["aps"]?["badge"] == 7)
        }
    }
}
