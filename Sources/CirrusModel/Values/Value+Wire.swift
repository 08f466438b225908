/// Decoding REST JSON into ``Value`` (with the validation every dialect shares) and encoding it back.
///
/// The encoded form is the canonical stored form: LeanCloud's REST encoding with ISO dates in UTC.
extension Value {
    /// Decodes a field value sent by a client.
    /// - Parameter defaultOffsetMinutes: the zone of dates written without one (Bmob's local time).
    /// - Throws: ``APIError`` for malformed typed values and invalid nested keys.
    public init(wire json: JSON, defaultOffsetMinutes: Int = 0) throws(APIError) {
        switch json {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .int(let number): self = .int(number)
        case .double(let number): self = .double(number)
        case .string(let text): self = .string(text)
        case .array(let elements):
            var values: [Value] = []
            values.reserveCapacity(elements.count)
            for element in elements { values.append(try Value(wire: element, defaultOffsetMinutes: defaultOffsetMinutes)) }
            self = .array(values)
        case .object(let members):
            if let tag = members[WireType.key] {
                self = try Value.decodeTyped(tag, members, defaultOffsetMinutes: defaultOffsetMinutes)
            } else {
                self = .object(try Value.decodeMembers(members, defaultOffsetMinutes: defaultOffsetMinutes))
            }
        }
    }

    private static func decodeMembers(_ members: [String: JSON], defaultOffsetMinutes: Int) throws(APIError) -> [String: Value] {
        var values: [String: Value] = [:]
        values.reserveCapacity(members.count)
        for (key, member) in members {
            guard FieldName.isValidNestedKey(key) else { throw APIError.invalidNestedKey(key) }
            values[key] = try Value(wire: member, defaultOffsetMinutes: defaultOffsetMinutes)
        }
        return values
    }

    private static func decodeTyped(_ tag: JSON, _ members: [String: JSON], defaultOffsetMinutes: Int) throws(APIError) -> Value {
        switch tag.stringValue.flatMap(WireType.init(rawValue:)) {
        case .date: return .date(try decodeDate(members, defaultOffsetMinutes: defaultOffsetMinutes))
        case .bytes: return .bytes(base64: try decodeBytes(members))
        case .pointer, .object: return .pointer(try decodePointer(members))
        case .file: return .file(try decodeFile(members))
        case .geoPoint: return .geoPoint(try decodeGeoPoint(members))
        case .relation:
            guard let className = members["className"]?.stringValue, ClassName.isValid(className) else {
                throw APIError(.incorrectType, "A Relation needs the className of its target class.")
            }
            return .relation(className: className)
        case nil:
            throw APIError(.incorrectType, "Unsupported __type \(JSONWriter.string(tag)).")
        }
    }

    static func decodeDate(_ members: [String: JSON], defaultOffsetMinutes: Int) throws(APIError) -> Timestamp {
        guard let iso = members["iso"]?.stringValue, let stamp = Timestamp(parsing: iso, defaultOffsetMinutes: defaultOffsetMinutes) else {
            throw APIError(.incorrectType, "A Date needs an \"iso\" string such as \"2015-06-21T18:02:52.249Z\".")
        }
        return stamp
    }

    private static func decodeBytes(_ members: [String: JSON]) throws(APIError) -> String {
        guard let text = members["base64"]?.stringValue, Base64.isValid(text) else {
            throw APIError(.incorrectType, "Bytes need a \"base64\" string of standard base64.")
        }
        return text
    }

    static func decodePointer(_ members: [String: JSON]) throws(APIError) -> Pointer {
        guard let className = members["className"]?.stringValue, ClassName.isValid(className),
            let objectId = members["objectId"]?.stringValue, ObjectID.isAcceptable(objectId)
        else {
            throw APIError(.invalidPointer, "Malformed pointer: it needs a valid className and objectId.")
        }
        return Pointer(className: className, objectId: objectId)
    }

    private static func decodeFile(_ members: [String: JSON]) throws(APIError) -> FileReference {
        let id = members["id"]?.stringValue ?? members["objectId"]?.stringValue
        let name = members["name"]?.stringValue ?? members["filename"]?.stringValue
        let url = members["url"]?.stringValue
        guard id != nil || name != nil || url != nil else {
            throw APIError(.incorrectType, "A File needs an \"id\" (LeanCloud) or a \"name\" and \"url\".")
        }
        let known: Set<String> = [WireType.key, "id", "objectId", "name", "filename", "url"]
        return FileReference(id: id, name: name, url: url, extra: members.filter { !known.contains($0.key) })
    }

    private static func decodeGeoPoint(_ members: [String: JSON]) throws(APIError) -> GeoPoint {
        guard let latitude = members["latitude"]?.doubleValue, let longitude = members["longitude"]?.doubleValue else {
            throw APIError(.invalidGeoPoint, "A GeoPoint needs numeric latitude and longitude.")
        }
        return try GeoPoint(latitude: latitude, longitude: longitude)
    }

    /// The canonical REST encoding of this value.
    public var wire: JSON {
        switch self {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .string(let text): .string(text)
        case .date(let stamp): .date(stamp)
        case .bytes(let text): WireType.bytes.value(["base64": .string(text)])
        case .pointer(let pointer): pointer.wire
        case .file(let file): file.wire
        case .geoPoint(let point): WireType.geoPoint.value(["latitude": .double(point.latitude), "longitude": .double(point.longitude)])
        case .relation(let className): .relation(to: className)
        case .array(let values): .array(values.map(\.wire))
        case .object(let members): .object(members.mapValues(\.wire))
        }
    }
}

extension Pointer {
    /// `{"__type":"Pointer","className":…,"objectId":…}`
    public var wire: JSON {
        WireType.pointer.value(["className": .string(className), "objectId": .string(objectId)])
    }
}

extension FileReference {
    /// `{"__type":"File", …}` with the members that are known.
    public var wire: JSON {
        var members = extra
        if let id { members["id"] = .string(id) }
        if let name { members["name"] = .string(name) }
        if let url { members["url"] = .string(url) }
        return WireType.file.value(members)
    }
}

/// Validation of base64 text without decoding it.
enum Base64 {
    static func isValid(_ text: String) -> Bool {
        var count = 0
        var padding = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"):
                if padding > 0 { return false }
            case UInt8(ascii: "="):
                padding += 1
                if padding > 2 { return false }
            default:
                return false
            }
            count += 1
        }
        return count % 4 == 0
    }
}
