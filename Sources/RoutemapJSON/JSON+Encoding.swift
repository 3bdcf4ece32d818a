extension JSON {
    /// The compact UTF-8 encoding of the value (no insignificant whitespace).
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
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
            bytes.append(contentsOf: "null".utf8)
        case .bool(let value):
            bytes.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value):
            bytes.append(contentsOf: String(value).utf8)
        case .double(let value):
            if !value.isFinite {
                bytes.append(contentsOf: "null".utf8)
            } else if value == value.rounded(.towardZero), abs(value) < 1e15 {
                // A whole double prints as an integer ("2", not "2.0"): the same JSON number.
                bytes.append(contentsOf: String(Int64(value)).utf8)
            } else {
                bytes.append(contentsOf: String(value).utf8)
            }
        case .string(let value):
            JSON.encodeString(value, into: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                element.encode(into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            var first = true
            for (key, value) in object {
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

    private static let hexDigits = Array("0123456789abcdef".utf8)

    static func encodeString(_ string: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
