import CirrusModel

/// The reason of the ``APIError`` that `body` throws, or `nil` when it throws nothing (or another error).
func reason(of body: () throws -> Void) -> APIError.Reason? {
    do {
        try body()
        return nil
    } catch let error as APIError {
        return error.reason
    } catch {
        return nil
    }
}

/// Parses JSON text written in a test; a syntax error is a mistake in the test itself.
func json(_ text: String) -> JSON {
    do {
        return try JSONParser.parse(text)
    } catch {
        preconditionFailure("invalid JSON in a test: \(text): \(error)")
    }
}

/// A small deterministic generator (SplitMix64), so generated cases are the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// The bytes spelled by hexadecimal text written in a test (spaces ignored); bad text is a mistake in the test itself.
func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { !$0.isWhitespace })
    precondition(digits.count.isMultiple(of: 2), "odd hex text in a test: \(text)")
    return stride(from: 0, to: digits.count, by: 2).map { start in
        guard let byte = UInt8(String(digits[start...start + 1]), radix: 16) else {
            preconditionFailure("invalid hex in a test: \(text)")
        }
        return byte
    }
}
