import Foundation

/// The texts of account messages, with `{{placeholder}}`s filled in when a message is sent.
///
/// Placeholders: `{{appname}}`, `{{code}}`, `{{ttl}}` (minutes), `{{op}}` (what the code is for) in SMS texts;
/// `{{appname}}`, `{{username}}`, `{{email}}`, `{{link}}`, `{{ttl}}` (hours) in e-mails. An SMS request may add
/// its own variables (LeanCloud passes extra body fields to its template). Unknown placeholders stay as written.
public struct MessageTemplates: Sendable {
    /// An e-mail: subject, plain text and an optional HTML alternative (whose values are HTML-escaped).
    public struct Mail: Sendable, Hashable {
        public var subject: String
        public var text: String
        public var html: String?

        public init(subject: String, text: String, html: String? = nil) {
            self.subject = subject
            self.text = text
            self.html = html
        }
    }

    /// The SMS text of every code.
    public var sms: String
    /// SMS texts an SMS request can pick by name (`"template": "<name>"`); an unknown name uses ``sms``.
    public var namedSMS: [String: String]
    /// The e-mail with an address verification link.
    public var verifyEmail: Mail
    /// The e-mail with a password reset link.
    public var resetPassword: Mail

    public init(
        sms: String = Self.defaultSMS, namedSMS: [String: String] = [:], verifyEmail: Mail = Self.defaultVerifyEmail,
        resetPassword: Mail = Self.defaultResetPassword
    ) {
        self.sms = sms
        self.namedSMS = namedSMS
        self.verifyEmail = verifyEmail
        self.resetPassword = resetPassword
    }

    public static let defaultSMS = "[{{appname}}] Your code for {{op}} is {{code}}. It expires in {{ttl}} minutes. Do not share it."

    public static let defaultVerifyEmail = Mail(
        subject: "Verify your e-mail address for {{appname}}",
        text: """
            Hello {{username}},

            Please confirm that {{email}} is your e-mail address for {{appname}} by opening this link:

            {{link}}

            The link is valid for {{ttl}} hours. If you did not sign up for {{appname}}, ignore this message.
            """
    )

    public static let defaultResetPassword = Mail(
        subject: "Reset your {{appname}} password",
        text: """
            Hello {{username}},

            Someone asked to reset the password of your {{appname}} account. To choose a new password, open this link:

            {{link}}

            The link is valid for {{ttl}} hours and works once. If you did not ask for this, ignore this message.
            """
    )

    /// The templates with every file found in `directory` replacing its default: `sms.txt`, `sms-<name>.txt`,
    /// `verify-email.subject.txt`, `verify-email.txt`, `verify-email.html`, `reset-password.subject.txt`,
    /// `reset-password.txt`, `reset-password.html`. A trailing line break of a file is dropped.
    /// - Throws: when the directory cannot be listed or a file is not UTF-8.
    package static func load(directory: String) throws -> MessageTemplates {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        func file(_ name: String) throws -> String? {
            guard names.contains(name) else { return nil }
            let text = try String(contentsOfFile: (directory as NSString).appendingPathComponent(name), encoding: .utf8)
            return text.hasSuffix("\n") ? String(text.dropLast()) : text
        }
        var templates = MessageTemplates()
        templates.sms = try file("sms.txt") ?? templates.sms
        for name in names where name.hasPrefix("sms-") && name.hasSuffix(".txt") {
            templates.namedSMS[String(name.dropFirst(4).dropLast(4))] = try file(name)
        }
        templates.verifyEmail = try mail("verify-email", templates.verifyEmail, file)
        templates.resetPassword = try mail("reset-password", templates.resetPassword, file)
        return templates
    }

    private static func mail(_ stem: String, _ fallback: Mail, _ file: (String) throws -> String?) throws -> Mail {
        Mail(
            subject: try file(stem + ".subject.txt") ?? fallback.subject, text: try file(stem + ".txt") ?? fallback.text,
            html: try file(stem + ".html") ?? fallback.html
        )
    }

    /// `template` with each `{{name}}` whose name is in `values` replaced, through `escape` when given.
    package static func render(_ template: String, _ values: [String: String], escape: ((String) -> String)? = nil) -> String {
        var result = ""
        var rest = template[...]
        while let open = rest.range(of: "{{") {
            result += rest[..<open.lowerBound]
            let afterOpen = rest[open.upperBound...]
            guard let close = afterOpen.range(of: "}}") else {
                rest = rest[open.lowerBound...]
                break
            }
            let name = afterOpen[..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            if let value = values[name] {
                result += escape.map { $0(value) } ?? value
            } else {
                result += rest[open.lowerBound..<close.upperBound]
            }
            rest = afterOpen[close.upperBound...]
        }
        return result + rest
    }
}

/// Escaping text for HTML element content and attribute values.
package enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by character references.
    package static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
