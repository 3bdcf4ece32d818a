import Foundation
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON
import RoutemapTestSupport
import Synchronization
import Testing

@testable import RoutemapAPI

/// Roles, the manager's device endpoints and revocation, through the API's pipeline.
@Suite("Devices and roles")
struct DeviceRoleTests {
    /// Enrolls through `POST /v1/devices`; the whole answer.
    static func enroll(_ api: InProcessAPI, name: String, code: String, role: String? = nil, from address: String = "192.0.2.1", forwardedFor: String? = nil)
        async -> TestResponse
    {
        var object: JSONObject = ["name": .string(name), "enrollmentCode": .string(code)]
        if let role { object["role"] = .string(role) }
        let body = JSON.object(object)
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        if let forwardedFor { headers.add(name: "X-Forwarded-For", value: forwardedFor) }
        return await api.send(Request(method: .POST, path: "/v1/devices", headers: headers, body: body.encoded(), remoteAddress: address))
    }

    static func manager(_ api: InProcessAPI) async throws -> String {
        let response = await enroll(api, name: "Owner", code: InProcessAPI.managerEnrollmentCode, role: "manager")
        try #require(response.status == 201, "\(response.text)")
        #expect(response.json["role"]?.stringValue == "manager")
        return response.json["token"]!.string
    }

    static func bearer(_ token: String) -> [(String, String)] { [("Authorization", "Bearer \(token)")] }

    @Test("each role enrolls with its own code only; a till code enrolls a till, with no role given")
    func separateCodes() async throws {
        let api = try await InProcessAPI()
        let till = await Self.enroll(api, name: "Front", code: InProcessAPI.enrollmentCode)
        #expect(till.status == 201)
        #expect(till.json["role"]?.stringValue == "till")
        for (code, role) in [(InProcessAPI.enrollmentCode, "manager"), (InProcessAPI.managerEnrollmentCode, "till")] {
            let refused = await Self.enroll(api, name: "Sneaky", code: code, role: role, from: "192.0.2.\(role.count)")
            expectProblem(refused, 401, "unauthorized")
        }
        let badRole = await Self.enroll(api, name: "Odd", code: InProcessAPI.enrollmentCode, role: "owner")
        expectProblem(badRole, 400, "invalid_field")
        _ = try await Self.manager(api)
        // The in-process device, the till and the manager: nothing else was enrolled.
        #expect(api.store.snapshot.devices.map(\.device.role) == [.till, .till, .manager])
    }

    @Test("a device's name is counted in characters, as openapi.yaml's maxLength counts: 100 accented letters enroll; blank or longer names are 400 and enroll nothing")
    func nameRule() async throws {
        let api = try await InProcessAPI()
        let accented = String(repeating: "é", count: 100)  // 200 UTF-8 bytes
        let enrolled = await Self.enroll(api, name: accented, code: InProcessAPI.enrollmentCode)
        #expect(enrolled.status == 201, "\(enrolled.text)")
        for (index, name) in ["   ", "\u{3000}", String(repeating: "é", count: 101), "a\u{7}b"].enumerated() {
            let refused = await Self.enroll(api, name: name, code: InProcessAPI.enrollmentCode, from: "192.0.2.\(10 + index)")
            expectProblem(refused, 400, "invalid_field")
            #expect(refused.json["field"]?.stringValue == "name")
        }
        #expect(api.store.snapshot.devices.map(\.device.name).last == accented)
        #expect(api.store.snapshot.devices.count == 2)
    }

    @Test("without a manager code no manager can enroll through the API")
    func noManagerCode() async throws {
        let api = try await InProcessAPI(managerEnrollmentCode: nil)
        for code in [InProcessAPI.enrollmentCode, InProcessAPI.managerEnrollmentCode] {
            expectProblem(await Self.enroll(api, name: "Owner", code: code, role: "manager"), 401, "unauthorized")
        }
        #expect(api.store.snapshot.devices.count == 1)
    }

