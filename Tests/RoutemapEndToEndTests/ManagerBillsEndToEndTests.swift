import Foundation
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// A lost till's bills dealt with by a manager, over HTTP against the real binary: listed,
/// read, transferred to another till that pays, voided; and the refusals around it.
@Suite("A manager deals with a lost till's bills, end to end")
struct ManagerBillsEndToEndTests {
    static let managerCode = "e2e-manager-code"

    static func key(_ value: String) -> [(String, String)] { [("Idempotency-Key", value)] }

    /// A server with a manager enrollment code; its default till (the one that gets lost), a
    /// second till and a manager, each with its own client, and the tills' ids.
    struct Shop {
        let process: RoutemapProcess
        let lost: TestHTTPClient
        let counter: TestHTTPClient
        let manager: TestHTTPClient
        let lostId: String
        let counterId: String

        init() throws {
            process = try RoutemapProcess(arguments: ["--manager-enrollment-code", ManagerBillsEndToEndTests.managerCode])
            lost = try process.client()
            counter = try process.client(authorized: false)
            counter.defaultHeaders = [("Authorization", "Bearer \(try process.enroll(name: "Counter"))")]
            manager = try process.client(authorized: false)
            let enrolled = try manager.json(
                "POST", "/v1/devices", ["name": "Owner", "enrollmentCode": .string(ManagerBillsEndToEndTests.managerCode), "role": "manager"])
            try #require(enrolled.status == 201, "\(enrolled.text)")
            manager.defaultHeaders = [("Authorization", "Bearer \(enrolled.json["token"]!.string)")]
            let devices = try manager.request("GET", "/v1/devices").json["devices"]?.arrayValue ?? []
            func id(_ name: String) throws -> String {
                try #require(devices.first { $0["name"]?.stringValue == name }?["deviceId"]?.stringValue, "no device \(name)")
            }
            lostId = try id("e2e till")
            counterId = try id("Counter")
        }
    }

