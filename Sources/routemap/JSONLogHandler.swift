import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A swift-log handler that writes each event as one JSON object on one line of stderr:
/// `{"time":"2026-01-02T03:04:05.678Z","level":"info","logger":"routemap","message":"…",…}`
/// with the metadata as further fields (integers and numbers as JSON numbers). Written here
/// because no package on the mirror gives JSON lines for swift-log; it is small on purpose.
///
/// Each line goes out in one `write(2)`, so lines from different threads never interleave.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(label: String) {
        self.label = label
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var line: [UInt8] = []
        line.reserveCapacity(256)
        line.append(contentsOf: #"{"time":""#.utf8)
        Self.appendTimestamp(to: &line)
        line.append(contentsOf: #"","level":""#.utf8)
        line.append(contentsOf: event.level.rawValue.utf8)
        line.append(contentsOf: #"","logger":"#.utf8)
        Self.appendString(label, to: &line)
        line.append(contentsOf: #","message":"#.utf8)
        Self.appendString(event.message.description, to: &line)
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { _, new in new } }
        if let own = event.metadata { fields.merge(own) { _, new in new } }
        if let error = event.error { fields["error"] = .string(String(reflecting: error)) }
        for (key, value) in fields where !["time", "level", "logger", "message"].contains(key) {
            line.append(UInt8(ascii: ","))
            Self.appendString(key, to: &line)
            line.append(UInt8(ascii: ":"))
            Self.appendValue(value, to: &line)
        }
        line.append(contentsOf: "}\n".utf8)
        line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(2, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 {
                    if written < 0 && errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }

    static func appendValue(_ value: Logger.Metadata.Value, to line: inout [UInt8]) {
        switch value {
        case .string(let text):
            appendString(text, to: &line)
        case .stringConvertible(let convertible):
            if convertible is any BinaryInteger {
                line.append(contentsOf: convertible.description.utf8)
            } else if let number = convertible as? Double, number.isFinite {
                line.append(contentsOf: number.description.utf8)
            } else {
                appendString(convertible.description, to: &line)
            }
        case .array(let values):
            line.append(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { line.append(UInt8(ascii: ",")) }
                appendValue(element, to: &line)
            }
            line.append(UInt8(ascii: "]"))
        case .dictionary(let fields):
            line.append(UInt8(ascii: "{"))
            for (index, (key, element)) in fields.enumerated() {
                if index > 0 { line.append(UInt8(ascii: ",")) }
                appendString(key, to: &line)
                line.append(UInt8(ascii: ":"))
                appendValue(element, to: &line)
            }
            line.append(UInt8(ascii: "}"))
        }
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped.
    static func appendString(_ text: String, to line: inout [UInt8]) {
        line.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): line.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): line.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): line.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): line.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): line.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20, 0x7F:
                let hex = Array("0123456789abcdef".utf8)
                line.append(contentsOf: #"\u00"#.utf8)
                line.append(hex[Int(byte >> 4)])
                line.append(hex[Int(byte & 0xF)])
            default: line.append(byte)
            }
        }
        line.append(UInt8(ascii: "\""))
    }

    /// The current UTC time as ISO 8601 with milliseconds: `2026-01-02T03:04:05.678Z`.
    static func appendTimestamp(to line: inout [UInt8]) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            var value = value
            while divisor > 0 {
                line.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                value %= divisor
                divisor /= 10
            }
        }
        digits(Int(parts.tm_year) + 1900, 4)
        line.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mon) + 1, 2)
        line.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mday), 2)
        line.append(UInt8(ascii: "T"))
        digits(Int(parts.tm_hour), 2)
        line.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_min), 2)
        line.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_sec), 2)
        line.append(UInt8(ascii: "."))
        digits(Int(now.tv_nsec) / 1_000_000, 3)
        line.append(UInt8(ascii: "Z"))
    }
}