    @Test("a till gets 403 manager_only on manager endpoints and changes nothing; a manager lists every device")
    func tillIsForbidden() async throws {
        let api = try await InProcessAPI()
        let managerToken = try await Self.manager(api)
        let managerId = try #require(api.store.snapshot.devices.last?.device.id)
        let tillId = try #require(api.store.snapshot.devices.first?.device.id)
        expectProblem(await api.get("/v1/devices"), 403, "manager_only")
        expectProblem(await api.send("POST", "/v1/devices/\(managerId)/revoke"), 403, "manager_only")
        #expect(api.store.snapshot.devices.allSatisfy { $0.device.revokedAt == nil })
        // No token at all is still 401 first.
        expectProblem(await api.send("GET", "/v1/devices", authorized: false), 401, "unauthorized")

        let listing = await api.get("/v1/devices", headers: Self.bearer(managerToken))
        #expect(listing.status == 200, "\(listing.text)")
        let devices = listing.json["devices"]?.array ?? []
        #expect(devices.map { $0["deviceId"]?.string ?? "" } == [tillId, managerId])
        #expect(devices.map { $0["role"]?.string ?? "" } == ["till", "manager"])
        #expect(devices.map { $0["current"]?.boolValue ?? false } == [false, true])
        #expect(devices.allSatisfy { $0["revoked"]?.boolValue == false && $0["revokedAt"] == nil && $0["token"] == nil })
    }

    @Test("a revoked till's token is refused from its next request on; revoking again answers the same; its bills stay")
    func revoke() async throws {
        let api = try await InProcessAPI()
        let managerToken = try await Self.manager(api)
        let bill = try await api.newBill()
        let tillId = try #require(api.store.snapshot.devices.first?.device.id)
        #expect(await api.get("/v1/launch").status == 200)  // its token is cached now

        let revoked = await api.send("POST", "/v1/devices/\(tillId)/revoke", headers: Self.bearer(managerToken))
        #expect(revoked.status == 200, "\(revoked.text)")
        #expect(revoked.json["device"]?["revoked"]?.boolValue == true)
        let revokedAt = try #require(revoked.json["device"]?["revokedAt"]?.stringValue)
        expectProblem(await api.get("/v1/launch"), 401, "unauthorized")
        expectProblem(await api.send("POST", "/v1/bills/\(bill["id"]!.string)/items", json: ["menuItemId": "latte", "quantity": 1]), 401, "unauthorized")

        let again = await api.send("POST", "/v1/devices/\(tillId)/revoke", headers: Self.bearer(managerToken))
        #expect(again.status == 200)
        #expect(again.json["device"]?["revokedAt"]?.stringValue == revokedAt)
        #expect(api.store.snapshot.bills[bill["id"]!.string]?.deviceId == tillId)
        expectProblem(
            await api.send("POST", "/v1/devices/dev_nobody/revoke", headers: Self.bearer(managerToken)), 404, "not_found")
    }

