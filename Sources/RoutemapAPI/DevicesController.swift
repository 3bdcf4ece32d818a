import Crypto
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON

/// `POST /v1/devices`: enrolls a till with the store's enrollment code and hands it its token,
/// once. Wrong codes are counted per client address: after a few in a minute the address gets
/// 429 until the minute is over, so the code cannot be guessed by trying.
struct DevicesController {
    let directory: DeviceDirectory
    let enrollmentCode: String
    /// Wrong codes allowed per address per minute.
    static let wrongCodesPerMinute = 5
    let wrongCodes: RateLimiter

    init(directory: DeviceDirectory, enrollmentCode: String) {
        self.directory = directory
        self.enrollmentCode = enrollmentCode
        self.wrongCodes = RateLimiter(rate: Double(Self.wrongCodesPerMinute) / 60, burst: Double(Self.wrongCodesPerMinute))
    }

    func register(on router: inout Router<APIContext>) {
        router.open(.POST, "/v1/devices", enroll)
    }

    @Sendable func enroll(_ request: Request) async throws -> Response {
        let body = try RequestBody(request, allowed: ["name", "enrollmentCode"])
        let name = try body.string("name", maxLength: 100)
        // A name is shown to people and stored as SQLite text (which stops counting at NUL):
        // control characters have no place in it.
        guard !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw Problem.invalidField("name", "'name' must not contain control characters.")
        }
        let code = try body.string("enrollmentCode", maxLength: 200)
        let address = request.remoteAddress ?? "unknown"
        if let wait = wrongCodes.wouldRefuse(address) {
            throw Problem.tooManyRequests("Too many wrong enrollment codes from this address; try again later.", retryAfter: wait)
        }
        guard Self.constantTimeEqual(code, enrollmentCode) else {
            _ = wrongCodes.spend(address)
            throw Problem.unauthorized("The enrollment code is not valid.")
        }
        let (device, token) = try await directory.enroll(name: name)
        return .json(
            ["deviceId": .string(device.id), "name": .string(device.name), "token": .string(token.value)], status: .created,
            headers: ["Cache-Control": "no-store"])
    }

    /// Compares digests, so the time taken says nothing about how much of the code matched.
    private static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let left = SHA256.hash(data: Array(a.utf8)), right = SHA256.hash(data: Array(b.utf8))
        return zip(left, right).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
