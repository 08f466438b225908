/// The kind of export `cirrus import` reads. Each names the layout and value conventions of one service's export.
package enum MigrationSource: String, Sendable, CaseIterable {
    /// LeanCloud's data export (`<Class>.jsonl`, one REST-encoded object per line, in a `.tar.gz` or a folder), its
    /// import files (a JSON array or `{"results":[…]}`), files saved from the REST scan API, and Cirrus's own export.
    case leancloud
    /// A Parse export: `<Class>.json` holding `{"results":[…]}`, relations in `_Join:<field>:<Class>.json`.
    case parse
    /// JSON pulled over Bmob's REST API: no passwords (those users must reset theirs), Bmob's date format.
    case bmob
}
