import Crypto
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON
import Synchronization

/// The API's side of idempotency keys (Stripe's semantics, the IETF Idempotency-Key draft's
/// status codes): reading the header, fingerprinting the request, refusing a duplicate while
/// the first is still running, and answering from a recorded response. The domain records
/// answers in the same transaction as the effect.
final class Idempotency: Sendable {
    /// Keys being processed now, as "device key": a second request with one gets 409.
    private let inFlight = Mutex<Set<String>>([])

    /// The `Idempotency-Key` header: `nil` when absent; 400 when it is not 1 to 255 visible
    /// ASCII characters, or absent where `required`.
    func key(of request: Request, required: Bool) throws -> String? {
        guard let key = request.headers["Idempotency-Key"] else {
            guard !required else {
                throw Problem(
                    status: .badRequest, code: "idempotency_key_required", title: "Idempotency key required",
                    detail: "This request needs an Idempotency-Key header (a unique value per payment attempt, e.g. a UUID).")
            }
            return nil
        }
        guard (1...255).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw Problem.invalidField("Idempotency-Key", "Idempotency-Key must be 1 to 255 visible ASCII characters.")
        }
        return key
    }

    /// Runs `body` with `key` claimed for `device`; 409 `idempotency_key_in_flight` if it is
    /// claimed already.
    func whileClaimed<T>(_ key: String?, device: String, _ body: () throws -> T) throws -> T {
        guard let key else { return try body() }
        let claim = device + " " + key
        guard inFlight.withLock({ $0.insert(claim).inserted }) else {
            throw Problem(
                status: .conflict, code: "idempotency_key_in_flight", title: "Idempotency key in flight",
                detail: "A request with this Idempotency-Key is still being processed; retry after it finishes.")
        }
        defer { _ = inFlight.withLock { $0.remove(claim) } }
        return try body()
    }

    /// What identifies a request for its key: method, path and the body the handler already
    /// read, with object members in sorted order (so member order and whitespace do not
    /// matter), hashed.
    static func fingerprint(of request: Request, body: RequestBody) -> String {
        let text = Array("\(request.method.rawValue) \(request.path)\n".utf8) + body.json.canonical.encoded()
        return hex(SHA256.hash(data: text))
    }

    /// The recorded answer, marked as a replay.
    static func replay(_ recorded: RecordedResponse) -> Response {
        var headers: HTTPHeaders = [
            "Content-Type": recorded.status >= 400 ? "application/problem+json" : "application/json",
            "Idempotent-Replayed": "true",
        ]
        if let location = recorded.location { headers.add(name: "Location", value: location) }
        return Response(status: HTTPStatus(code: recorded.status), headers: headers, body: recorded.body)
    }

    /// The answer recorded now, as sent the first time.
    static func first(_ recorded: RecordedResponse) -> Response {
        var response = replay(recorded)
        response.headers.remove(name: "Idempotent-Replayed")
        return response
    }
}

extension JSON {
    /// The same value with every object's members sorted by name.
    var canonical: JSON {
        switch self {
        case .object(let object):
            return .object(JSONObject(object.keys.sorted().map { ($0, object[$0]!.canonical) }))
        case .array(let items):
            return .array(items.map(\.canonical))
        case .fragment(let fragment):
            return fragment.value.canonical
        default:
            return self
        }
    }
}

/// Lowercase hexadecimal, two digits a byte.
private func hex<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(64)
    for byte in bytes {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
}
