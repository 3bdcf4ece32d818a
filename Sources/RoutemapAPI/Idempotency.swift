import Crypto
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON
import Synchronization

/// The API's side of idempotency keys (Stripe's semantics, the IETF Idempotency-Key draft's
/// status codes): reading the header, fingerprinting the request, refusing a duplicate while
/// the first is still running, and answering from a recorded answer. The domain records the
/// answer, as opaque bytes this type encodes, in the same transaction as the effect.
package final class Idempotency: Sendable {
    package init() {}

    /// Keys being processed now, as "device key": a second request with one gets 409.
    private let inFlight = Mutex<Set<String>>([])

    /// The `Idempotency-Key` header: `nil` when absent; 400 when it is not 1 to 255 visible
    /// ASCII characters, or absent where `required`.
    package func key(of request: Request, required: Bool) throws -> String? {
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

    /// The one way an endpoint changes data under an optional `Idempotency-Key` (required
    /// where `keyRequired`): runs the use case through `change` and answers with `answer`,
    /// rendered once.
    ///
    /// Without a key, the use case runs and its outcome is rendered after the commit. With
    /// one, the key is claimed for the device (409 `idempotency_key_in_flight` while another
    /// request holds it), and the use case renders its outcome (or the state conflict it ran
    /// into) inside its transaction, recorded with the effect; a retry with the same key and
    /// request gets the recorded answer marked `Idempotent-Replayed: true`, a different
    /// request 422 `idempotency_key_reused`.
    package func perform<Outcome: Sendable>(
        _ request: Request, body: RequestBody, device: AuthenticatedDevice, keyRequired: Bool = false,
        change: (IdempotencyKey<Outcome>?) async throws -> IdempotentOutcome<Outcome>,
        answer: @escaping @Sendable (Outcome) throws -> Response
    ) async throws -> Response {
        guard let key = try key(of: request, required: keyRequired) else {
            switch try await change(nil) {
            case .performed(let outcome, _): return try answer(outcome)
            case .replayed(let recorded): return try RecordedAnswerCoding.decode(recorded.answer)  // Needs a key: never.
            }
        }
        let claim = device.id + " " + key
        guard inFlight.withLock({ $0.insert(claim).inserted }) else {
            throw Problem(
                status: .conflict, code: "idempotency_key_in_flight", title: "Idempotency key in flight",
                detail: "A request with this Idempotency-Key is still being processed; retry after it finishes.")
        }
        defer { _ = inFlight.withLock { $0.remove(claim) } }
        let recording = IdempotencyKey<Outcome>(key: key, fingerprint: Self.fingerprint(of: request, body: body)) { outcome in
            switch outcome {
            case .success(let value): RecordedAnswerCoding.encode(try answer(value))
            case .failure(let conflict): (conflict as? any ProblemConvertible).map { RecordedAnswerCoding.encode($0.problem.response) }
            }
        }
        switch try await change(recording) {
        case .performed(_, let recorded?):
            return try RecordedAnswerCoding.decode(recorded.answer)
        case .performed(let outcome, nil):
            return try answer(outcome)
        case .replayed(let recorded):
            var response = try RecordedAnswerCoding.decode(recorded.answer)
            response.headers.replaceOrAdd(name: "Idempotent-Replayed", value: "true")
            return response
        }
    }

    /// What identifies a request for its key: method, path and the body the handler already
    /// read as it reads it (its `null` members left out, as absent), with object members in
    /// sorted order (so member order and whitespace do not matter), hashed.
    package static func fingerprint(of request: Request, body: RequestBody) -> String {
        let text = Array("\(request.method.rawValue) \(request.path)\n".utf8) + body.meaning.canonical.encoded()
        return hex(SHA256.hash(data: text))
    }
}

extension JSON {
    /// The same value with every object's members sorted by name.
    package var canonical: JSON {
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