    static func ids(_ response: TestResponse) -> [String] {
        response.json["bills"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
    }

    static func launchBill(_ client: TestHTTPClient) throws -> String? {
        try client.request("GET", "/v1/launch").json["navigation"]?.arrayValue?.last { $0["route"] == "bill" }?["screen"]?["payload"]?["id"]?
            .stringValue
    }

    @Test("the lost tablet: revoked, its bills listed, the checked-out one transferred to another till that pays it, the open one voided")
    func lostTablet() throws {
        let shop = try Shop()
        defer { shop.process.cleanUp() }
        // The till that gets lost: an open tab, and a bill checked out and never paid.
        let tab = try #require(try Self.launchBill(shop.lost))
        #expect(try shop.lost.json("POST", "/v1/bills/\(tab)/items", ["menuItemId": "croissant", "quantity": 1]).status == 200)
        Thread.sleep(forTimeInterval: 0.003)  // listed by time, not by id
        let checkedOut = try #require(shop.lost.request("POST", "/v1/bills").json["bill"]?["id"]?.stringValue)
        #expect(try shop.lost.json("POST", "/v1/bills/\(checkedOut)/items", ["menuItemId": "latte", "quantity": 2]).status == 200)
        let frozen = try shop.lost.request("POST", "/v1/bills/\(checkedOut)/checkout")
        #expect(frozen.status == 200, "\(frozen.text)")
        let total = try #require(frozen.json["bill"]?["totalMinor"])
        // The other till is on a bill of its own.
        let counterBill = try #require(try Self.launchBill(shop.counter))

        let revoked = try shop.manager.request("POST", "/v1/devices/\(shop.lostId)/revoke")
        #expect(revoked.status == 200, "\(revoked.text)")
        expectProblem(try shop.lost.request("GET", "/v1/bills"), 401, "unauthorized")

        // The manager lists and reads the revoked till's bills, a page at a time.
        let listed = try shop.manager.request("GET", "/v1/devices/\(shop.lostId)/bills")
        #expect(listed.status == 200, "\(listed.text)")
        #expect(Self.ids(listed) == [checkedOut, tab])
        #expect(listed.json["bills"]?.arrayValue?.map { $0["current"]?.boolValue ?? false } == [true, false])
        let firstPage = try shop.manager.request("GET", "/v1/devices/\(shop.lostId)/bills?limit=1&status=checked_out,open")
        #expect(Self.ids(firstPage) == [checkedOut] && firstPage.json["nextCursor"]?.stringValue == checkedOut)
        let secondPage = try shop.manager.request("GET", "/v1/devices/\(shop.lostId)/bills?limit=1&cursor=\(checkedOut)")
        #expect(Self.ids(secondPage) == [tab] && secondPage.json["nextCursor"] == nil)
        #expect(Self.ids(try shop.manager.request("GET", "/v1/devices/\(shop.lostId)/bills?status=open")) == [tab])
        let read = try shop.manager.request("GET", "/v1/bills/\(checkedOut)")
        #expect(read.status == 200 && read.json["status"] == "checked_out" && read.json["totalMinor"] == total, "\(read.text)")

        // Transferred to the counter till, under a key: a retry gets the recorded answer.
        let transferred = try shop.manager.json(
            "POST", "/v1/bills/\(checkedOut)/transfer", ["deviceId": .string(shop.counterId)], headers: Self.key("move-1"))
        #expect(transferred.status == 200, "\(transferred.text)")
        #expect(transferred.json["id"]?.stringValue == checkedOut && transferred.json["status"] == "checked_out")
        #expect(transferred.json == (try shop.manager.request("GET", "/v1/bills/\(checkedOut)").json))
        let replayed = try shop.manager.json(
            "POST", "/v1/bills/\(checkedOut)/transfer", ["deviceId": .string(shop.counterId)], headers: Self.key("move-1"))
        #expect(replayed.status == 200 && replayed.header("Idempotent-Replayed") == "true")
        #expect(replayed.body == transferred.body)
        #expect(Self.ids(try shop.manager.request("GET", "/v1/devices/\(shop.lostId)/bills")) == [tab])

        // The counter till sees it in its list, stays on its own bill, and pays it.
        let counterList = try shop.counter.request("GET", "/v1/bills")
        #expect(Set(Self.ids(counterList)) == [checkedOut, counterBill], "\(counterList.text)")
        #expect(try Self.launchBill(shop.counter) == counterBill, "the transferred bill is not the counter's current bill by itself")
        #expect(try shop.counter.request("GET", "/v1/bills/\(checkedOut)").status == 200)
        let paid = try shop.counter.json(
            "POST", "/v1/bills/\(checkedOut)/pay", ["method": "card", "amountMinor": total], headers: Self.key("pay-moved"))
        #expect(paid.status == 200, "\(paid.text)")
        #expect(paid.json["bill"]?["status"] == "paid")
        // Settled now: a transfer is refused as other changes of a settled bill are.
        expectProblem(
            try shop.manager.json("POST", "/v1/bills/\(checkedOut)/transfer", ["deviceId": .string(shop.counterId)]), 409, "bill_settled")

        // The open tab is voided by the manager; the lost till gets no new bill.
        let voided = try shop.manager.json("POST", "/v1/bills/\(tab)/void", ["reason": "Tablet lost"], headers: Self.key("void-tab"))
        #expect(voided.status == 200, "\(voided.text)")
        #expect(voided.json["bill"]?["status"] == "voided" && voided.json["bill"]?["void"]?["reason"] == "Tablet lost")
        #expect(voided.json["nextBill"]?["id"]?.stringValue != tab)
        let left = try shop.manager.request("GET", "/v1/devices/\(shop.lostId)/bills")
        #expect(left.status == 200 && Self.ids(left).isEmpty, "\(left.text)")
        #expect(try shop.manager.request("GET", "/v1/bills/\(tab)").json["status"] == "voided")
    }

    @Test("a till gets 403 from the manager endpoints and 404 for another device's bill; bad transfers are refused and change nothing")
    func refusals() throws {
        let shop = try Shop()
        defer { shop.process.cleanUp() }
        let bill = try #require(try Self.launchBill(shop.lost))
        #expect(try shop.lost.json("POST", "/v1/bills/\(bill)/items", ["menuItemId": "latte", "quantity": 1]).status == 200)
        let before = try shop.lost.request("GET", "/v1/bills/\(bill)").json

        expectProblem(try shop.counter.request("GET", "/v1/devices/\(shop.lostId)/bills"), 403, "manager_only")
        expectProblem(try shop.counter.request("GET", "/v1/devices/\(shop.counterId)/bills"), 403, "manager_only")
        expectProblem(try shop.counter.json("POST", "/v1/bills/\(bill)/transfer", ["deviceId": .string(shop.counterId)]), 403, "manager_only")
        expectProblem(try shop.counter.request("GET", "/v1/bills/\(bill)"), 404, "not_found")
        expectProblem(try shop.counter.json("POST", "/v1/bills/\(bill)/void", ["reason": "not mine"]), 404, "not_found")
        expectProblem(try shop.lost.request("GET", "/v1/devices/\(shop.lostId)/bills"), 403, "manager_only")

        expectProblem(try shop.manager.request("GET", "/v1/devices/dev_nobody/bills"), 404, "not_found")
        expectProblem(try shop.manager.request("GET", "/v1/devices/\(shop.lostId)/bills?limit=0"), 400, "invalid_field")
        expectProblem(try shop.manager.request("GET", "/v1/devices/\(shop.lostId)/bills?cursor=bill_nope"), 400, "invalid_field")
        expectProblem(try shop.manager.json("POST", "/v1/bills/bill_nope/transfer", ["deviceId": .string(shop.counterId)]), 404, "not_found")
        expectProblem(try shop.manager.json("POST", "/v1/bills/\(bill)/transfer", ["deviceId": "dev_nobody"]), 422, "device_not_active")
        expectProblem(try shop.manager.json("POST", "/v1/bills/\(bill)/transfer", [:]), 400, "invalid_field")
        expectProblem(
            try shop.manager.json("POST", "/v1/bills/\(bill)/transfer", ["deviceId": .string(shop.counterId), "note": "x"]), 400, "invalid_field")
        #expect(try shop.manager.request("POST", "/v1/devices/\(shop.counterId)/revoke").status == 200)
        let refused = try shop.manager.json("POST", "/v1/bills/\(bill)/transfer", ["deviceId": .string(shop.counterId)], headers: Self.key("to-revoked"))
        expectProblem(refused, 422, "device_not_active")
        #expect(refused.json["deviceId"]?.stringValue == shop.counterId)
        // Nothing changed: the bill is still the first till's, as it was.
        #expect(try shop.lost.request("GET", "/v1/bills/\(bill)").json == before)
        #expect(Self.ids(try shop.lost.request("GET", "/v1/bills")) == [bill])
    }
}
