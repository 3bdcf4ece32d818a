import Foundation
import RoutemapTestSupport

// The fuzzer's cases: raw bytes for the socket, each from its own seed (the run's seed mixed
// with the case's index), so one case can be replayed alone and cases don't depend on which
// worker ran them or in what order.

/// The fuzzer's generator: ``SeededRandom`` with the draws the generator makes.
struct FuzzRandom: RandomNumberGenerator {
    private var source: SeededRandom

    init(seed: UInt64) { source = SeededRandom(seed: seed) }

    /// The seed of case `index` of the run seeded `seed`.
    static func caseSeed(_ seed: UInt64, _ index: Int) -> UInt64 {
        var mixer = FuzzRandom(seed: seed ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15))
        return mixer.next()
    }

    mutating func next() -> UInt64 { source.next() }

    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &self) < probability }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &self)] }
}

/// What the fuzzer knows of the server before it starts: a token and bills in each state.
struct FuzzFixtures: Sendable {
    var token: String
    var openBill: String
    var lineId: String
    var checkedOutBill: String
    var checkedOutTotal: Int64
    var paidBill: String
}

/// One generated case.
struct FuzzCase {
    /// How the bytes travel.
    enum Delivery {
        /// On a kept-alive connection: the bytes are one well-framed request, answered once.
        case keepAlive
        /// On a new connection closed for sending right after: anything goes.
        case halfClose
    }

    var index: Int
    /// Which family of input, for the summary and for failure reports.
    var kind: String
    var bytes: [UInt8]
    var delivery: Delivery
    /// The methods of the requests in `bytes`, in order (to read `HEAD` answers right).
    var methods: [String]
}

/// Makes case `index` of a run.
struct FuzzGenerator {
    let fixtures: FuzzFixtures

    func make(_ index: Int, seed: UInt64) -> FuzzCase {
        var random = FuzzRandom(seed: FuzzRandom.caseSeed(seed, index))
        let roll = random.int(0...99)
        switch roll {
        case 0..<44: return framed(index, &random)
        case 44..<52: return brokenRequestLine(index, &random)
        case 52..<59: return hugeOrRepeatedHeaders(index, &random)
        case 59..<66: return badChunked(index, &random)
        case 66..<72: return truncatedBody(index, &random)
        case 72..<86: return mutated(index, &random)
        case 86..<90: return garbage(index, &random)
        case 90..<95: return pipelined(index, &random)
        default: return invalidUTF8(index, &random)
        }
    }

    // MARK: Case families

    /// A well-framed request to a real endpoint with hostile contents: odd ids, headers,
    /// JSON of every wrong shape, numbers out of range.
    private func framed(_ index: Int, _ random: inout FuzzRandom) -> FuzzCase {
        let request = apiRequest(&random)
        return FuzzCase(index: index, kind: "framed \(request.family)", bytes: request.bytes, delivery: .keepAlive, methods: [request.method])
    }

    private func brokenRequestLine(_ index: Int, _ random: inout FuzzRandom) -> FuzzCase {
        let path = random.pick(["/healthz", "/v1/bills", "/v1/menu/items", "*", "", "/v1/bills/\(fixtures.openBill)"])
        let line: String = random.pick([
            "GET \(path)", "GET \(path) HTTP/1.1 extra", "GET  \(path)  HTTP/1.1", "\(path) HTTP/1.1", "GET HTTP/1.1",
            "GET \(path) HTTP/9.9", "GET \(path) HTTP/2.0", "GET \(path) HTTP/0.9", "GET \(path) HTTP/1.10", "GET \(path) HTTP/1",
            "GET \(path) http/1.1", "GET \(path) HTTP/1.x", " GET \(path) HTTP/1.1", "GET\t\(path)\tHTTP/1.1", "PRI * HTTP/2.0",
            "GET /\(String(repeating: "a", count: random.int(1000...40_000))) HTTP/1.1", "G\u{7F}T \(path) HTTP/1.1",
            "\(String(repeating: "GET", count: 3000)) \(path) HTTP/1.1", "GET \(path)?\(String(repeating: "&", count: 5000)) HTTP/1.1",
            "POST \(path) HTTP/1.1\r\rContent-Length: 0", "CONNECT 127.0.0.1:1 HTTP/1.1", "GET http://evil.example\(path) HTTP/1.1",
        ])
        let terminator = random.pick(["\r\n", "\n", "\r", ""])
        let text = line + terminator + (random.chance(0.7) ? "Host: x" + terminator + terminator : "")
        return FuzzCase(index: index, kind: "broken request line", bytes: Array(text.utf8), delivery: .halfClose, methods: ["GET"])
    }

