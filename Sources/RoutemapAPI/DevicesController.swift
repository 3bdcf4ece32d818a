import Crypto
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON

/// `POST /v1/devices`: enrolls a device with its role's enrollment code and hands it its token,
/// once. Each role has its own code (`role` in the body, `till` when absent). Wrong codes are
/// counted per client address (the peer's, or the one a trusted proxy forwards; an IPv6 /64
/// counts as one address): after a few in a minute the address gets 429 until the minute is
/// over, so a code cannot be guessed by trying.
struct DevicesController {
    let directory: DeviceDirectory
    let enrollmentCodes: [DeviceRole: String]
    let trustedProxies: TrustedProxies
    /// Wrong codes allowed per address per minute.
    static let wrongCodesPerMinute = 5
    let wrongCodes: RateLimiter

    init(directory: DeviceDirectory, enrollmentCodes: [DeviceRole: String], trustedProxies: TrustedProxies = TrustedProxies()) {
        self.directory = directory
        self.enrollmentCodes = enrollmentCodes
        self.trustedProxies = trustedProxies
        self.wrongCodes = RateLimiter(rate: Double(Self.wrongCodesPerMinute) / 60, burst: Double(Self.wrongCodesPerMinute))
    }

    /// What wrong codes are counted under: the client's address; for IPv6, its /64 network,
    /// since one client commonly holds a whole /64 and counting its addresses apart would not
    /// limit it (an IPv4-mapped address counts as its IPv4 address).
    static func wrongCodeKey(_ address: String) -> String {
        guard let parsed = IPAddress(address) else { return address }
        guard !parsed.isIPv4 else { return parsed.description }
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: parsed.bytes[..<8].flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }, as: UTF8.self) + "::/64"
    }

    func register(on router: inout Router<APIContext>) {
        router.open(.POST, "/v1/devices", enroll)
    }

    @Sendable func enroll(_ request: Request) async throws -> Response {
        let body = try RequestBody(request, allowed: ["name", "enrollmentCode", "role"])
        let name = try body.displayName("name")
        let code = try body.string("enrollmentCode", maxLength: 200)
        let role = body.value("role") == nil ? DeviceRole.till : try body.choice("role", of: DeviceRole.self)
        let address = Self.wrongCodeKey(trustedProxies.clientAddress(of: request) ?? "unknown")
        if let wait = wrongCodes.wouldRefuse(address) {
            throw Problem.tooManyRequests("Too many wrong enrollment codes from this address; try again later.", retryAfter: wait)
        }
        // A role without a code (managers, unless --manager-enrollment-code is set) enrolls no
        // one here; the answer is the same as for a wrong code.
        guard let expected = enrollmentCodes[role], Self.constantTimeEqual(code, expected) else {
            _ = wrongCodes.spend(address)
            throw Problem.unauthorized("The enrollment code is not valid for the role '\(role.rawValue)'.")
        }
        let (device, token) = try await directory.enroll(name: name, role: role)
        return .json(
            [
                "deviceId": .string(device.id), "name": .string(device.name), "role": .string(device.role.rawValue),
                "token": .string(token.value),
            ], status: .created,
            headers: ["Cache-Control": "no-store"])
    }

    /// Compares digests, so the time taken says nothing about how much of the code matched.
    private static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let left = SHA256.hash(data: Array(a.utf8)), right = SHA256.hash(data: Array(b.utf8))
        return zip(left, right).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

extension API.Configuration {
    /// The enrollment code of each role that has one.
    var enrollmentCodes: [DeviceRole: String] {
        var codes: [DeviceRole: String] = [.till: enrollmentCode]
        codes[.manager] = managerEnrollmentCode
        return codes
    }
}
