import CirrusServices

/// The HTML of the account pages: a small self-contained document (inline style, no script) per outcome. Every
/// value shown is HTML-escaped.
enum AccountPageHTML {
    /// A page with a heading and a message.
    static func message(appName: String, title: String, text: String) -> String {
        document(appName: appName, title: title, body: "<p>\(HTMLText.escape(text))</p>")
    }

    /// The new-password form for a reset link, with an error above it when the last try was refused.
    static func resetForm(appName: String, token: String, error: String?) -> String {
        let notice = error.map { "<p class=\"error\">\(HTMLText.escape($0))</p>" } ?? ""
        let form = """
            \(notice)<form method="post" action="/auth/reset-password">
            <input type="hidden" name="token" value="\(HTMLText.escape(token))">
            <label>New password <input type="password" name="password" autocomplete="new-password" required></label>
            <label>Repeat it <input type="password" name="confirm" autocomplete="new-password" required></label>
            <button type="submit">Set the new password</button>
            </form>
            """
        return document(appName: appName, title: "Choose a new password", body: form)
    }

    private static func document(appName: String, title: String, body: String) -> String {
        let app = HTMLText.escape(appName)
        let heading = HTMLText.escape(title)
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(heading) · \(app)</title>
            <style>
            body { font-family: system-ui, sans-serif; max-width: 28rem; margin: 3rem auto; padding: 0 1rem; color: #222; }
            label { display: block; margin: 0.8rem 0; }
            input { display: block; width: 100%; padding: 0.4rem; margin-top: 0.2rem; box-sizing: border-box; }
            .error { color: #b00020; }
            </style>
            </head>
            <body>
            <p>\(app)</p>
            <h1>\(heading)</h1>
            \(body)
            </body>
            </html>
            """
    }
}
