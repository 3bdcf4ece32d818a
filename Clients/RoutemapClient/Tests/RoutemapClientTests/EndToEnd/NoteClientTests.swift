import Foundation
import Testing

@testable import RoutemapClient

/// Line notes through the library: a line without a note (a server from before notes) decodes
/// with none; against the real server an add with a note, the bill screen's setNote action, a
/// change with the quantity, clearing, and a refused note.
@Suite("Line notes")
struct NoteClientTests {
    @Test("a line without a note (a server from before notes) has none; with one, it round-trips; requests leave out what is not given")
    func decoding() throws {
        let decoder = JSONDecoder()
        let old = try decoder.decode(
            BillLine.self,
            from: Data(#"{"lineId":"line_1","menuItemId":"latte","name":"Latte","quantity":1,"unitPriceMinor":475,"lineTotalMinor":475}"#.utf8))
        #expect(old.note == nil)
        let noted = try decoder.decode(
            BillLine.self,
            from: Data(
                #"{"lineId":"line_1","menuItemId":"latte","name":"Latte","quantity":1,"unitPriceMinor":475,"lineTotalMinor":475,"note":"extra hot"}"#.utf8))
        #expect(noted.note == "extra hot")
        #expect(try decoder.decode(BillLine.self, from: JSONEncoder().encode(noted)) == noted)
        #expect(try JSONValue(encoding: AddItemRequest(menuItemId: "latte", quantity: 1))["note"] == nil)
        #expect(try JSONValue(encoding: AddItemRequest(menuItemId: "latte", quantity: 1, note: "hot"))["note"] == "hot")
        #expect(try JSONValue(encoding: UpdateItemRequest(quantity: 2)) == ["quantity": 2])
        #expect(try JSONValue(encoding: UpdateItemRequest(note: "")) == ["note": ""])
    }

    @Test("add with a note (another note is another line), the bill screen's setNote, a note with a quantity, clearing; a note too long is refused")
    func notes() async throws {
        let app = try await AppFixture()
        defer { app.stop() }
        try await app.start()
        let billId = try await app.shownBill().id
        _ = try await app.add("latte")
        let added = try await app.client.addItem(billId: billId, menuItemId: "latte", note: " extra hot ")
        #expect(added.answer.bill.lines.map(\.note) == [nil, "extra hot"] && added.answer.bill.lines.map(\.quantity) == [1, 1])

        // The bill screen's action on the plain line, with the note the user typed.
        let plain = try await Self.line(app, 0)
        let prepared = try await app.session.prepare(action: "setNote", on: "bill", item: plain, values: ["note": "no foam"])
        #expect(prepared.method == .patch && prepared.body == ["note": "no foam"])
        try await app.session.perform(prepared)
        #expect(try await app.shownBill().lines.map(\.note) == ["no foam", "extra hot"])

        let lineId = try await app.shownBill().lines[0].lineId
        let changed = try await app.client.setNote(billId: billId, lineId: lineId, note: "oat", quantity: 3)
        #expect(changed.answer.bill.lines[0].note == "oat" && changed.answer.bill.lines[0].quantity == 3)
        let cleared = try await app.client.setNote(billId: billId, lineId: lineId, note: "")
        #expect(cleared.answer.bill.lines[0].note == nil && cleared.answer.bill.lines[0].quantity == 3)
        await #expect {
            _ = try await app.client.setNote(billId: billId, lineId: lineId, note: String(repeating: "x", count: 141))
        } throws: { ($0 as? Problem)?.code == .invalidField }
        #expect(try await app.client.bill(id: billId).lines[0].note == nil)
    }

    private static func line(_ app: AppFixture, _ index: Int) async throws -> JSONValue {
        try #require(try await app.session.screen(of: "bill")?.screen.payload["lines"]?.arrayValue?[index])
    }
}
