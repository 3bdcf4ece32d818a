extension JSON {
    /// The nesting depth `parse` accepts by default: far above any request routemap takes,
    /// far below what could exhaust a thread's stack.
    public static let defaultMaxDepth = 64

    /// Parses one JSON text (RFC 8259), strictly.
    ///
    /// Stricter than Foundation's decoder, on purpose, because request bodies come from
    /// untrusted clients: invalid UTF-8, lone surrogates, control characters in strings,
    /// duplicate object keys, nesting deeper than `maxDepth`, numbers that overflow a `Double`
    /// and anything after the value are all errors. Integers stay exact (`.int`) when they fit
    /// `Int64`.
    public static func parse(_ bytes: some Collection<UInt8>, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSON {
        let array = Array(bytes)
        let result: Result<JSON, JSONParseError> = array.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer: buffer, maxDepth: maxDepth)
            do throws(JSONParseError) {
                return .success(try parser.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses the UTF-8 of `string`.
    public static func parse(_ string: String, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSON {
        try parse(Array(string.utf8), maxDepth: maxDepth)
    }
}

/// A recursive-descent parser over a byte buffer. Recursion is bounded by `maxDepth`.
struct JSONParser {
    let buffer: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0
    var depth = 0

    init(buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.buffer = buffer
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(JSONParseError) -> JSON {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == buffer.count else { throw fail("unexpected data after the JSON value") }
        return value
    }

    // MARK: Values

    private mutating func parseValue() throws(JSONParseError) -> JSON {
        guard index < buffer.count else { throw fail("unexpected end of input") }
        switch buffer[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw fail("unexpected character")
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSON {
        try enterContainer()
        index += 1  // {
        var object = JSONObject()
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            index += 1
            depth -= 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { throw fail("expected a string key") }
            let keyOffset = index
            let key = try parseString()
            guard !object.contains(key) else {
                throw JSONParseError(offset: keyOffset, reason: "duplicate key \"\(key)\"")
            }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw fail("expected ':'") }
            index += 1
            skipWhitespace()
            object.append(key, try parseValue())
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            if peek(UInt8(ascii: "}")) { index += 1; break }
            throw fail("expected ',' or '}'")
        }
        depth -= 1
        return .object(object)
    }

    private mutating func parseArray() throws(JSONParseError) -> JSON {
        try enterContainer()
        index += 1  // [
        var elements: [JSON] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            if peek(UInt8(ascii: "]")) { index += 1; break }
            throw fail("expected ',' or ']'")
        }
        depth -= 1
        return .array(elements)
    }

    private mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        guard depth <= maxDepth else { throw fail("nesting deeper than \(maxDepth)") }
    }

    // MARK: Strings

    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        var bytes: [UInt8] = []
        while true {
            guard index < buffer.count else { throw fail("unterminated string") }
            let byte = buffer[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let string = String(validating: bytes, as: UTF8.self) else {
                    throw fail("string is not valid UTF-8")
                }
                return string
            case UInt8(ascii: "\\"):
                index += 1
                try parseEscape(into: &bytes)
            case 0x00..<0x20:
                throw fail("control character in string")
            default:
                bytes.append(byte)
                index += 1
            }
        }
    }

    private mutating func parseEscape(into bytes: inout [UInt8]) throws(JSONParseError) {
        guard index < buffer.count else { throw fail("unterminated escape") }
        let escape = buffer[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): bytes.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): bytes.append(0x08)
        case UInt8(ascii: "f"): bytes.append(0x0C)
        case UInt8(ascii: "n"): bytes.append(0x0A)
        case UInt8(ascii: "r"): bytes.append(0x0D)
        case UInt8(ascii: "t"): bytes.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = UInt32(try parseHex4())
            if (0xD800...0xDBFF).contains(scalar) {
                guard peek(UInt8(ascii: "\\")), index + 1 < buffer.count, buffer[index + 1] == UInt8(ascii: "u") else {
                    throw fail("unpaired surrogate in \\u escape")
                }
                index += 2
                let low = UInt32(try parseHex4())
                guard (0xDC00...0xDFFF).contains(low) else { throw fail("unpaired surrogate in \\u escape") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw fail("unpaired surrogate in \\u escape")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw fail("invalid \\u escape") }
            bytes.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            throw fail("invalid escape")
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt16 {
        guard index + 4 <= buffer.count else { throw fail("truncated \\u escape") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let digit = buffer[index].hexDigitValue else { throw fail("invalid hex digit in \\u escape") }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(JSONParseError) -> JSON {
        let start = index
        if peek(UInt8(ascii: "-")) { index += 1 }
        guard index < buffer.count, isDigit(buffer[index]) else { throw fail("invalid number") }
        if buffer[index] == UInt8(ascii: "0") {
            index += 1
            if index < buffer.count, isDigit(buffer[index]) { throw fail("leading zero in number") }
        } else {
            skipDigits()
        }
        var isInteger = true
        if peek(UInt8(ascii: ".")) {
            isInteger = false
            index += 1
            guard index < buffer.count, isDigit(buffer[index]) else { throw fail("invalid number") }
            skipDigits()
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            isInteger = false
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard index < buffer.count, isDigit(buffer[index]) else { throw fail("invalid number") }
            skipDigits()
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<index]), as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .int(integer) }
        guard let double = Double(text), double.isFinite else {
            throw JSONParseError(offset: start, reason: "number out of range")
        }
        return .double(double)
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func skipDigits() {
        while index < buffer.count, isDigit(buffer[index]) { index += 1 }
    }

    // MARK: Helpers

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= buffer.count else { throw fail("invalid literal") }
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        for offset in 0..<count where buffer[index + offset] != expected[offset] {
            throw fail("invalid literal")
        }
        index += count
    }

    private func peek(_ byte: UInt8) -> Bool {
        index < buffer.count && buffer[index] == byte
    }

    private mutating func skipWhitespace() {
        while index < buffer.count {
            switch buffer[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func fail(_ reason: String) -> JSONParseError {
        JSONParseError(offset: index, reason: reason)
    }
}
