import Foundation
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON
import RoutemapTestSupport
import Testing

@testable import RoutemapAPI

/// The sales report through the API's pipeline: a manager's answer, a till's refusal, and where
/// reads are round trips, the report's read made off the serving thread.
@Suite("Sales report through the pipeline")
struct SalesReportAPITests {
    @Test("where reads are round trips, the report is read inside `reading`, not on the thread serving the request; HEAD answers as GET")
    func readsOffTheServingThread() async throws {
        let api = try await InProcessAPI(readsAreImmediate: false)
        let manager = DeviceRoleTests.bearer(try await DeviceRoleTests.manager(api))
        let bill = try await api.newBill()["id"]!.string
        try await api.add("latte", to: bill)
        let total = try #require(await api.send("POST", "/v1/bills/\(bill)/checkout").json["bill"]?["totalMinor"])
        #expect(await api.send("POST", "/v1/bills/\(bill)/pay", json: ["method": "card", "amountMinor": total]).status == 200)
        let outside = api.store.readsOutsideReading
        let readings = api.store.readingCount
        let path = "/v1/reports/sales?from=2000-01-01T00:00:00Z&to=2099-01-01T00:00:00Z"
        expectProblem(await api.get(path), 403, "manager_only")
        let report = await api.get("/v1/reports/sales?from=2000-01-01T00:00:00Z&to=2000-12-31T00:00:00Z", headers: manager)
        #expect(report.status == 200, "\(report.text)")
        #expect(report.json["payments"]?["count"] == 0 && report.json["unsettledNow"]?["checkedOut"] == 0, "\(report.text)")
        let head = await api.send("HEAD", "/v1/reports/sales?from=2000-01-01T00:00:00Z&to=2000-12-31T00:00:00Z", headers: manager)
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(api.store.readingCount > readings)
        #expect(api.store.readsOutsideReading == outside, "a store read held the thread serving a request")
        // A century is longer than 366 days: refused after the manager check, naming `to`.
        let refused = await api.get(path, headers: manager)
        expectProblem(refused, 400, "invalid_field")
        #expect(refused.json["field"] == "to")
    }

    @Test(
        "RFC 3339 instants: an offset is required and applied, milliseconds kept, finer fractions only as zeros",
        arguments: [
            ("2026-11-25T00:00:00+01:00", 1_795_561_200_000 as Int64?),
            ("2026-11-24T23:00:00Z", 1_795_561_200_000),
            ("2026-11-24t23:00:00z", 1_795_561_200_000),
            ("2026-11-24T18:00:00-05:00", 1_795_561_200_000),
            ("2026-11-24T23:00:00.5Z", 1_795_561_200_500),
            ("2026-11-24T23:00:00.123000Z", 1_795_561_200_123),
            ("2024-02-29T00:00:00Z", 1_709_164_800_000),
            ("0000-01-01T00:00:00Z", -62_167_219_200_000),
            ("2026-11-24T23:00:00.1234Z", nil),
            ("2026-11-24T23:00:00", nil),
            ("2026-11-24T23:00:00 01:00", nil),
            ("2026-11-24 23:00:00Z", nil),
            ("2026-11-24T23:00Z", nil),
            ("2026-11-24T23:00:00.Z", nil),
            ("2026-11-24T23:00:60Z", nil),
            ("2026-11-24T24:00:00Z", nil),
            ("2025-02-29T00:00:00Z", nil),
            ("2026-13-01T00:00:00Z", nil),
            ("2026-11-24T23:00:00+1:00", nil),
            ("2026-11-24T23:00:00+01:00x", nil),
            ("0000-01-01T00:00:00+00:01", nil),
            ("9999-12-31T23:59:59.999Z", 253_402_300_799_999),
            ("9999-12-31T23:59:59-00:01", nil),
            ("２026-11-24T23:00:00Z", nil),
        ])
    func instants(text: String, milliseconds: Int64?) {
        let date = Timestamp.instant(rfc3339: text)
        #expect(date.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) } == milliseconds, "\(text)")
    }
}
