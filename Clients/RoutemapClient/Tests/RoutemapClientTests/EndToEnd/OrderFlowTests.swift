import Foundation
import Testing

@testable import RoutemapClient

/// An order taken the way an app takes it: launch, then only the screens' actions (no endpoint
/// path written here besides launch's, which the session knows), against the real server.
@Suite("Order flow through screen actions, end to end")
struct OrderFlowTests {
    @Test("Launch, add, change, remove, check out and pay through actions; a lost pay answer is retried as the same intent and replayed")
    func order() async throws {
        let transport = LossyTransport(watching: "/pay")
        let app = try await AppFixture(transport: transport)
        defer { app.stop() }
        try await app.start()
        let firstBill = try await app.shownBill()
        #expect(firstBill.status == .open && firstBill.lines.isEmpty)

        // Two lattes and a croissant from the menu's rows: the menu's addItem posts to the bill
        // beside it ({billId} from the bill screen's inputs).
        for item in ["latte", "latte", "croissant"] {
            let result = try await app.add(item)
            #expect(result.outcome?.resyncReason == nil)
        }
        #expect(await app.performer.take() == ["replace bill", "replace bill", "replace bill"])
        var bill = try await app.shownBill()
        #expect(bill.id == firstBill.id)
        #expect(bill.lines.map { "\($0.quantity) \($0.menuItemId)" } == ["2 latte", "1 croissant"])

        // The croissant line to 3 (a value the user enters), then removed: actions on the bill's rows.
        let croissant = try #require(try await app.session.screen(of: "bill")?.screen.payload["lines"]?.arrayValue?.first { $0["menuItemId"] == "croissant" })
        try await app.session.perform(try await app.session.prepare(action: "setQuantity", on: "bill", item: croissant, values: ["quantity": 3]))
        #expect(try await app.shownBill().lines.map(\.quantity) == [2, 3])
        try await app.session.perform(try await app.session.prepare(action: "removeLine", on: "bill", item: croissant))
        bill = try await app.shownBill()
        #expect(bill.lines.map(\.menuItemId) == ["latte"])
        #expect(bill.totalMinor == 1033)
        #expect(await app.performer.take() == ["replace bill", "replace bill"])

        // Check out: the bill is frozen and the declarative order summary is presented.
        let checkout = try await app.session.perform(try await app.session.prepare(action: "checkout", on: "bill"))
        #expect(checkout.answer.replayed == false)
        #expect(await app.performer.take() == ["replace bill", "present orderSummary style=modal nav"])
        #expect(try await app.shownBill().status == .checkedOut)
        #expect(
            try await app.session.screen(of: "bill")?.screen.actions.map(\.name) == ["setLabel", "newBill", "showBills"],
            "a checked-out bill offers no line changes, checkout or void (those are on its summary): its name, a new bill and the bill list")
        let summary = try #require(await app.session.screen(of: "orderSummary")).screen
        #expect(summary.renderer == .declarative)
        let components = try summary.components
        guard case .button(let payButton) = try #require(components.first { if case .button = $0 { true } else { false } }) else { return }
        #expect(payButton.title == "Pay 10.33 USD" && payButton.action == "pay")
        #expect(try summary.orderSummaryPayload.totalMinor == 1033)
        // The tips to offer, computed by the server (10, 15, 20 % of 1033, half to even), and the
        // pay button sends the one picked.
        #expect(
            try summary.orderSummaryPayload.suggestedTips
                == [SuggestedTip(percent: 10, tipMinor: 103), SuggestedTip(percent: 15, tipMinor: 155), SuggestedTip(percent: 20, tipMinor: 207)])
        let tipped = try await app.session.prepare(action: payButton.action, on: "orderSummary", values: ["method": "card", "tipMinor": 155])
        #expect(tipped.body == ["method": "card", "amountMinor": 1033, "tipMinor": 155])
        #expect(await app.stack().map { $0.split(separator: "{").first.map(String.init) ?? $0 }.suffix(2) == ["bill", "orderSummary"])

        // Pay cash with a 20.00 note, by the summary's button. The first answer is lost on the
        // way back; the client sends the same request again with the same Idempotency-Key and
        // gets the recorded answer: one payment, steps performed once.
        let pay = try await app.session.prepare(action: payButton.action, on: "orderSummary", values: ["method": "cash", "tenderedMinor": 2000])
        #expect(pay.body == ["method": "cash", "amountMinor": 1033, "tenderedMinor": 2000])
        await transport.log.arm()
        let paid = try await app.session.perform(pay)
        #expect(paid.answer.replayed, "the retry got the recorded answer")
        let keys = await transport.log.keys
        #expect(keys.count == 2 && Set(keys).count == 1 && keys.first == pay.intent.idempotencyKey, "two attempts, one key: \(keys)")
        let payment = try paid.answer.decode(PaymentAnswer.self)
        #expect(payment.payment.changeMinor == 967 && payment.bill.status == .paid)
        #expect(await app.performer.take() == ["dismiss orderSummary", "replace bill"])
        let next = try await app.shownBill()
        #expect(next.id == payment.nextBill.id && next.id != firstBill.id && next.status == .open && next.lines.isEmpty)
        #expect(await app.session.screen(of: "orderSummary") == nil)

        // The app retries the same intent once more (it never saw the answer, say): replayed
        // again, the same payment, no second one.
        let again = try await app.session.perform(pay)
        #expect(again.answer.replayed)
        #expect(try again.answer.decode(PaymentAnswer.self).payment.id == payment.payment.id)
        // Its steps (dismiss the summary) no longer fit the screen: the session resynced through launch.
        #expect(again.outcome?.resyncReason != nil)
        #expect(
            await app.performer.take() == [
                "setRoot tabBar tabs=splitContainer,drawer", "selectTab splitContainer", "embed menu slot=primary", "embed bill slot=secondary",
            ])
        #expect(try await app.shownBill().id == next.id, "still the next bill: no second payment opened another")
        #expect(try await app.client.bill(id: firstBill.id).status == .paid)

        // A new intent to pay the paid bill is a conflict, thrown with its code.
        await #expect {
            _ = try await app.client.pay(billId: firstBill.id, PayRequest(method: .cash, amountMinor: 1033), intent: UserIntent())
        } throws: { ($0 as? Problem)?.code == .billNotCheckedOut }

        // The menu's add now goes to the next bill.
        try await app.add("espresso")
        #expect(try await app.client.bill(id: next.id).lines.map(\.menuItemId) == ["espresso"])
        #expect(try await app.client.bill(id: firstBill.id).lines.map(\.menuItemId) == ["latte"])
    }
}
