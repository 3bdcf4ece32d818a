import Foundation
import Testing

@testable import RoutemapClient

/// Screen actions that are walks (`POST …/navigate`: trivia's `chooseDifficulty`, the bill's
/// `showBills`) against the real server: their templates name a `from` stack of their own; the
/// session sends the stack it holds instead (docs/navigation.md, "The client's stack"), so the
/// answer's steps fit what the app shows wherever the user went first.
@Suite("Navigation session: walks sent by screen actions, end to end")
struct WalkActionTests {
    @Test(
        "Back from a game (the system back button, or navigateUp), then Difficulty: the popover over the options as they were, no relaunch",
        arguments: [true, false])
    func difficultyAfterBack(gesture: Bool) async throws {
        let server = try RoutemapServer()
        defer { server.stop() }
        let (_, performer, session) = try await TriviaTests.start(server)
        try await session.perform(try await session.prepare(action: "chooseDifficulty", on: "options"))
        let menu = try #require(await session.screen(of: "difficultyMenu")).screen
        let easy = try #require(menu.payload["choices"]?.arrayValue?.first { $0["id"] == "easy" })
        try await session.perform(try await session.prepare(action: "choose", on: "difficultyMenu", item: easy))
        try await session.perform(try await session.prepare(action: "play", on: "options"))
        #expect(await session.stack.map(\.route) == ["trivia", "game"])
        if gesture {
            try await session.noteUserNavigation(Step(op: .pop, route: "game"))
        } else {
            try await session.navigateUp()
        }
        #expect(await session.stack.map(\.description) == ["trivia"], "the back leaves the landing and the options on display, unlisted")
        _ = await performer.take()

        let opened = try await session.perform(try await session.prepare(action: "chooseDifficulty", on: "options"))
        #expect(opened.outcome?.resyncReason == nil)
        #expect(await performer.take() == ["present difficultyMenu style=popover"], "no setRoot: the app is not relaunched")
        #expect(
            await session.stack.map(\.description).suffix(2) == ["options{category=any,difficulty=easy}", "difficultyMenu{category=any,difficulty=easy}"],
            "the options keep the difficulty chosen before the game")
        let shown = try #require(await session.screen(of: "difficultyMenu")).screen
        #expect(shown.payload["difficulty"] == "easy")

        // Its choice walks back to the options, from the stack the session holds.
        let hard = try #require(shown.payload["choices"]?.arrayValue?.first { $0["id"] == "hard" })
        let chosen = try await session.perform(try await session.prepare(action: "choose", on: "difficultyMenu", item: hard))
        #expect(chosen.outcome?.resyncReason == nil)
        #expect(await performer.take() == ["dismiss difficultyMenu", "replace options"])
        #expect(await session.stack.map(\.description).last == "options{category=any,difficulty=hard}")
    }

    @Test("showBills on a bill opened with openSub: the list is presented, no relaunch")
    func showBillsOnSubBill() async throws {
        let app = try await AppFixture()
        defer { app.stop() }
        try await app.start()
        let first = try await app.shownBill().id
        let other = try await app.client.createBill().answer.bill.id
        _ = try await app.client.addItem(billId: other, menuItemId: "espresso")
        try await app.session.openSub("bill", input: ["billId": other])
        _ = await app.performer.take()
        #expect(await app.stack().last == "sub:bill{billId=\(other)}")

        let result = try await app.session.perform(try await app.session.prepare(action: "showBills", on: "bill"))
        #expect(result.outcome?.resyncReason == nil)
        // The walk shows the list of the bill on screen: the server's walk puts that bill in the
        // bill column (the input names it for every entry that shows a bill), and presents the
        // list over it. No setRoot: the app is not relaunched.
        #expect(await app.performer.take() == ["dismiss bill", "replace bill", "present billList style=popover"])
        #expect(await app.stack() == ["tabBar", "splitContainer", "bill{billId=\(other)}", "billList"])
        let list = try #require(await app.session.screen(of: "billList")).screen
        let listed = list.payload["bills"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        #expect(Set(listed) == [first, other], "the device's open bills")
    }
}
