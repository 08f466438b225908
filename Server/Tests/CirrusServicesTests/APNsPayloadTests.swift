import CirrusModel
import CirrusServices
import Testing

@Suite("A push's data as an Apple notification")
struct APNsPayloadTests {
    static let token = String(repeating: "ab", count: 32)

    @Test("data becomes aps, custom keys and headers as APNs reads them", arguments: [
        // alert keys in aps, custom keys beside it
        (["alert": "Hi", "sound": "default", "game": "chess"] as JSON,
         ["aps": ["alert": "Hi", "sound": "default"], "game": "chess"] as JSON, "alert", 10, nil as String?),
        // a silent notification: background, priority 5
        (["content-available": 1, "k": "v"], ["aps": ["content-available": 1], "k": "v"], "background", 5, nil),
        // headers taken out of the payload
        (["alert": "Hi", "collapse-id": "c1", "apns-priority": 5], ["aps": ["alert": "Hi"]], "alert", 5, "c1"),
        // a raw aps payload goes as it is
        (["aps": ["alert": ["title": "T", "body": "B"], "mutable-content": 1], "x": 1], ["aps": ["alert": ["title": "T", "body": "B"], "mutable-content": 1], "x": 1], "alert", 10, nil),
        // the ios override wins; other platforms' keys never reach Apple
        (["alert": "generic", "ios": ["alert": "for iOS", "badge": 2], "android": ["title": "A"]], ["aps": ["alert": "for iOS", "badge": 2]], "alert", 10, nil),
        (["alert": "generic", "android": ["title": "A"], "fcm": ["x": 1]], ["aps": ["alert": "generic"]], "alert", 10, nil),
    ])
    func payload(data: JSON, payload: JSON, pushType: String, priority: Int, collapseId: String?) {
        let notification = APNsPayload.notification(data: data.objectValue!, deviceToken: Self.token, topic: "t")
        #expect(notification.payload == payload)
        #expect(notification.pushType == pushType)
        #expect(notification.priority == priority)
        #expect(notification.collapseId == collapseId)
    }

    @Test("a badge increment is the device's badge after it", arguments: [
        (["alert": "x", "badge": "Increment"] as JSON, 1 as Int?),
        (["alert": "x", "badge": ["__op": "Increment", "amount": 3]], 3),
        (["aps": ["badge": "Increment"]], 1),
        (["alert": "x", "badge": 5], nil),
        (["alert": "x"], nil),
    ])
    func badge(data: JSON, increment: Int?) {
        #expect(APNsPayload.badgeIncrement(data.objectValue!) == increment)
        if increment != nil {
            let notification = APNsPayload.notification(data: data.objectValue!, deviceToken: Self.token, topic: "t", badge: 7)
            #expect(notification.payload["aps"]?["badge"] == 7)
        }
    }
}
