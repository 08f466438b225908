package import CirrusModel
package import CirrusQueryLanguage

/// The REST dialect of a request: LeanCloud (`/1.1`), Parse (`/1` or `/parse` with `X-Parse-*`) or
/// Bmob (`/1` with `X-Bmob-*`). It fixes error codes, date format, objectId format and reply shapes.
package enum Dialect: String, Sendable, CaseIterable {
    case leancloud
    case parse
    case bmob

    /// A bit of its own, for sets of dialects held as bits.
    var bit: UInt8 {
        switch self {
        case .leancloud: 1
        case .parse: 2
        case .bmob: 4
        }
    }

    /// The shape of objectIds this dialect's clients create.
    package var idStyle: ObjectID.Style {
        self == .leancloud ? .hex24 : .alphanumeric10
    }

    /// Bmob writes and reads local times without a zone, in Beijing time (UTC+8) as Bmob's servers do.
    package var defaultOffsetMinutes: Int {
        self == .bmob ? 480 : 0
    }

    /// How `where` is read: Bmob's dates without a zone are Beijing time, its `$nearSphere` without a maximum
    /// distance stops at 100 km, and its `$all` takes one value as well as an array.
    package var conditionOptions: ConditionOptions {
        ConditionOptions(
            defaultOffsetMinutes: defaultOffsetMinutes,
            defaultMaximumDistance: self == .bmob ? 100 / Condition.earthRadiusKilometers : nil,
            allowsScalarAll: self == .bmob
        )
    }

    /// How `createdAt`, `updatedAt` and `Date` values are written.
    package func format(_ stamp: Timestamp) -> String {
        self == .bmob ? stamp.format(offsetMinutes: defaultOffsetMinutes, style: .spaced) : stamp.iso8601
    }

    /// The largest batch accepted (Bmob documents 50; Cirrus caps the others at 1 000).
    package var maximumBatchSize: Int {
        self == .bmob ? 50 : 1000
    }

    /// Whether query results carry the ACL without being asked (`returnACL=true` in LeanCloud).
    package var alwaysReturnsACL: Bool {
        self != .leancloud
    }

    /// The body of a reply that only acknowledges (a delete, a sent code): Bmob's `{"msg":"ok"}`, `{}` elsewhere.
    package var acknowledgement: JSON {
        self == .bmob ? ["msg": "ok"] : [:]
    }

    /// The query language of `GET /cloudQuery`: Bmob's BQL, LeanCloud's CQL (which Parse has not, so it gets CQL).
    package var cloudQueryLanguage: CloudQueryLanguage {
        self == .bmob ? .bql : .cql
    }

    /// Whether an update's reply names the object (`objectId` beside `updatedAt`), as LeanCloud's does.
    package var updateReplyHasObjectId: Bool {
        self == .leancloud
    }

    /// Whether `DELETE /classes/<class>/<id1>,<id2>` deletes several objects (LeanCloud), or names one id.
    package var deletesIdLists: Bool {
        self == .leancloud
    }

    /// The key naming a Pointer's or Relation's target class in the schema API: LeanCloud's `className`,
    /// Parse's and Bmob's `targetClass`.
    package var schemaTargetKey: String {
        self == .leancloud ? "className" : "targetClass"
    }

    /// The usual path prefix of this dialect; requests remember the prefix they actually used.
    package var pathPrefix: String {
        switch self {
        case .leancloud: "/1.1"
        case .parse: "/parse"
        case .bmob: "/1"
        }
    }
}
