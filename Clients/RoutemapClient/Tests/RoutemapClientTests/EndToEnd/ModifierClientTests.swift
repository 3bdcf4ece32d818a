import Foundation
import Testing

@testable import RoutemapClient

/// Modifiers through the library: the wire types read a server without them (none) and with
/// them, and against the real server the menu's row sends its sheet, whose add the session
/// follows back to the bill, which shows the line's options.
@Suite("Modifiers")
struct ModifierClientTests {
    static let milk = ModifierGroup(
        id: "milk", name: "Milk", minChoices: 0, maxChoices: 1,
        options: [ModifierOption(id: "oat", name: "Oat", priceMinor: 50), ModifierOption(id: "almond", name: "Almond", priceMinor: 50)])

    @Test("a menu item, a menu row and a line without modifiers (a server from before them) have none; with them, they round-trip")
    func decoding() throws {
        let decoder = JSONDecoder()
        let item = try decoder.decode(
            MenuItem.self, from: Data(#"{"id":"latte","name":"Latte","category":"coffee","priceMinor":475,"currency":"USD","available":true}"#.utf8))
        #expect(item.modifierGroups.isEmpty)
        let row = try decoder.decode(
            MenuScreenItem.self, from: Data(#"{"id":"latte","name":"Latte","category":"coffee","priceMinor":475,"currency":"USD","available":true}"#.utf8))
        #expect(row.modifierGroups.isEmpty && row.actionName == "addItem")
        let line = try decoder.decode(
            BillLine.self,
            from: Data(#"{"lineId":"line_1","menuItemId":"latte","name":"Latte","quantity":1,"unitPriceMinor":475,"lineTotalMinor":475}"#.utf8))
        #expect(line.modifiers.isEmpty)

        var modified = item
        modified.modifierGroups = [Self.milk]
        #expect(try decoder.decode(MenuItem.self, from: JSONEncoder().encode(modified)) == modified)
        let withOptions = try decoder.decode(
            BillLine.self,
            from: Data(
                #"{"lineId":"line_1","menuItemId":"latte","name":"Latte","quantity":2,"unitPriceMinor":525,"lineTotalMinor":1050,"modifiers":[{"optionId":"oat","name":"Oat","priceMinor":50}]}"#
                    .utf8))
        #expect(withOptions.modifiers.map(\.optionId) == ["oat"] && withOptions.modifiers.first?.priceMinor == 50)
        #expect(try decoder.decode(BillLine.self, from: JSONEncoder().encode(withOptions)) == withOptions)
        #expect(try JSONValue(encoding: AddItemRequest(menuItemId: "latte", quantity: 1))["modifiers"] == nil)
        #expect(try JSONValue(encoding: AddItemRequest(menuItemId: "latte", quantity: 1, modifiers: ["oat"]))["modifiers"] == ["oat"])
    }

    @Test("an item with groups: its row sends chooseModifiers, the sheet is presented, its add is followed back to the bill, which shows the options")
    func sheet() async throws {
        let app = try await AppFixture()
        defer { app.stop() }
        let manager = APIClient(baseURL: app.server.baseURL, retry: .init(maxAttempts: 3, delay: .milliseconds(50)))
        _ = try await manager.enroll(name: "manager", enrollmentCode: RoutemapServer.managerEnrollmentCode, role: .manager)
        let changed = try await manager.changeMenuItem(id: "latte", ChangeMenuItemRequest(modifierGroups: [Self.milk]))
        #expect(changed.answer.item.modifierGroups == [Self.milk])
        try await app.start()

        let menu = try #require(await app.session.screen(of: "menu")).screen
        let latte = try #require(try menu.menuPayload.items.first { $0.id == "latte" })
        #expect(latte.modifierGroups == [Self.milk] && latte.actionName == "chooseModifiers")
        #expect(try menu.menuPayload.items.first { $0.id == "espresso" }?.actionName == "addItem")

        let opened = try await app.session.perform(try await app.session.prepare(action: latte.actionName, on: "menu", item: try await app.menuRow("latte")))
        #expect(opened.navigationFailure == nil && opened.outcome?.resyncReason == nil)
        #expect(await app.session.stack.map(\.route) == ["tabBar", "splitContainer", "menu", "modifierSheet"])
        let sheet = try #require(await app.session.screen(of: "modifierSheet")).screen
        #expect(sheet.type == .modifierSheet)
        #expect(try sheet.modifierSheetPayload.modifierGroups == [Self.milk])

        let added = try await app.session.perform(try await app.session.prepare(action: "addItem", on: "modifierSheet", values: ["modifiers": ["oat"]]))
        #expect(added.navigationFailure == nil && added.outcome?.resyncReason == nil)
        #expect(await app.session.stack.map(\.route) == ["tabBar", "splitContainer", "bill"])
        let line = try #require(try await app.shownBill().lines.first)
        #expect(line.menuItemId == "latte" && line.unitPriceMinor == 525 && line.modifiers.map(\.name) == ["Oat"])

        // Refused: an option of no item; the problem says which.
        let billId = try await app.shownBill().id
        await #expect {
            _ = try await app.client.addItem(billId: billId, menuItemId: "latte", modifiers: ["soy"])
        } throws: { ($0 as? Problem)?.code == .unknownModifier && ($0 as? Problem)?.optionId == "soy" }
    }
}
