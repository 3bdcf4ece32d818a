import Foundation
import Testing

@testable import RoutemapClient

/// An app that implements only the containers natively gets the menu and the bill as component
/// trees, and takes an order by their buttons alone (each names its row item and the values it
/// supplies), against the real server.
@Suite("An order through declarative screens, end to end")
struct DeclarativeOrderTests {
    /// Every button of a component tree, depth first.
    private func buttons(_ components: [Component]) -> [Component.Button] {
        components.flatMap { component -> [Component.Button] in
            switch component {
            case .button(let button): [button]
            case .section(let section): buttons(section.children)
            default: []
            }
        }
    }

    /// The buttons of the declarative screen of `route` on display.
    private func buttons(on route: RouteID, of app: AppFixture) async throws -> [Component.Button] {
        let screen = try #require(await app.session.screen(of: route)).screen
        #expect(screen.renderer == .declarative, "\(route) is not declarative")
        return buttons(try screen.components)
    }

    /// Taps the button titled `title` on the screen of `route`, entering `values`.
    private func tap(_ title: String, on route: RouteID, of app: AppFixture, values: [String: JSONValue] = [:]) async throws {
        let button = try #require(try await buttons(on: route, of: app).first { $0.title == title }, "no button \(title) on \(route)")
        try await app.session.perform(try await app.session.prepare(button, on: route, values: values))
    }

    private func lines(_ app: AppFixture) async throws -> [String] {
        try await app.shownBill().lines.map { "\($0.quantity) \($0.menuItemId)" }
    }

    @Test("Without native menu and bill: add from the menu's buttons, +1, −1 and Remove on the bill's, check out and pay")
    func order() async throws {
        let app = try await AppFixture(capabilities: AppCapabilities(nativeScreens: ["tabBar", "splitView"]))
        defer { app.stop() }
        try await app.start()
        let menu = try #require(await app.session.screen(of: "menu")).screen
        #expect(try menu.menuPayload.components?.isEmpty == false && menu.menuPayload.items.count > 5)
        let latte = try #require(try await buttons(on: "menu", of: app).first { $0.item == ["id": "latte"] })
        #expect(latte.title == "Latte · 4.75 USD" && latte.action == "addItem" && latte.values == nil)

        try await tap("Latte · 4.75 USD", on: "menu", of: app)
        try await tap("Butter Croissant · 3.50 USD", on: "menu", of: app)
        #expect(try await lines(app) == ["1 latte", "1 croissant"])
        let billButtons = try await buttons(on: "bill", of: app).map(\.title)
        #expect(!billButtons.contains("−1 Latte"), "−1 on a line of one")

        try await tap("+1 Latte", on: "bill", of: app)
        try await tap("+1 Latte", on: "bill", of: app)
        try await tap("−1 Latte", on: "bill", of: app)
        #expect(try await lines(app) == ["2 latte", "1 croissant"])
        try await tap("Remove Butter Croissant", on: "bill", of: app)
        #expect(try await lines(app) == ["2 latte"])
        // The declarative bill screen shows the bill as the server has it, and its tree acts on that bill's line.
        let shown = try #require(await app.session.screen(of: "bill")).screen.payload.decode(DeclarativeBillPayload.self)
        let stored = try await app.client.bill(id: shown.bill.id)
        #expect(shown.bill == stored)
        let latteLine = try #require(stored.lines.first)
        #expect(stored.lines.count == 1 && latteLine.menuItemId == "latte" && latteLine.quantity == 2 && stored.totalMinor == 1033)
        let tree = buttons(shown.components)
        #expect(tree.map(\.title) == ["−1 Latte", "+1 Latte", "Note for Latte", "Remove Latte", "Check out 10.33 USD", "New bill", "Open bills", "Name bill", "Discount", "Void bill"])
        for title in ["+1 Latte", "−1 Latte", "Note for Latte", "Remove Latte"] {
            #expect(tree.first { $0.title == title }?.item?["lineId"] == .string(latteLine.lineId), "\(title) acts on the latte line")
        }
        #expect(await app.performer.take() == Array(repeating: "replace bill", count: 6))

        try await tap("Check out 10.33 USD", on: "bill", of: app)
        #expect(await app.performer.take() == ["replace bill", "present orderSummary style=modal nav"])
        let frozen = try await buttons(on: "bill", of: app)
        #expect(frozen.map(\.action) == ["newBill", "showBills", "setLabel"], "a checked-out bill's tree has no line, checkout or void buttons")
        try await tap("Pay 10.33 USD", on: "orderSummary", of: app, values: ["method": "cash", "tenderedMinor": 2000])
        #expect(await app.performer.take() == ["dismiss orderSummary", "replace bill"])
        let next = try await app.shownBill()
        #expect(next.lines.isEmpty && next.status == .open)
    }
}
