import Foundation
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON
import RoutemapTestSupport
import Testing

@testable import RoutemapAPI

/// A manager's hold on other devices' bills through the API's pipeline: reading, listing,
/// transferring and voiding; what a till gets instead; what a refusal leaves.
@Suite("A manager and other devices' bills")
struct ManagerBillsAPITests {
    static func bearer(_ token: String) -> [(String, String)] { DeviceRoleTests.bearer(token) }

    @Test("a manager reads, lists, transfers and voids a till's bills; the till and another till get 404 and 403 as before")
    func managerActs() async throws {
        let api = try await InProcessAPI()
        let manager = Self.bearer(try await DeviceRoleTests.manager(api))
        let other = await DeviceRoleTests.enroll(api, name: "Counter", code: InProcessAPI.enrollmentCode)
        let otherToken = Self.bearer(other.json["token"]!.string)
        let otherId = other.json["deviceId"]!.string
        let tillId = try #require(api.store.snapshot.devices.first?.device.id)
        let bill = try await api.newBill()["id"]!.string
        try await api.add("latte", to: bill)

        #expect(await api.get("/v1/bills/\(bill)", headers: manager).json == (try await api.bill(bill)))
        expectProblem(await api.get("/v1/bills/\(bill)", headers: otherToken), 404, "not_found")
        let listed = await api.get("/v1/devices/\(tillId)/bills", headers: manager)
        #expect(listed.json == (await api.get("/v1/bills")).json, "the same answer as the till's own list")
        let head = await api.send("HEAD", "/v1/devices/\(tillId)/bills", headers: manager)
        #expect(head.status == 200 && head.body.isEmpty, "HEAD is answered as GET is, without the body")
        expectProblem(await api.get("/v1/devices/\(tillId)/bills", headers: otherToken), 403, "manager_only")
        expectProblem(await api.send("POST", "/v1/bills/\(bill)/transfer", json: ["deviceId": .string(otherId)], headers: otherToken), 403, "manager_only")
        expectProblem(await api.send("POST", "/v1/bills/\(bill)/transfer", json: ["deviceId": .string(otherId)]), 403, "manager_only")
        #expect(try await api.bill(bill)["version"] == 2, "refusals changed nothing")

        let moved = await api.send("POST", "/v1/bills/\(bill)/transfer", json: ["deviceId": .string(otherId)], headers: manager)
        #expect(moved.status == 200, "\(moved.text)")
        #expect(moved.json["id"]?.stringValue == bill && moved.json["version"] == 3)
        expectProblem(await api.get("/v1/bills/\(bill)"), 404, "not_found")
        #expect(await api.get("/v1/bills/\(bill)", headers: otherToken).status == 200)

        // The counter had no bill: it got a new current one, so the transferred bill is not selected.
        let counterBills = api.store.snapshot.bills.values.filter { $0.deviceId == otherId }
        #expect(counterBills.count == 2)
        #expect(api.store.snapshot.currentBill(deviceId: otherId)?.id != bill)

        let voided = await api.send("POST", "/v1/bills/\(bill)/void", json: ["reason": "walked out"], headers: manager)
        #expect(voided.status == 200, "\(voided.text)")
        #expect(voided.json["bill"]?["status"] == "voided")
        // The voided bill was on none of the manager's screens: no steps, what they show stays.
        #expect(voided.json["navigation"] == .array([]), "\(voided.text)")
        let managerId = try #require(api.store.snapshot.devices.first { $0.device.role == .manager }?.device.id)
        #expect(api.store.snapshot.bills[voided.json["nextBill"]!["id"]!.string]?.deviceId == managerId)
        #expect(api.store.snapshot.bills.values.filter { $0.deviceId == otherId }.count == 2, "the device that had the bill gets no new bill")
    }

    @Test("a manager reads any device's payment, as it reads any bill; another till gets 404 for it")
    func managerReadsPayment() async throws {
        let api = try await InProcessAPI()
        let manager = Self.bearer(try await DeviceRoleTests.manager(api))
        let other = Self.bearer(await DeviceRoleTests.enroll(api, name: "Counter", code: InProcessAPI.enrollmentCode).json["token"]!.string)
        let bill = try await api.newBill()["id"]!.string
        try await api.add("latte", to: bill)
        let total = await api.send("POST", "/v1/bills/\(bill)/checkout").json["bill"]!["totalMinor"]!.int
        let paid = await api.send("POST", "/v1/bills/\(bill)/pay", json: ["method": "card", "amountMinor": .int(total)])
        let paymentId = try #require(paid.json["payment"]?["id"]?.stringValue, "\(paid.text)")

        let own = await api.get("/v1/payments/\(paymentId)")
        #expect(own.status == 200 && own.json["id"]?.stringValue == paymentId)
        let managers = await api.get("/v1/payments/\(paymentId)", headers: manager)
        #expect(managers.status == 200, "\(managers.text)")
        #expect(managers.json == own.json)
        expectProblem(await api.get("/v1/payments/\(paymentId)", headers: other), 404, "not_found")
        expectProblem(await api.get("/v1/payments/pay_nope", headers: manager), 404, "not_found")
    }

    @Test("where reads are round trips, a manager's list and read run inside the store's reading, never on the serving thread")
    func readsInsideReading() async throws {
        let api = try await InProcessAPI(readsAreImmediate: false)
        let manager = Self.bearer(try await DeviceRoleTests.manager(api))
        let tillId = try #require(api.store.snapshot.devices.first?.device.id)
        let bill = try await api.newBill()["id"]!.string
        _ = await api.get("/v1/devices/\(tillId)/bills", headers: manager)  // the manager's token, cached
        let outside = api.store.readsOutsideReading
        let listed = await api.get("/v1/devices/\(tillId)/bills", headers: manager)
        #expect(listed.status == 200 && listed.json["bills"]?.arrayValue?.first?["id"]?.stringValue == bill, "\(listed.text)")
        expectProblem(await api.get("/v1/devices/dev_nobody/bills", headers: manager), 404, "not_found")
        #expect(await api.get("/v1/bills/\(bill)", headers: manager).status == 200)
        #expect(api.store.readsOutsideReading == outside, "a store read held the thread serving the request")
    }
}