    private func hugeOrRepeatedHeaders(_ index: Int, _ random: inout FuzzRandom) -> FuzzCase {
        var request = apiRequest(&random, withBody: false)
        var extra = ""
        switch random.int(0...5) {
        case 0: extra = "X-Big: \(String(repeating: "b", count: random.int(10_000...70_000)))\r\n"
        case 1: extra = String(repeating: "X-Many: yes\r\n", count: random.int(100...8_000))
        case 2: extra = String(repeating: "Authorization: Bearer \(fixtures.token)\r\n", count: random.int(2...50))
        case 3: extra = String(repeating: "Host: x\r\n", count: random.int(2...500))
        case 4: extra = "\(String(repeating: "N", count: random.int(1000...40_000))): v\r\n"
        default: extra = (0..<random.int(10...2000)).map { "X-\($0): \(String(repeating: "v", count: random.int(0...40)))\r\n" }.joined()
        }
        request.insertHeaders(extra)
        return FuzzCase(index: index, kind: "huge or repeated headers", bytes: request.bytes, delivery: .halfClose, methods: [request.method])
    }

    private func badChunked(_ index: Int, _ random: inout FuzzRandom) -> FuzzCase {
        let path = random.pick(["/v1/bills/\(fixtures.openBill)/items", "/v1/navigate", "/v1/bills", "/v1/devices", "/v1/bills/\(fixtures.checkedOutBill)/pay"])
        let body: String = random.pick([
            "zz\r\n{}\r\n0\r\n\r\n", "5\r\n{}\r\n0\r\n\r\n", "2\r\n{}0\r\n\r\n", "-1\r\n{}\r\n0\r\n\r\n", "ffffffffffffffffffff\r\n{}\r\n0\r\n\r\n",
            "2\r\n{}\r\n", "2;ext=\"unterminated\r\n{}\r\n0\r\n\r\n", "2\n{}\n0\n\n", "0\r\nTrailer: \(String(repeating: "t", count: 40_000))\r\n\r\n",
            "1\r\n{\r\n1\r\n}\r\n0\r\n\r\n", "2 \r\n{}\r\n0\r\n\r\n", "0x2\r\n{}\r\n0\r\n\r\n", "\r\n\r\n", "2\r\n{}\r\nxyz", "",
            String(repeating: "1\r\n \r\n", count: random.int(1000...70_000)) + "0\r\n\r\n",
        ])
        let encoding = random.pick(["chunked", "chunked", "Chunked", "gzip, chunked", "chunked, chunked", "identity", "chunked;q=1", "\u{01}"])
        var head = "POST \(path) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(fixtures.token)\r\nContent-Type: application/json\r\n"
        head += "Transfer-Encoding: \(encoding)\r\n"
        if random.chance(0.2) { head += "Content-Length: \(random.int(0...10))\r\n" }
        head += "Idempotency-Key: fuzz-\(index)\r\n\r\n"
        return FuzzCase(index: index, kind: "bad chunked encoding", bytes: Array((head + body).utf8), delivery: .halfClose, methods: ["POST"])
    }

    private func truncatedBody(_ index: Int, _ random: inout FuzzRandom) -> FuzzCase {
        var request = apiRequest(&random, forceBody: true)
        let bodyLength = request.body.count
        let declared = random.chance(0.5) ? bodyLength + random.int(1...5000) : Int.random(in: 1...Int(Int32.max), using: &random)
        request.body = Array(request.body.prefix(random.int(0...bodyLength)))
        request.setHeader("Content-Length", String(declared))
        request.removeHeader("Transfer-Encoding")
        return FuzzCase(index: index, kind: "truncated body", bytes: request.bytes, delivery: .halfClose, methods: [request.method])
    }

