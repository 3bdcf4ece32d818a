/// A recorded idempotent answer read back by its documented layout (migration 0005):
/// `<status> CRLF (<name>: <value> CRLF)* CRLF <body bytes>`. Written independently of the
/// API's coder, so a test that uses it checks the bytes, not the two against each other.
struct RecordedAnswerBytes {
    let status: Int
    /// The header lines, `Name: value`, in order.
    let headerLines: [String]
    let body: [UInt8]

    /// `nil` unless `bytes` have that layout.
    init?(_ bytes: [UInt8]) {
        var lines: [String] = []
        var start = 0
        while true {
            guard let end = (start..<max(start, bytes.count - 1)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }) else {
                return nil
            }
            if end == start { break }
            lines.append(String(decoding: bytes[start..<end], as: UTF8.self))
            start = end + 2
        }
        guard let statusLine = lines.first, let status = Int(statusLine) else { return nil }
        self.status = status
        headerLines = Array(lines.dropFirst())
        body = Array(bytes[(start + 2)...])
    }
}
