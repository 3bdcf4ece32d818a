extension JSON {
    /// The compact UTF-8 encoding of the value (no insignificant whitespace).
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        // Most answers fit: one allocation instead of doubling from a few bytes.
        bytes.reserveCapacity(2048)
        encode(into: &bytes)
        return bytes
    }

    /// The encoding as a `String`, for logs and tests.
    public var encodedString: String { String(decoding: encoded(), as: UTF8.self) }

    /// Appends the compact encoding of the value to `bytes`.
    ///
    /// Non-finite doubles, which JSON cannot express, are written as `null`.
    public func encode(into bytes: inout [UInt8]) {
        switch self {
        case .null:
            JSON.appendASCII("null", to: &bytes)
        case .bool(let value):
            JSON.appendASCII(value ? "true" : "false", to: &bytes)
        case .int(let value):
            JSON.encodeInteger(value, into: &bytes)
        case .double(let value):
            if !value.isFinite {
                JSON.appendASCII("null", to: &bytes)
            } else if value == value.rounded(.towardZero), abs(value) < 1e15 {
                // A whole double prints as an integer ("2", not "2.0"): the same JSON number.
                JSON.encodeInteger(Int64(value), into: &bytes)
            } else {
                bytes.append(contentsOf: String(value).utf8)
            }
        case .string(let value):
            JSON.encodeString(value, into: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            var first = true
            for element in elements {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                element.encode(into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            var first = true
            for (key, value) in object.members {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                JSON.encodeString(key, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                value.encode(into: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        case .fragment(let fragment):
            bytes.append(contentsOf: fragment.bytes)
        }
    }

    /// Appends the bytes of a literal (`null`, `true`) without going through `String`.
    private static func appendASCII(_ literal: StaticString, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends the decimal digits of `value`, without making a `String` of them.
    static func encodeInteger(_ value: Int64, into bytes: inout [UInt8]) {
        if value >= 0, value < 10 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
            return
        }
        // 20 bytes hold any Int64: 19 digits and a sign.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var magnitude = value.magnitude
            var start = buffer.count
            repeat {
                let (quotient, digit) = magnitude.quotientAndRemainder(dividingBy: 10)
                start -= 1
                buffer[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: digit)
                magnitude = quotient
            } while magnitude != 0
            if value < 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// Appends `string` as a JSON string: quoted, with `"`, `\` and control characters escaped.
    static func encodeString(_ string: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        // Native strings are contiguous UTF-8 already: `withUTF8` copies nothing for them.
        string.withUTF8 { utf8 in appendEscaped(utf8, to: &bytes) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Whether a byte of a string must be escaped: `"`, `\` and the control characters.
    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Copies the runs that need no escaping in one piece each, and escapes the bytes between.
    private static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        var runStart = 0
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            guard needsEscape(byte) else {
                index += 1
                continue
            }
            if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
            appendEscape(of: byte, to: &bytes)
            index += 1
            runStart = index
        }
        if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
    }

    private static let hexDigits: StaticString = "0123456789abcdef"

    private static func appendEscape(of byte: UInt8, to bytes: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): appendASCII(#"\""#, to: &bytes)
        case UInt8(ascii: "\\"): appendASCII(#"\\"#, to: &bytes)
        case 0x0A: appendASCII(#"\n"#, to: &bytes)
        case 0x0D: appendASCII(#"\r"#, to: &bytes)
        case 0x09: appendASCII(#"\t"#, to: &bytes)
        default:
            appendASCII(#"\u00"#, to: &bytes)
            bytes.append(hexDigits.utf8Start[Int(byte >> 4)])
            bytes.append(hexDigits.utf8Start[Int(byte & 0x0F)])
        }
    }
}
