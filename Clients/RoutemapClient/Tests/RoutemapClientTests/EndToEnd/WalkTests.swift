import Foundation
import Testing

@testable import RoutemapClient

/// Walks, sub walks and deep links through a session against the real server: the exact steps
/// the performer is asked to perform, and the stack the session keeps (which must be the
/// answer's, or the session would have resynced).
@Suite("Walks, subs and deep links, end to end")
struct WalkTests {
    private let split = ["tabBar", "splitContainer"]

    @Test("To the order summary and back to the menu; to the top is a refresh; the menu's add still goes to the bill beside it")
    func summaryAndBack() async throws {
        let app = try await AppFixture()
        defer { app.stop() }
        try await app.start()
        let y = try await app.shownBill().id
        #expect(await app.stack() == split + ["bill{billId=\(y)}"])
        try await app.checkOut(y)

        var outcome = try await app.session.navigate(to: "orderSummary")
        #expect(outcome.resyncReason == nil)
        #expect(await app.performer.take() == ["present orderSummary style=modal nav"])
        #expect(await app.stack() == split + ["bill{billId=\(y)}", "orderSummary{billId=\(y)}"])
        #expect(await app.session.screensOnDisplay.map(\.route) == ["orderSummary"], "the bill is covered")

        outcome = try await app.session.navigate(to: "menu")
        #expect(outcome.resyncReason == nil)
        #expect(await app.performer.take() == ["dismiss orderSummary", "replace menu"])
        #expect(await app.stack() == split + ["menu"])
        #expect(Set(await app.session.screensOnDisplay.map(\.route)) == ["tabBar", "splitContainer", "menu", "bill"])

        try await app.session.navigate(to: "menu")
        #expect(await app.performer.take() == ["refresh menu"])

        _ = try await app.client.cancelCheckout(billId: y)  // elsewhere: the add needs an open bill
        try await app.add("latte")
        #expect(await app.performer.take() == ["replace bill"])
        #expect(await app.stack() == split + ["bill{billId=\(y)}"], "the replace moved the focus to the bill")
        #expect(try await app.client.bill(id: y).lines.map(\.menuItemId) == ["espresso", "latte"])
    }

    @Test("A link to another bill replaces the bill screen's contents, from the summary too; the menu then adds to that bill")
    func linkToAnotherBill() async throws {
        let app = try await AppFixture()
        defer { app.stop() }
        try await app.start()
        let y = try await app.shownBill().id
        let x = try await app.client.createBill().answer.bill.id  // made elsewhere in the app; its steps are not followed here
        try await app.checkOut(y)
        try await app.session.navigate(to: "orderSummary")
        _ = await app.performer.take()

        // From the summary of Y, the link to X: the summary leaves and the bill screen shows X.
        var outcome = try await app.session.open(url: "routemap://bills/\(x)")
        #expect(outcome.resyncReason == nil)
        #expect(await app.performer.take() == ["dismiss orderSummary", "replace bill"])
        #expect(await app.stack() == split + ["bill{billId=\(x)}"])
        #expect(try await app.shownBill().id == x)
        try await app.add("croissant")
        #expect(try await app.client.bill(id: x).lines.map(\.menuItemId) == ["croissant"])
        #expect(try await app.client.bill(id: y).lines.map(\.menuItemId) == ["espresso"])
        _ = await app.performer.take()

        // A walk back to Y, by input: the same screen, other contents.
        outcome = try await app.session.navigate(to: "bill", input: ["billId": y])
        #expect(outcome.resyncReason == nil)
        #expect(await app.performer.take() == ["replace bill"])
        #expect(try await app.shownBill().id == y)

        // The link to an open bill's summary is refused by the summary's guard, and nothing changes.
        let refusal = await #expect(throws: Problem.self) { try await app.session.open(url: "routemap://bills/\(x)/summary") }
        #expect(refusal?.code == .billNotCheckedOut, "\(String(describing: refusal))")
        #expect(await app.performer.take() == [])
        #expect(try await app.shownBill().id == y)

        // The link to X's summary from Y's bill: the bill shows X, then X's summary over it.
        _ = try await app.client.checkout(billId: x)
        outcome = try await app.session.open(url: "routemap://bills/\(x)/summary")
        #expect(outcome.resyncReason == nil)
        #expect(await app.performer.take() == ["replace bill", "present orderSummary style=modal nav"])
        #expect(await app.stack() == split + ["bill{billId=\(x)}", "orderSummary{billId=\(x)}"])
        #expect(try #require(await app.session.screen(of: "orderSummary")).screen.orderSummaryPayload.billId == x)

        // The link to the menu: the summary leaves and the menu takes the focus.
        try await app.session.open(url: "routemap://menu")
        #expect(await app.performer.take() == ["dismiss orderSummary", "replace menu"])
        #expect(await app.stack() == split + ["menu"])
    }

    @Test("A sub walk opens a bill over the screen as a sub entry; a walk under it stays inside it; parent goes back to exactly where it was")
    func sub() async throws {
        let app = try await AppFixture()
        defer { app.stop() }
        try await app.start()
        let y = try await app.shownBill().id
        let x = try await app.client.createBill().answer.bill.id
        _ = try await app.client.addItem(billId: x, menuItemId: "espresso")
        let launchStack = await app.stack()

        var outcome = try await app.session.openSub("bill", input: ["billId": x])
        #expect(outcome.resyncReason == nil)
        #expect(await app.performer.take() == ["present bill style=modal nav"])
        #expect(await app.stack() == launchStack + ["sub:bill{billId=\(x)}"])
        #expect(await app.session.screensOnDisplay.map(\.route) == ["bill"])
        #expect(try await app.session.screensOnDisplay.first?.screen.billPayload.id == x)

        // Checking out from the sub bill checks out X, and the summary goes over the sub bill.
        try await app.session.perform(try await app.session.prepare(action: "checkout", on: "bill"))
        #expect(await app.performer.take() == ["replace bill", "present orderSummary style=modal nav"])
        #expect(await app.stack() == launchStack + ["sub:bill{billId=\(x)}", "orderSummary{billId=\(x)}"])
        #expect(try await app.client.bill(id: x).status == .checkedOut)
        #expect(try await app.client.bill(id: y).status == .open)

        outcome = try await app.session.navigateUp()
        #expect(await app.performer.take() == ["dismiss orderSummary"])
        outcome = try await app.session.navigateUp()
        #expect(outcome.resyncReason == nil)
        #expect(await app.performer.take() == ["dismiss bill"])
        #expect(await app.stack() == launchStack)
        #expect(try await app.shownBill().id == y, "the bill screen under it still shows Y")
        await #expect {
            try await app.session.navigateUp()
        } throws: { ($0 as? Problem)?.code == .noParent }
    }
}
