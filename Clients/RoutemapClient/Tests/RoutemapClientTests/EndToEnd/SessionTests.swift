import Foundation
import Testing

@testable import RoutemapClient

/// What the session does when a step fails or the server's answer does not fit what the app
/// shows, against the real server.
@Suite("Navigation session: failed steps and resyncs, end to end")
struct SessionTests {
    @Test("A step the performer fails stops the rest and is reported; the stack is what the steps before it made")
    func failedStep() async throws {
        let app = try await AppFixture()
        defer { app.stop() }
        await app.performer.fail("embed menu slot=primary")
        await #expect {
            try await app.session.start()
        } throws: { error in
            guard let failed = error as? NavigationSession.StepFailed else { return false }
            return failed.index == 2 && failed.step.op == .embed && failed.step.route == "menu" && failed.error is RecordingPerformer.Refused
        }
        #expect(await app.performer.take() == ["setRoot tabBar tabs=splitContainer,drawer", "selectTab splitContainer"], "the bill's embed was not performed")
        #expect(await app.stack() == ["tabBar", "splitContainer"])

        // A walk from there: the server gets the stack the app really has.
        try await app.session.launch()
        #expect(
            await app.performer.take() == [
                "setRoot tabBar tabs=splitContainer,drawer", "selectTab splitContainer", "embed menu slot=primary", "embed bill slot=secondary",
            ])
        let bill = try await app.shownBill().id
        try await app.checkOut(bill)
        await app.performer.fail("present orderSummary style=modal nav")
        await #expect(throws: NavigationSession.StepFailed.self) { try await app.session.navigate(to: "orderSummary") }
        #expect(await app.stack() == ["tabBar", "splitContainer", "bill{billId=\(bill)}"])
        try await app.session.navigate(to: "orderSummary")
        #expect(await app.performer.take() == ["present orderSummary style=modal nav"])
    }

    @Test("Steps that do not fit the screen are not performed: the session resyncs through launch")
    func resyncOnStepsThatDoNotFit() async throws {
        let app = try await AppFixture()
        defer { app.stop() }
        try await app.start()
        try await app.add("latte")
        _ = await app.performer.take()
        let bill = try await app.shownBill().id
        // Another part of the app checks out and cancels by itself; the cancel's steps
        // (dismiss the summary, replace the bill) meet a screen with no summary.
        _ = try await app.client.checkout(billId: bill)
        let cancel = try await app.client.cancelCheckout(billId: bill).answer
        let outcome = try await app.session.follow(answer: cancel)
        #expect(outcome.resyncReason?.contains("dismiss orderSummary") == true)
        #expect(
            await app.performer.take() == [
                "setRoot tabBar tabs=splitContainer,drawer", "selectTab splitContainer", "embed menu slot=primary", "embed bill slot=secondary",
            ])
        #expect(await app.stack() == ["tabBar", "splitContainer", "bill{billId=\(bill)}"])
        #expect(try await app.shownBill().status == .open)
    }

    @Test("An answer whose stack disagrees with what its steps make is not performed: the session resyncs through launch")
    func resyncOnStackDisagreement() async throws {
        let app = try await AppFixture()
        defer { app.stop() }
        try await app.start()
        let bill = try await app.shownBill().id
        try await app.checkOut(bill)
        var answer = try await app.client.navigate(NavigateRequest(from: .stack(await app.session.stack), to: "orderSummary"))
        #expect(answer.navigation.map(\.op) == [.present])
        // Reopened elsewhere, so the resync's launch shows no summary of its own.
        _ = try await app.client.cancelCheckout(billId: bill)
        answer.stack = answer.stack.map { Array($0.dropLast()) }
        let outcome = try await app.session.follow(answer: answer)
        #expect(outcome.resyncReason != nil)
        #expect(await app.performer.take().first == "setRoot tabBar tabs=splitContainer,drawer")
        #expect(await app.session.screen(of: "orderSummary") == nil)
    }

    @Test("Gestures the server did not see keep what the screens show: across a collapsed split view and back, the bill still checks out")
    func gesturesKeepScreens() async throws {
        let app = try await AppFixture()
        defer { app.stop() }
        try await app.start()
        try await app.add("latte")
        _ = await app.performer.take()
        let bill = try await app.shownBill().id
        let onDisplay = Set(await app.session.screensOnDisplay.map(\.route))
        #expect(onDisplay == ["tabBar", "splitContainer", "menu", "bill"])

        // A collapsed split view: the user goes over to the menu column, then back to the bill.
        try await app.session.noteUserNavigation(Step(op: .replace, route: "menu"))
        #expect(await app.stack().last?.hasPrefix("menu") == true)
        try await app.session.noteUserNavigation(Step(op: .replace, route: "bill"))
        #expect(await app.stack() == ["tabBar", "splitContainer", "bill{billId=\(bill)}"], "the bill's entry takes the inputs of the bill shown")
        #expect(Set(await app.session.screensOnDisplay.map(\.route)) == onDisplay, "both columns still show their screens")
        // The tab tapped again: nothing it shows goes.
        try await app.session.noteUserNavigation(Step(op: .selectTab, route: "splitContainer"))
        #expect(Set(await app.session.screensOnDisplay.map(\.route)) == onDisplay)
        try await app.session.noteUserNavigation(Step(op: .embed, route: "bill", slot: "secondary"))
        #expect(await app.stack() == ["tabBar", "splitContainer", "bill{billId=\(bill)}"])

        // The bill's own action fills from its screen, and the server's steps fit the stack.
        let checkout = try await app.session.prepare(action: "checkout", on: "bill")
        #expect(checkout.path == "/v1/bills/\(bill)/checkout")
        let result = try await app.session.perform(checkout)
        #expect(result.outcome?.resyncReason == nil)
        #expect(await app.performer.take() == ["replace bill", "present orderSummary style=modal nav"])
    }

    @Test("A step with an op this client does not know is not performed: the session resyncs through launch")
    func unknownOperation() async throws {
        let app = try await AppFixture()
        defer { app.stop() }
        try await app.start()
        let answer = NavigationAnswer(navigation: [Step(op: .unknown("flip"), route: "bill")], stack: await app.session.stack)
        let outcome = try await app.session.follow(answer: answer)
        #expect(outcome.resyncReason?.contains("flip") == true)
        #expect(await app.performer.take().count == 4, "the launch's four steps, and no flip")
    }
}
