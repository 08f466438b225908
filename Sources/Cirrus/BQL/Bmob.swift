import CirrusModel
import Foundation

/// The little of Bmob's REST dialect that BQL needs: requests under `/1` with `X-Bmob-*` headers, and replies turned
/// into the LeanCloud shape the rest of the SDK decodes.
///
/// Bmob writes `createdAt`, `updatedAt` and the `iso` of `{"__type":"Date"}` values as `YYYY-MM-DD HH:MM:SS` in
/// Beijing time (UTC+8), without milliseconds, and a file's name as `filename`. Everything else (pointers, included
/// objects, geo points, bytes, ACLs) has the LeanCloud shape already.
enum Bmob {
    /// The version prefix of Bmob's paths.
    static let prefix = "/1"

    /// Bmob's dates carry no zone: they are Beijing time.
    static let offsetMinutes = 480

    /// A `GET` of `path` (after `/1`) with `X-Bmob-Application-Id`, `X-Bmob-REST-API-Key` and, while a user is logged
    /// in, its `X-Bmob-Session-Token`.
    static func request(application: LCApplication, _ path: String, query: [(String, String)]) throws -> TransportRequest {
        let settings = try application.requireSettings()
        let text = settings.serverURL.absoluteString + prefix + path + "?"
            + query.map { "\(RESTClient.encode($0.0))=\(RESTClient.encode($0.1))" }.joined(separator: "&")
        guard let url = URL(string: text) else { throw LCError.inconsistency("Not a valid URL: \(text)") }
        var headers = ["X-Bmob-Application-Id": settings.id, "X-Bmob-REST-API-Key": settings.key]
        if let token = application.currentUser?.sessionToken?.value { headers["X-Bmob-Session-Token"] = token }
        return TransportRequest(method: "GET", url: url, headers: headers)
    }

    /// Sends ``request(application:_:query:)`` and returns the reply's JSON, as it came.
    /// - Throws: `LCError` with Bmob's `code` and `error` for an error reply (`{"code":601,"error":"…"}`).
    static func get(application: LCApplication, _ path: String, query: [(String, String)]) async throws -> JSON {
        let request = try request(application: application, path, query: query)
        let response: TransportResponse
        do {
            response = try await application.send(request)
        } catch {
            throw LCError(error: error)
        }
        return try RESTClient.decode(response)
    }

    /// An object of a reply in the LeanCloud shape: `createdAt` and `updatedAt` as ISO texts in UTC, values as
    /// ``value(_:)`` makes them.
    static func object(_ json: JSON) -> JSON {
        guard case .object(let members) = json else { return value(json) }
        var converted: [String: JSON] = [:]
        for (key, member) in members {
            if key == "createdAt" || key == "updatedAt", let text = member.stringValue, let iso = isoString(text) {
                converted[key] = .string(iso)
            } else {
                converted[key] = value(member)
            }
        }
        return .object(converted)
    }

    /// A value of a reply in the LeanCloud shape: dates in ISO form, files with `name`, included objects (pointers
    /// with fields) as ``object(_:)``, arrays and dictionaries converted throughout.
    static func value(_ json: JSON) -> JSON {
        switch json {
        case .array(let elements):
            return .array(elements.map(value))
        case .object(var members):
            switch members.wireType {
            case .date:
                if let text = members["iso"]?.stringValue, let iso = isoString(text) { members["iso"] = .string(iso) }
                return .object(members)
            case .file:
                if members["name"] == nil, let name = members.removeValue(forKey: "filename") { members["name"] = name }
                return .object(members)
            case .object, .pointer:
                return object(.object(members))
            default:
                return .object(members.mapValues(value))
            }
        default:
            return json
        }
    }

    /// The ISO text (`2015-05-14T06:56:30.000Z`) of a Bmob date (`2015-05-14 14:56:30`, Beijing time); a text with
    /// a zone keeps its instant.
    static func isoString(_ text: String) -> String? {
        Timestamp(parsing: text, defaultOffsetMinutes: offsetMinutes)?.iso8601
    }

    /// The class a BQL statement reads or writes: the word after the first `from` or `into` outside strings and
    /// parentheses (a subquery's `from` is inside them), or after a leading `update`. Bmob's replies do not name
    /// it, and objects are made of their class (a registered subclass, ``LCUser`` for `_User`).
    static func className(of statement: String) -> String? {
        var words: [String] = []
        var depth = 0
        var scalars = statement.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            if scalar == "'" || scalar == "\"" {
                skipString(&scalars, quote: scalar)
            } else if scalar == "(" {
                depth += 1
            } else if scalar == ")" {
                depth -= 1
            } else if isWordScalar(scalar) {
                var word = String(scalar)
                while let next = scalars.first, isWordScalar(next) {
                    word.unicodeScalars.append(next)
                    scalars.removeFirst()
                }
                if depth == 0 {
                    if let previous = words.last?.lowercased(),
                        previous == "from" || previous == "into" || (previous == "update" && words.count == 1) {
                        return word
                    }
                    words.append(word)
                }
            }
        }
        return nil
    }

    /// Skips the rest of a quoted string, whose backslashes escape the next character.
    private static func skipString(_ scalars: inout Substring.UnicodeScalarView, quote: Unicode.Scalar) {
        while let scalar = scalars.popFirst() {
            if scalar == "\\" {
                _ = scalars.popFirst()
            } else if scalar == quote {
                return
            }
        }
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
    }
}
