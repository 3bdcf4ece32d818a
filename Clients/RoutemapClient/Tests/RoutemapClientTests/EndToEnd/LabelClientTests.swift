import Foundation
import Testing

@testable import RoutemapClient

/// Bill labels through the library: a bill or list entry without a label (a server from before
/// labels) decodes with none; against the real server a bill created with a label, found by it
/// in the list, renamed by the bill screen's setLabel action, cleared, removed, and refused when
/// too long or once paid.
@Suite("Bill labels")
struct LabelClientTests {
    @Test("a bill, a list entry and a summary without a label (a server from before labels) have none; requests say what they mean")
    func decoding() throws {
        let decoder = JSONDecoder()
        let bill = #"{"id":"bill_1","status":"open","lines":[],"subtotalMinor":0,"discountMinor":0,"taxMinor":0,"totalMinor":0,"currency":"USD","version":1}"#
        #expect(try decoder.decode(Bill.self, from: Data(bill.utf8)).label == nil)
        let named = try decoder.decode(Bill.self, from: Data(bill.replacingOccurrences(of: #""version":1"#, with: #""version":1,"label":"Table 4""#).utf8))
        #expect(named.label == "Table 4")
        #expect(try decoder.decode(Bill.self, from: JSONEncoder().encode(named)) == named)
        let entry = #"{"id":"bill_1","status":"open","lineCount":0,"subtotalMinor":0,"discountMinor":0,"taxMinor":0,"totalMinor":0,"currency":"USD","createdAt":"2025-01-01T09:00:00.000Z","current":true}"#
        #expect(try decoder.decode(BillListEntry.self, from: Data(entry.utf8)).label == nil)
        #expect(try JSONValue(encoding: CreateBillRequest()) == [:])
        #expect(try JSONValue(encoding: CreateBillRequest(label: "Table 4")) == ["label": "Table 4"])
        #expect(try JSONValue(encoding: SetLabelRequest(label: nil)) == ["label": .null])
    }

    @Test("create with a label, find it in the list, rename with the screen's setLabel, clear, remove; too long and paid are refused")
    func labels() async throws {
        let app = try await AppFixture()
        defer { app.stop() }
        try await app.start()
        let created = try await app.client.createBill(label: " Table 4 ")
        let billId = created.answer.bill.id
        #expect(created.answer.bill.label == "Table 4")
        let twin = try await app.client.createBill(label: "Table 4").answer.bill
        let plain = try await app.client.createBill().answer.bill
        #expect(twin.label == "Table 4" && twin.id != billId && plain.label == nil)
        let listed = try await app.client.bills().bills
        #expect(listed.first { $0.id == billId }?.label == "Table 4" && listed.filter { $0.label == "Table 4" }.count == 2)
        #expect(listed.first { $0.id == plain.id }?.label == nil)

        // The bill screen (showing the plain bill, the current one): its setLabel action with the
        // label the user typed, then its removeLabel.
        _ = try await app.session.perform(try await app.session.prepare(action: "newBill", on: "bill"))
        let shown = try await app.shownBill().id
        let prepared = try await app.session.prepare(action: "setLabel", on: "bill", values: ["label": "Sam's tab"])
        #expect(prepared.method == .put && prepared.body == ["label": "Sam's tab"])
        try await app.session.perform(prepared)
        let named = try await app.shownBill()
        #expect(named.label == "Sam's tab" && named.id == shown)
        try await app.session.perform(try await app.session.prepare(action: "removeLabel", on: "bill"))
        #expect(try await app.shownBill().label == nil)

        let renamed = try await app.client.setLabel(billId: billId, "Sam's tab")
        #expect(renamed.answer.bill.label == "Sam's tab")
        #expect(try await app.client.setLabel(billId: billId, "").answer.bill.label == nil)
        _ = try await app.client.setLabel(billId: billId, "Table 9")
        #expect(try await app.client.setLabel(billId: billId, nil).answer.bill.label == nil)
        _ = try await app.client.setLabel(billId: billId, "Table 9")
        #expect(try await app.client.removeLabel(billId: billId).answer.bill.label == nil)
        await #expect {
            _ = try await app.client.setLabel(billId: billId, String(repeating: "x", count: 41))
        } throws: { ($0 as? Problem)?.code == .invalidField }
        await #expect {
            _ = try await app.client.createBill(label: String(repeating: "x", count: 41))
        } throws: { ($0 as? Problem)?.code == .invalidField }

        // Checked out: still named, on the summary too; paid: bill_settled, the label kept.
        _ = try await app.client.setLabel(billId: billId, "Table 9")
        try await app.checkOut(billId)
        let bill = try await app.client.bill(id: billId)
        #expect(bill.label == "Table 9" && bill.status == .checkedOut)
        _ = try await app.client.pay(billId: billId, PayRequest(method: .card, amountMinor: bill.dueMinor), intent: UserIntent())
        await #expect {
            _ = try await app.client.setLabel(billId: billId, "Table 10")
        } throws: { ($0 as? Problem)?.code == .billSettled }
        #expect(try await app.client.bill(id: billId).label == "Table 9")
    }
}
