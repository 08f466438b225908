/// What an import did, per class: objects (or relation members, sessions, schema entries) imported, skipped because
/// they exist, and failed; files whose content could not be carried; users who must reset their password.
package struct ImportSummary: Sendable, Equatable {
    package struct Counts: Sendable, Equatable {
        package var imported = 0
        package var skipped = 0
        package var failed = 0

        package init(imported: Int = 0, skipped: Int = 0, failed: Int = 0) {
            self.imported = imported
            self.skipped = skipped
            self.failed = failed
        }
    }

    package var classes: [String: Counts] = [:]
    /// Files whose content was copied.
    package var filesCopied = 0
    /// Files whose row was imported but whose content could not be carried (also in the report).
    package var fileFailures = 0
    /// Users with neither a password hash nor a third-party login (every Bmob user): they must reset their password.
    package var passwordResets: [String] = []
    /// Lines of input files skipped because an earlier run committed them.
    package var resumedLines = 0
    package var dryRun = false

    package var totalFailed: Int { classes.values.reduce(0) { $0 + $1.failed } + fileFailures }
    package var totalImported: Int { classes.values.reduce(0) { $0 + $1.imported } }
    package var totalSkipped: Int { classes.values.reduce(0) { $0 + $1.skipped } }

    mutating func count(_ className: String, _ update: (inout Counts) -> Void) {
        update(&classes[className, default: Counts()])
    }

    /// The table printed at the end.
    package func table() -> String {
        let verb = dryRun ? "would import" : "imported"
        let names = classes.keys.sorted()
        let width = max(["class", "total"].map(\.count).max() ?? 5, names.map(\.count).max() ?? 0)
        func row(_ name: String, _ a: String, _ b: String, _ c: String) -> String {
            name + String(repeating: " ", count: max(0, width - name.count)) + "  " + pad(a, verb.count) + "  " + pad(b, 8) + "  " + pad(c, 7)
        }
        var lines = [row("class", verb, "skipped", "failed")]
        for name in names {
            let counts = classes[name]!
            lines.append(row(name, String(counts.imported), String(counts.skipped), String(counts.failed)))
        }
        lines.append(row("total", String(totalImported), String(totalSkipped), String(totalFailed - fileFailures)))
        if filesCopied > 0 || fileFailures > 0 { lines.append("file contents: \(filesCopied) copied, \(fileFailures) failed") }
        if resumedLines > 0 { lines.append("resumed: \(resumedLines) lines committed by an earlier run were not read again") }
        if !passwordResets.isEmpty {
            let shown = passwordResets.prefix(20).joined(separator: ", ")
            let more = passwordResets.count > 20 ? ", … (all of them are in the report)" : ""
            lines.append("\(passwordResets.count) users have no password in the export and must reset their password: \(shown)\(more)")
        }
        return lines.joined(separator: "\n")
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}
