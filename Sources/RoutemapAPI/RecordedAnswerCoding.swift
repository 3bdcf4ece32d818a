import RoutemapHTTP

/// How an answer is kept under an idempotency key: the whole response, status, every header
/// field and body, as bytes the domain stores without looking inside. The layout is
/// HTTP/1.1-like, so a row read by hand is plain to see:
///
///     <status> CRLF (<name>: <value> CRLF)* CRLF <body bytes>
///
/// Migration 0005 converted earlier rows to it.
package enum RecordedAnswerCoding {
    /// The response as bytes.
    package static func encode(_ response: Response) -> [UInt8] {
        var bytes = Array("\(response.status.code)\r\n".utf8)
        for (name, value) in response.headers {
            bytes += Array("\(name): \(value)\r\n".utf8)
        }
        bytes += [13, 10]
        bytes += response.body
        return bytes
    }

    /// The response `encode` wrote; throws `Malformed` for bytes it did not write.
    package static func decode(_ bytes: [UInt8]) throws -> Response {
        var lines: [String] = []
        var start = 0
        var index = 0
        while true {
            guard index + 1 < bytes.count else { throw Malformed() }
            if bytes[index] == 13, bytes[index + 1] == 10 {
                if index == start { break }
                lines.append(String(decoding: bytes[start..<index], as: UTF8.self))
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        guard let statusLine = lines.first, let code = Int(statusLine), (100...999).contains(code) else { throw Malformed() }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw Malformed() }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            headers.add(name: String(line[..<colon]), value: String(value))
        }
        return Response(status: HTTPStatus(code: code), headers: headers, body: Array(bytes[(index + 2)...]))
    }

    /// Bytes that are not a recorded answer.
    struct Malformed: Error, CustomStringConvertible {
        var description: String { "a recorded idempotent answer is malformed" }
    }
}
