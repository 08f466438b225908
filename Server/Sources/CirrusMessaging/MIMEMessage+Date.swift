package import Foundation

extension MIMEMessage {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `date` in the form of RFC 5322's `Date` header, in UTC: `Tue, 01 Jul 2025 09:05:03 +0000`.
    package static func rfc5322Date(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let parts = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute, .second], from: date)
        let weekday = weekdays[(parts.weekday ?? 1) - 1]
        let month = months[(parts.month ?? 1) - 1]
        let time = [parts.hour, parts.minute, parts.second].map { twoDigits($0 ?? 0) }.joined(separator: ":")
        return "\(weekday), \(twoDigits(parts.day ?? 1)) \(month) \(parts.year ?? 1970) \(time) +0000"
    }

    private static func twoDigits(_ number: Int) -> String {
        number < 10 ? "0\(number)" : String(number)
    }
}