    /// A real request with bytes flipped, inserted, deleted, duplicated or cut off.
    private func mutated(_ index: Int, _ random: inout FuzzRandom) -> FuzzCase {
        let request = apiRequest(&random)
        var bytes = request.bytes
        for _ in 0..<random.int(1...8) where !bytes.isEmpty {
            let at = random.int(0...(bytes.count - 1))
            switch random.int(0...6) {
            case 0: bytes[at] ^= UInt8(1 << random.int(0...7))
            case 1: bytes[at] = UInt8.random(in: 0...255, using: &random)
            case 2: bytes.insert(random.pick([0x00, 0x0D, 0x0A, 0x20, 0x3A, 0x25, 0xFF, 0xC0, 0x80, 0x7F]), at: at)
            case 3: bytes.remove(at: at)
            case 4: bytes = Array(bytes.prefix(at))
            case 5: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + random.int(1...64))], at: at)
            default: bytes.replaceSubrange(at..<min(bytes.count, at + 2), with: Array("\r\n".utf8))
            }
        }
        return FuzzCase(index: index, kind: "mutated request", bytes: bytes, delivery: .halfClose, methods: [request.method])
    }

    private func garbage(_ index: Int, _ random: inout FuzzRandom) -> FuzzCase {
        let count = random.pick([1, 2, 16, 300, 4096, 40_000])
        var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
        if random.chance(0.5) { bytes += [13, 10, 13, 10] }
        return FuzzCase(index: index, kind: "random bytes", bytes: bytes, delivery: .halfClose, methods: ["GET"])
    }

    /// Two to four requests in one write (one may be broken): each must be answered in turn.
    private func pipelined(_ index: Int, _ random: inout FuzzRandom) -> FuzzCase {
        var bytes: [UInt8] = []
        var methods: [String] = []
        for _ in 0..<random.int(2...4) {
            let request = apiRequest(&random)
            bytes += request.bytes
            methods.append(request.method)
        }
        return FuzzCase(index: index, kind: "pipelined requests", bytes: bytes, delivery: .halfClose, methods: methods)
    }

    /// Bytes that are not UTF-8 where the server reads text: path, query, header values and
    /// names, JSON strings, the body's top level.
    private func invalidUTF8(_ index: Int, _ random: inout FuzzRandom) -> FuzzCase {
        let bad: [UInt8] = random.pick([[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xC3], [0xE2, 0x82], [0x80]])
        let percent = bad.map { "%" + String($0, radix: 16, uppercase: true) }.joined()
        let path = random.pick(["/v1/bills/\(fixtures.openBill)", "/v1/resolve", "/v1/menu/items", "/v1/bills", "/healthz"])
        let auth = Array("Authorization: Bearer \(fixtures.token)\r\n".utf8)
        var bytes: [UInt8]
        var delivery = FuzzCase.Delivery.keepAlive
        var method = "GET"
        switch random.int(0...5) {
        case 0: bytes = Array("GET \(path)\(percent) HTTP/1.1\r\nHost: x\r\n".utf8) + auth + [13, 10]
        case 1: bytes = Array("GET /v1/resolve?url=routemap://bills/\(percent)&from=\(percent) HTTP/1.1\r\nHost: x\r\n".utf8) + auth + [13, 10]
        case 2:
            bytes = Array("GET \(path)".utf8) + bad + Array(" HTTP/1.1\r\nHost: x\r\n".utf8) + auth + [13, 10]
            delivery = .halfClose
        case 3:
            let name = random.pick(["Idempotency-Key", "Authorization", "Navigation-Capabilities", "App-Version", "X-Other", "Content-Type"])
            bytes = Array("GET \(path) HTTP/1.1\r\nHost: x\r\n".utf8) + auth + Array("\(name): a".utf8) + bad + Array("\r\n\r\n".utf8)
        case 4:
            bytes = Array("GET \(path) HTTP/1.1\r\nHost: x\r\n".utf8) + auth + Array("X-".utf8) + bad + Array(": v\r\n\r\n".utf8)
            delivery = .halfClose
        default:
            method = "POST"
            let target = random.pick(["/v1/bills/\(fixtures.openBill)/items", "/v1/navigate", "/v1/devices", "/v1/bills/\(fixtures.checkedOutBill)/pay"])
            let body = Array(#"{"menuItemId":""#.utf8) + bad + Array(#"","name":"x"#.utf8) + bad + Array(#"","quantity":1}"#.utf8)
            bytes = Array("POST \(target) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nIdempotency-Key: k\(index)\r\n".utf8)
            bytes += auth + Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
        }
        return FuzzCase(index: index, kind: "invalid UTF-8", bytes: bytes, delivery: delivery, methods: [method])
    }

    // MARK: Requests to the real endpoints

    /// A request under construction: head fields and body, framed when asked for its bytes.
    struct Request {
        var family: String
        var method: String
        var target: String
        var headers: [(String, String)]
        var body: [UInt8]
        var rawHeaders = ""
        var chunkSize: Int?

        var bytes: [UInt8] {
            var head = "\(method) \(target) HTTP/1.1\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            head += rawHeaders
            if let chunkSize {
                head += "Transfer-Encoding: chunked\r\n\r\n"
                return Array(head.utf8) + chunked(body, size: chunkSize)
            }
            if !headers.contains(where: { $0.0.lowercased() == "content-length" }), !body.isEmpty || ["POST", "PUT", "PATCH"].contains(method) {
                head += "Content-Length: \(body.count)\r\n"
            }
            return Array((head + "\r\n").utf8) + body
        }

        mutating func insertHeaders(_ text: String) { rawHeaders += text }

        mutating func setHeader(_ name: String, _ value: String) {
            removeHeader(name)
            headers.append((name, value))
        }

        mutating func removeHeader(_ name: String) {
            headers.removeAll { $0.0.lowercased() == name.lowercased() }
            if name.lowercased() == "transfer-encoding" { chunkSize = nil }
        }

        private func chunked(_ body: [UInt8], size: Int) -> [UInt8] {
            var out: [UInt8] = []
            var offset = 0
            while offset < body.count {
                let end = min(offset + size, body.count)
                out += Array((String(end - offset, radix: 16) + "\r\n").utf8) + body[offset..<end] + [13, 10]
                offset = end
            }
            return out + Array("0\r\n\r\n".utf8)
        }
    }

    /// A request to one of the real endpoints, mostly with the method it takes, headers and a
    /// body chosen to probe its validation.
    func apiRequest(_ random: inout FuzzRandom, withBody: Bool = true, forceBody: Bool = false) -> Request {
        let bill = billId(&random)
        let endpoints: [(family: String, method: String, path: String, body: BodyShape)] = [
            ("menu", "GET", "/v1/menu/items", .none),
            ("open bill", "POST", "/v1/bills", .empty),
            ("get bill", "GET", "/v1/bills/\(bill)", .none),
            ("add item", "POST", "/v1/bills/\(bill)/items", .addItem),
            ("set quantity", "PATCH", "/v1/bills/\(bill)/items/\(lineId(&random))", .setQuantity),
            ("remove line", "DELETE", "/v1/bills/\(bill)/items/\(lineId(&random))", .none),
            ("checkout", "POST", "/v1/bills/\(bill)/checkout", .empty),
            ("cancel checkout", "POST", "/v1/bills/\(bill)/checkout/cancel", .empty),
            ("pay", "POST", "/v1/bills/\(bill)/pay", .pay),
            ("navigate", "POST", "/v1/navigate", .navigate),
            ("resolve", "GET", "/v1/resolve?\(resolveQuery(&random))", .none),
            ("launch", "GET", "/v1/launch", .none),
            ("routes", "GET", "/v1/routes", .none),
            ("route", "GET", "/v1/routes/\(random.pick(["bill", "menu", "orderSummary", "tabBar", "nope", "%2F", ""]))", .none),
            ("health", "GET", "/healthz", .none),
            ("enroll", "POST", "/v1/devices", .enroll),
            ("unknown", random.pick(["GET", "POST"]), random.pick(["/", "/v1", "/v1/", "/v1/nope", "//v1//bills", "/v1/bills/../menu/items", "/V1/BILLS", "/healthz/"]), .empty),
        ]
        let endpoint = random.pick(endpoints)
        var method = endpoint.method
        if random.chance(0.12) {
            method = random.pick(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "get", "FOO", "M-SEARCH", "POST "])
        }
        var target = endpoint.path
        if random.chance(0.1) { target += (target.contains("?") ? "&" : "?") + query(&random) }

        var headers: [(String, String)] = []
        if random.chance(0.95) { headers.append(("Host", random.pick(["127.0.0.1", "x", "", "a b", String(repeating: "h", count: 300)]))) }
        if random.chance(0.75) {
            headers.append(("Authorization", "Bearer \(fixtures.token)"))
        } else if random.chance(0.6) {
            headers.append((
                "Authorization",
                random.pick([
                    "Bearer", "Bearer ", "Bearer rmt_wrong", "bearer \(fixtures.token)", "Basic dXNlcjpwYXNz", "Bearer \(fixtures.token)x",
                    "Bearer \(String(fixtures.token.dropLast()))", "Bearer  \(fixtures.token)", "Bearer \(String(repeating: "t", count: 5000))",
                    "\(fixtures.token)",
                ])))
        }
        if random.chance(0.15) { headers.append(("Idempotency-Key", idempotencyKey(&random))) }
        if endpoint.body == .pay, random.chance(0.85) { headers.append(("Idempotency-Key", idempotencyKey(&random))) }
        if random.chance(0.15) {
            headers.append((
                random.pick(["Navigation-Capabilities", "Navigation-Screens", "App-Version"]),
                random.pick([
                    "", "push,present", "replace", "dismiss,replace,sheet", ",,,", "bill,menu", "1.2.3", "1.2.3.4", "-1", "99999999999999999999",
                    "x", String(repeating: "push,", count: 2000), "1..2",
                ])))
        }
        if random.chance(0.05) { headers.append(("If-None-Match", random.pick(["*", "\"x\"", "W/\"1\"", "", "\"\(String(repeating: "e", count: 1000))"]))) }
        if random.chance(0.05) { headers.append(("Expect", random.pick(["100-continue", "200-ok", ""]))) }
        if random.chance(0.03) { headers.append(("Connection", random.pick(["close", "keep-alive", "upgrade", "\u{7F}"]))) }

        var body: [UInt8] = []
        if withBody, forceBody || endpoint.body != .none || random.chance(0.05) {
            body = self.body(endpoint.body, &random)
            if random.chance(0.85) || forceBody {
                headers.append((
                    "Content-Type",
                    random.chance(0.85)
                        ? "application/json"
                        : random.pick(["text/plain", "application/problem+json", "application/json; charset=utf-8", "application/x-www-form-urlencoded", "", "json", "APPLICATION/JSON"])))
            }
        }
        var request = Request(family: endpoint.family, method: method, target: target, headers: headers, body: body)
        if !body.isEmpty, random.chance(0.12) { request.chunkSize = random.pick([1, 3, 7, 64, 1000, 70_000]) }
        return request
    }

    enum BodyShape { case none, empty, addItem, setQuantity, pay, navigate, enroll }

    private func body(_ shape: BodyShape, _ random: inout FuzzRandom) -> [UInt8] {
        if random.chance(0.15) { return hostileJSON(&random) }
        var members: [(String, String)]
        switch shape {
        case .none, .empty:
            members = random.chance(0.6) ? [] : [(random.pick(["status", "totalMinor", "id", "lines", "x"]), value(&random))]
        case .addItem:
            members = [("menuItemId", random.chance(0.6) ? quoted(random.pick(["latte", "espresso", "cold-brew"])) : value(&random)), ("quantity", number(&random))]
        case .setQuantity:
            members = [("quantity", number(&random))]
        case .pay:
            let amount = random.chance(0.4) ? String(fixtures.checkedOutTotal) : number(&random)
            members = [("method", random.chance(0.6) ? quoted(random.pick(["card", "cash"])) : value(&random)), ("amountMinor", amount)]
            if random.chance(0.4) { members.append(("tenderedMinor", number(&random))) }
        case .navigate:
            members = [
                ("from", random.chance(0.5) ? #"["tabBar","splitContainer","menu","bill"]"# : value(&random)),
                ("to", random.chance(0.6) ? quoted(random.pick(["orderSummary", "bill", "menu", "nope", "tabBar"])) : value(&random)),
            ]
            if random.chance(0.4) { members.append(("mode", random.chance(0.6) ? quoted(random.pick(["to", "parent", "sub", "up"])) : value(&random))) }
            if random.chance(0.4) { members.append(("input", random.chance(0.5) ? #"{"billId":"\#(fixtures.openBill)"}"# : value(&random))) }
        case .enroll:
            members = [
                ("name", random.chance(0.6) ? quoted("till \(random.int(0...99))") : value(&random)),
                ("enrollmentCode", random.chance(0.3) ? quoted("e2e-enrollment-code") : value(&random)),
            ]
        }
        // Drop, duplicate or add a member now and then: required, repeated, mass-assigned.
        if !members.isEmpty, random.chance(0.1) { members.remove(at: random.int(0...(members.count - 1))) }
        if !members.isEmpty, random.chance(0.05) { members.append(random.pick(members)) }
        if random.chance(0.08) { members.append((random.pick(["unitPriceMinor", "totalMinor", "status", "paid", "deviceId", "__proto__"]), value(&random))) }
        if members.isEmpty, shape == .none || shape == .empty, random.chance(0.5) { return [] }
        let text = "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: random.chance(0.9) ? "," : " ,\n\t") + "}"
        return Array(text.utf8)
    }

    /// JSON that is huge, deep, truncated, not an object, or not JSON at all.
    private func hostileJSON(_ random: inout FuzzRandom) -> [UInt8] {
        switch random.int(0...11) {
        case 0:
            let depth = random.pick([63, 64, 65, 100, 1000, 20_000, 33_000])
            return Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        case 1:
            let depth = random.pick([65, 500, 10_000])
            return Array((String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)).utf8)
        case 2: return Array(("[" + Array(repeating: "1", count: random.int(1000...30_000)).joined(separator: ",") + "]").utf8)
        case 3: return Array(("{" + (0..<random.int(100...6000)).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}").utf8)
        case 4: return Array(("{\"menuItemId\":\"" + String(repeating: "x", count: random.pick([201, 5000, 63_000, 70_000])) + "\",\"quantity\":1}").utf8)
        case 5: return Array(random.pick(["{", "{\"quantity\":", "{\"a\":1,}", "[1,2", "\"unterminated", "{'a':1}", "{\"a\" 1}", "nul", "tru", "-", "1e", "{}{}", "{} x"]).utf8)
        case 6: return Array(random.pick(["null", "true", "1", "-1", "\"s\"", "[]", "[{}]", "1e999", "0"]).utf8)
        case 7: return Array(random.pick(["{\"a\":1,\"a\":2}", "{\"quantity\":1,\"quantity\":1}", "{\"\\u0000\":1}", "{\"a\":\"\\ud800\"}", "{\"a\":\"\\x41\"}", "{\"a\":\"\u{01}\"}"]).utf8)
        case 8: return [0xEF, 0xBB, 0xBF] + Array("{\"quantity\":1}".utf8)  // a byte order mark
        case 9: return Array("{\"quantity\":1}".utf8) + [0x00]
        case 10: return Array(repeating: UInt8(ascii: " "), count: random.int(1...70_000)) + Array("{}".utf8)
        default: return Array(("{\"quantity\":" + String(repeating: "9", count: random.int(20...50_000)) + "}").utf8)
        }
    }

    /// A JSON value of any type, often the wrong one.
    private func value(_ random: inout FuzzRandom) -> String {
        switch random.int(0...7) {
        case 0: return number(&random)
        case 1: return quoted(random.pick(["", "latte", "x", String(repeating: "s", count: random.pick([100, 201, 1000, 20_000])), "é☕️", "\\u0000", "\\ud83d", "a\\nb", "../../etc"]))
        case 2: return random.pick(["null", "true", "false"])
        case 3: return random.pick(["[]", "[1]", "[\"a\",null]", "[[[]]]", "[\"bill\",\"\"]"])
        case 4: return random.pick(["{}", "{\"a\":1}", "{\"billId\":1}", "{\"billId\":\"\(fixtures.openBill)\"}"])
        case 5: return "[" + Array(repeating: quoted("menu"), count: random.int(60...200)).joined(separator: ",") + "]"
        case 6: return "{" + (0..<random.int(30...100)).map { "\"i\($0)\":\"v\"" }.joined(separator: ",") + "}"
        default: return quoted(fixtures.openBill)
        }
    }

    /// Numbers around every boundary the API checks, and beyond what it can represent.
    private func number(_ random: inout FuzzRandom) -> String {
        random.pick([
            "0", "1", "2", "-1", "-0", "999", "1000", "1001", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
            "-9223372036854775809", "99999999999999999999999", "10000000000000", "10000000000001", "1.5", "1.0", "1e2", "1E400", "-1e400",
            "1e-400", "0.0000001", "00", "01", "+1", "0x10", "NaN", "Infinity", "-", "1.", ".5", "\"1\"", String(repeating: "9", count: 400),
            String(random.int(Int.min...Int.max)), String(random.int(-5...1200)),
        ])
    }

    private func quoted(_ text: String) -> String { "\"\(text)\"" }

    private func billId(_ random: inout FuzzRandom) -> String {
        if random.chance(0.7) { return random.pick([fixtures.openBill, fixtures.checkedOutBill, fixtures.paidBill]) }
        return random.pick([
            "bill_nope", "", "%00", "%FF", "..", "%2E%2E", "b%2Fc", "\(fixtures.openBill)x", String(fixtures.openBill.dropLast()),
            String(repeating: "b", count: random.pick([100, 1000, 8000])), "%E2%98%95", "bill_%00", "1", "-1", "null",
        ])
    }

    private func lineId(_ random: inout FuzzRandom) -> String {
        random.chance(0.6) ? fixtures.lineId : random.pick(["line_nope", "%00", "0", String(repeating: "l", count: 3000), "%C3%28"])
    }

    private func idempotencyKey(_ random: inout FuzzRandom) -> String {
        random.pick([
            "key-\(random.int(0...20))", UUID(uuidString: "00000000-0000-0000-0000-000000000000")!.uuidString, "", " ", "k y",
            String(repeating: "k", count: random.pick([255, 256, 5000])), "é", "\u{7F}",
        ])
    }

    private func resolveQuery(_ random: inout FuzzRandom) -> String {
        let url = random.pick([
            "routemap://menu", "routemap://bills/\(fixtures.openBill)", "routemap://bills/\(fixtures.openBill)/summary", "routemap://bills/",
            "routemap://nope", "", "http://evil.example/", String(repeating: "u", count: 3000), "routemap%3A%2F%2Fmenu", "%FF", "routemap://bills/%00",
        ])
        var query = "url=\(url)"
        if random.chance(0.4) {
            query += "&from=" + random.pick(["tabBar,splitContainer,menu", "", ",", "nope", String(repeating: "menu,", count: 100), "sub:bill", "%00"])
        }
        return random.chance(0.1) ? query + "&url=" + url : query
    }

    private func query(_ random: inout FuzzRandom) -> String {
        random.pick([
            "a=1", "a", "=", "&&&", "a=%zz", "a=%C3%28", "%00=%00", String(repeating: "q=1&", count: 500), "a=" + String(repeating: "v", count: 10_000), "a=b=c",
        ])
    }
}
