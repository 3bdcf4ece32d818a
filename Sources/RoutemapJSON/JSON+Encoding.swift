extension JSON {
    /// The compact UTF-8 encoding of the value (no insignificant whitespace).
    public func encoded() -> [UInt8] {
        var writer = JSONWriter()
        writer.write(self)
        return writer.finish()
    }

    /// The encoding as a `String`, for logs and tests.
    public var encodedString: String { String(decoding: encoded(), as: UTF8.self) }

    /// Appends the compact encoding of the value to `bytes`.
    ///
    /// Non-finite doubles, which JSON cannot express, are written as `null`.
    public func encode(into bytes: inout [UInt8]) {
        var writer = JSONWriter()
        writer.write(self)
        writer.append(to: &bytes)
    }
}

/// Writes JSON into a buffer it grows itself.
///
/// Every write reserves room once and then stores bytes through a pointer: an `Array` would
/// check uniqueness and capacity for each byte. `finish` or `append(to:)` hands the bytes over
/// and ends the writer, which frees its buffer.
struct JSONWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    /// Starts with room for most answers, so a response is written without growing the buffer.
    private var capacity = 2048

    init() {
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written, as an array.
    consuming func finish() -> [UInt8] {
        let count = self.count
        let base = self.base
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            // Every value writes at least one byte, but an empty buffer may have no address.
            if let address = buffer.baseAddress { address.initialize(from: base, count: count) }
            initialized = count
        }
    }

    /// Appends the bytes written to `bytes`.
    consuming func append(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
    }

    // MARK: Values

    mutating func write(_ value: JSON) {
        switch value {
        case .null:
            write(literal: "null")
        case .bool(let value):
            write(literal: value ? "true" : "false")
        case .int(let value):
            write(integer: value)
        case .double(let value):
            if !value.isFinite {
                write(literal: "null")
            } else if value == value.rounded(.towardZero), abs(value) < 1e15 {
                // A whole double prints as an integer ("2", not "2.0"): the same JSON number.
                write(integer: Int64(value))
            } else {
                var text = String(value)
                text.withUTF8 { write(bytes: UnsafeRawBufferPointer($0)) }
            }
        case .string(let value):
            write(string: value)
        case .array(let elements):
            write(byte: UInt8(ascii: "["))
            var first = true
            for element in elements {
                if !first { write(byte: UInt8(ascii: ",")) }
                first = false
                write(element)
            }
            write(byte: UInt8(ascii: "]"))
        case .object(let object):
            write(byte: UInt8(ascii: "{"))
            var first = true
            for (key, value) in object.members {
                if !first { write(byte: UInt8(ascii: ",")) }
                first = false
                write(string: key)
                write(byte: UInt8(ascii: ":"))
                write(value)
            }
            write(byte: UInt8(ascii: "}"))
        case .fragment(let fragment):
            fragment.bytes.withUnsafeBytes { write(bytes: $0) }
        }
    }

    /// The decimal digits of `value`, written straight into the buffer (no `String` made).
    mutating func write(integer value: Int64) {
        if value >= 0, value < 10 {
            write(byte: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
            return
        }
        var magnitude = value.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest != 0 {
            digits += 1
            rest /= 10
        }
        let length = value < 0 ? digits + 1 : digits
        reserve(length)
        if value < 0 { base[count] = UInt8(ascii: "-") }
        var position = base + count + length
        repeat {
            let (quotient, digit) = magnitude.quotientAndRemainder(dividingBy: 10)
            position -= 1
            position.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: digit)
            magnitude = quotient
        } while magnitude != 0
        count += length
    }

    /// `string` quoted, with `"`, `\` and the control characters escaped. Bytes that need no
    /// escape (all but a few, in practice) are copied one after the other with no other check.
    mutating func write(string: String) {
        let written = string.utf8.withContiguousStorageIfAvailable { utf8 in
            write(quoted: utf8)
            return true
        }
        if written == nil {
            // Not stored as contiguous UTF-8 (a bridged string): copy it out first.
            Array(string.utf8).withUnsafeBufferPointer { write(quoted: $0) }
        }
    }

    private mutating func write(quoted utf8: UnsafeBufferPointer<UInt8>) {
        // Room for the quotes and every byte unescaped; an escape makes room for what it adds.
        reserve(utf8.count + 2)
        // Stores go through a local pointer, so the loop keeps no state in `self`.
        var next = base + count
        next.initialize(to: UInt8(ascii: "\""))
        next += 1
        for (index, byte) in utf8.enumerated() {
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                count = next - base
                writeEscape(of: byte)
                reserve(utf8.count - index)  // the bytes after this one and the closing quote
                next = base + count
            } else {
                next.initialize(to: byte)
                next += 1
            }
        }
        next.initialize(to: UInt8(ascii: "\""))
        count = next + 1 - base
    }

    private static let hexDigits: StaticString = "0123456789abcdef"

    private mutating func writeEscape(of byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): write(literal: #"\""#)
        case UInt8(ascii: "\\"): write(literal: #"\\"#)
        case 0x0A: write(literal: #"\n"#)
        case 0x0D: write(literal: #"\r"#)
        case 0x09: write(literal: #"\t"#)
        default:
            write(literal: #"\u00"#)
            write(byte: Self.hexDigits.utf8Start[Int(byte >> 4)])
            write(byte: Self.hexDigits.utf8Start[Int(byte & 0x0F)])
        }
    }

    // MARK: Bytes

    mutating func write(byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// A literal's bytes (`null`, `true`, an escape).
    mutating func write(literal: StaticString) {
        write(bytes: UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    mutating func write(bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if capacity - count < extra { grow(to: count + extra) }
    }

    @inline(never)
    private mutating func grow(to minimum: Int) {
        let newCapacity = Swift.max(minimum, capacity * 2)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
