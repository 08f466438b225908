import CirrusModel
import Foundation
package import CirrusSQL
import CirrusSQLStore
import NIOCore
import PostgresNIO

/// A leased connection's statements: fragments rendered with `$n` placeholders and their bindings.
package struct PostgresSession: SQLSession, Sendable {
    let connection: PostgresConnection
    let driver: PostgresDriver

    init(_ connection: PostgresConnection, _ driver: PostgresDriver) {
        self.connection = connection
        self.driver = driver
    }

    package func rows(_ fragment: SQLFragment) async throws -> [[SQLValue]] {
        var result: [[SQLValue]] = []
        for try await row in try await connection.query(query(fragment), logger: driver.logger) {
            result.append(try row.makeRandomAccess().map(SQLValue.init(cell:)))
        }
        return result
    }

    package func execute(_ fragment: SQLFragment) async throws {
        try await connection.query(query(fragment), logger: driver.logger)
    }

    private func query(_ fragment: SQLFragment) throws -> PostgresQuery {
        let (sql, values) = try driver.dialect.renderForDatabase(fragment)
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .null: bindings.appendNull()
            case .int(let number): bindings.append(number)
            case .double(let number): bindings.append(number)
            case .text(let text): bindings.append(text)
            case .blob(let bytes): bindings.append(ByteBuffer(bytes: bytes))
            }
        }
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }
}

extension SQLValue {
    /// The display scale of a binary `numeric` (its fourth 16-bit header field), or `nil` in text format.
    static func numericScale(_ cell: PostgresCell) -> Int16? {
        guard cell.format == .binary, var bytes = cell.bytes, bytes.readableBytes >= 8 else { return nil }
        bytes.moveReaderIndex(forwardBy: 6)
        return bytes.readInteger(as: Int16.self)
    }

    /// The value of a result cell: integers, floating-point numbers, text (JSONB as its text, `numeric` as its
    /// decimal text when it is not integral), bytes; `NULL` as ``SQLValue/null``.
    init(cell: PostgresCell) throws {
        guard cell.bytes != nil else {
            self = .null
            return
        }
        switch cell.dataType {
        case .int2, .int4, .int8: self = .int(try cell.decode(Int64.self))
        case .float4, .float8: self = .double(try cell.decode(Double.self))
        case .bool: self = .int(try cell.decode(Bool.self) ? 1 : 0)
        case .bytea: self = .blob(Array(buffer: try cell.decode(ByteBuffer.self)))
        case .numeric:
            // A numeric with decimals (an average) is a double; an integral one (a sum of integers) an integer.
            let decimal = try cell.decode(Decimal.self)
            let text = "\(decimal)"
            if Self.numericScale(cell) == 0, let number = Int64(text) {
                self = .int(number)
            } else {
                self = .double(Double(text) ?? NSDecimalNumber(decimal: decimal).doubleValue)
            }
        default: self = .text(try cell.decode(String.self))
        }
    }
}