    @Test("requests racing a revocation: once it answered, every request of the till is refused")
    func revocationWinsOverLookup() async throws {
        // Many requests from the till race the revoke; afterwards every request is refused. The
        // interleaving is left to the scheduler, so this does not force the case the authenticator's
        // generation check exists for (a lookup that read the store before the revocation and
        // caches after it): it only catches that case when the scheduler happens to produce it.
        let api = try await InProcessAPI()
        let managerToken = try await Self.manager(api)
        let tillId = try #require(api.store.snapshot.devices.first?.device.id)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<200 { group.addTask { _ = await api.get("/v1/menu/items") } }
            group.addTask { _ = await api.send("POST", "/v1/devices/\(tillId)/revoke", headers: Self.bearer(managerToken)) }
        }
        for _ in 0..<5 { expectProblem(await api.get("/v1/menu/items"), 401, "unauthorized") }
    }

    @Test("rotating: both tokens work until the new one is used, then only the new one; rotating again before that replaces the new one")
    func rotate() async throws {
        let api = try await InProcessAPI()
        let managerToken = try await Self.manager(api)
        #expect(await api.get("/v1/devices", headers: Self.bearer(managerToken)).status == 200)
        let lost = await api.send("POST", "/v1/devices/me/token", headers: Self.bearer(managerToken))
        #expect(lost.status == 200, "\(lost.text)")
        #expect(lost.header("Cache-Control") == "no-store")
        let lostToken = try #require(lost.json["token"]?.stringValue)
        // The answer was lost: the old token still works, and rotating again replaces the lost one.
        #expect(await api.get("/v1/devices", headers: Self.bearer(managerToken)).status == 200)
        let rotated = await api.send("POST", "/v1/devices/me/token", headers: Self.bearer(managerToken))
        let newToken = try #require(rotated.json["token"]?.stringValue)
        #expect(Set([managerToken, lostToken, newToken]).count == 3)
        #expect(rotated.json["role"]?.stringValue == "manager")
        expectProblem(await api.get("/v1/devices", headers: Self.bearer(lostToken)), 401, "unauthorized")
        #expect(await api.get("/v1/devices", headers: Self.bearer(newToken)).status == 200)
        // Once the new token was used, the old one is refused (the switch commits in the background).
        var status = 200
        for _ in 0..<100 where status == 200 {
            status = await api.get("/v1/devices", headers: Self.bearer(managerToken)).status
            if status == 200 { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(status == 401)
        #expect(await api.get("/v1/devices", headers: Self.bearer(newToken)).status == 200)
        // A till rotates its own token too.
        #expect(await api.send("POST", "/v1/devices/me/token").status == 200)
    }

    @Test("wrong enrollment codes count per peer address; X-Forwarded-For is ignored from a peer that is not a trusted proxy")
    func wrongCodesIgnoreForwardedForFromUntrustedPeers() async throws {
        let api = try await InProcessAPI()
        for attempt in 0..<5 {
            let response = await Self.enroll(api, name: "Guess", code: "wrong-code-\(attempt)", from: "192.0.2.50", forwardedFor: "198.51.100.\(attempt)")
            expectProblem(response, 401, "unauthorized")
        }
        let sixth = await Self.enroll(api, name: "Guess", code: InProcessAPI.enrollmentCode, from: "192.0.2.50", forwardedFor: "198.51.100.99")
        expectProblem(sixth, 429, "too_many_requests")
    }

    @Test("behind a trusted proxy, wrong codes count per forwarded client: one mistyping client does not lock out the shop")
    func wrongCodesPerForwardedClient() async throws {
        let api = try await InProcessAPI(trustedProxies: TrustedProxies(list: "10.0.0.0/8")!)
        for attempt in 0..<5 {
            let response = await Self.enroll(
                api, name: "Guess", code: "wrong-code-\(attempt)", from: "10.0.0.2", forwardedFor: "203.0.113.7, 10.0.0.9")
            expectProblem(response, 401, "unauthorized")
        }
        // The client on the left of the untrusted one is the client's own invention: ignored.
        let same = await Self.enroll(api, name: "Guess", code: InProcessAPI.enrollmentCode, from: "10.0.0.2", forwardedFor: "1.1.1.1, 203.0.113.7")
        expectProblem(same, 429, "too_many_requests")
        let other = await Self.enroll(api, name: "Front", code: InProcessAPI.enrollmentCode, from: "10.0.0.2", forwardedFor: "203.0.113.8")
        #expect(other.status == 201, "\(other.text)")
    }

    @Test("wrong codes from one IPv6 /64 count as one address (a client holds the whole /64); another /64, or an IPv4 client, is apart")
    func wrongCodesPerIPv6Network() async throws {
        let api = try await InProcessAPI()
        for attempt in 0..<5 {
            let response = await Self.enroll(api, name: "Guess", code: "wrong-code-\(attempt)", from: "2001:db8:1:2::\(attempt + 1)")
            expectProblem(response, 401, "unauthorized")
        }
        // Another address of the same /64, even with the right code: refused.
        expectProblem(await Self.enroll(api, name: "Guess", code: InProcessAPI.enrollmentCode, from: "2001:db8:1:2:ffff::9"), 429, "too_many_requests")
        #expect(await Self.enroll(api, name: "Front", code: InProcessAPI.enrollmentCode, from: "2001:db8:1:3::1").status == 201)
        #expect(await Self.enroll(api, name: "Back", code: InProcessAPI.enrollmentCode, from: "::ffff:192.0.2.7").status == 201)
    }

    @Test("the rate limiter's table stays bounded without resetting anyone: full buckets make room; while all are spending, a new key waits")
    func rateLimiterTable() {
        let now = Mutex(0.0)
        let limiter = RateLimiter(rate: 1, burst: 1, maxKeys: 3, clock: { now.withLock { $0 } })
        for key in ["a", "b", "c"] { #expect(limiter.spend(key) == nil) }
        // Three keys spending: a fourth is refused, and the three keep their state (no reset).
        #expect(limiter.spend("d") == 1)
        #expect(limiter.spend("a") != nil, "a's spent bucket was reset")
        // Once they have refilled, they are the same as absent: room for the new key.
        now.withLock { $0 = 5 }
        #expect(limiter.spend("d") == nil)
        #expect(limiter.spend("d") != nil)
        #expect(RoutemapAPI.DevicesController.wrongCodeKey("2001:db8:1:2::1") == "20010db800010002::/64")
        #expect(RoutemapAPI.DevicesController.wrongCodeKey("::ffff:192.0.2.7") == "192.0.2.7")
        #expect(RoutemapAPI.DevicesController.wrongCodeKey("192.0.2.7") == "192.0.2.7")
    }
}
