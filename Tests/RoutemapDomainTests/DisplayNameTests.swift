import Foundation
import RoutemapDomain
import RoutemapTestSupport
import Testing

/// The rules for names and void reasons people type, which the use cases enforce whoever calls them.
@Suite("Names and reasons people type")
struct DisplayNameTests {
    @Test("a name is 1 to 100 Unicode scalars, with something visible, and no control characters")
    func names() {
        let accented = String(repeating: "é", count: 100)  // 200 UTF-8 bytes
        #expect(accented.utf8.count == 200)
        let valid = ["Front till", "x", " padded ", "Café", accented, String(repeating: "👍🏽", count: 50)]
        for name in valid { #expect(DisplayName.isValid(name), "\(name)") }
        let invalid = [
            "", " ", "   ", "\u{3000}", "\u{A0}\u{2009}", "\u{FEFF}", String(repeating: "é", count: 101),
            String(repeating: "👍🏽", count: 60), "a\u{7}b", "tab\there", "line\nbreak", "del\u{7F}",
            "\u{85}", "a\u{9F}b", "\u{200B}", "a\u{2028}b", "a\u{2029}b",
        ]
        for name in invalid { #expect(!DisplayName.isValid(name), "\(name.unicodeScalars.map(\.value))") }
    }

    @Test("a void reason is 1 to 200 scalars, with something visible; tabs and line breaks are its only control characters")
    func reasons() {
        for reason in ["opened by mistake", "table left\nwithout paying", "col\tumn", "para\u{2029}graph", String(repeating: "é", count: 200)] {
            #expect(BillVoiding.isValidReason(reason), "\(reason)")
        }
        for reason in ["", " ", "\n\t ", "\u{3000}", "\u{200B}", "bell\u{7}", "esc\u{1B}[0m", "nel\u{85}", String(repeating: "é", count: 201)] {
            #expect(!BillVoiding.isValidReason(reason), "\(reason.unicodeScalars.map(\.value))")
        }
    }

    @Test("a menu id is a slug: 1 to 64 of a-z, 0-9 and '-', not starting with '-'")
    func slugs() {
        for slug in ["latte", "x", "flat-white-2", "0", String(repeating: "a", count: 64)] { #expect(MenuSlug.isValid(slug), "\(slug)") }
        for slug in ["", "-latte", "Latte", "café", "flat white", "a_b", "a/b", String(repeating: "a", count: 65)] {
            #expect(!MenuSlug.isValid(slug), "\(slug)")
        }
    }

    @Test("the use cases refuse a name, reason, menu id or price that breaks its rule, before changing anything")
    func useCasesRefuse() async throws {
        let store = InMemoryStore(menu: Fixtures.menu)
        let till = Till(store: store, taxRate: Fixtures.rate875, currency: .usd)
        let directory = DeviceDirectory(store: store)
        let name = InvalidInput(field: "name", rule: DisplayName.rule)
        await #expect(throws: name) { try await directory.enroll(name: " \u{200B}") }
        #expect(store.snapshot.devices.isEmpty)

        let device = try await directory.enroll(name: "Counter").device.id
        let before = store.snapshot
        await #expect(throws: name) {
            try await till.createMenuItem(
                MenuItemDraft(id: "tea", name: "", category: "coffee", priceMinor: 300), device: device, idempotency: nil)
        }
        await #expect(throws: name) {
            try await till.changeMenuItem(id: "latte", MenuItemPatch(name: "Latte\n"), device: device, idempotency: nil)
        }
        let slug = { (field: String) in InvalidInput(field: field, rule: MenuSlug.rule) }
        let price = InvalidInput(field: "priceMinor", rule: "from 0 to 10000000")
        await #expect(throws: slug("id")) {
            try await till.createMenuItem(MenuItemDraft(id: "Tea", name: "Tea", category: "coffee", priceMinor: 300), device: device, idempotency: nil)
        }
        await #expect(throws: slug("category")) {
            try await till.createMenuItem(MenuItemDraft(id: "tea", name: "Tea", category: "", priceMinor: 300), device: device, idempotency: nil)
        }
        await #expect(throws: price) {
            try await till.createMenuItem(MenuItemDraft(id: "tea", name: "Tea", category: "coffee", priceMinor: -1), device: device, idempotency: nil)
        }
        await #expect(throws: slug("category")) {
            try await till.changeMenuItem(id: "latte", MenuItemPatch(category: "-x"), device: device, idempotency: nil)
        }
        await #expect(throws: price) {
            try await till.changeMenuItem(id: "latte", MenuItemPatch(priceMinor: 10_000_001), device: device, idempotency: nil)
        }
        await #expect(throws: slug("id")) {
            try await till.createMenuCategory(MenuCategory(id: "tea time", name: "Tea"), device: device, idempotency: nil)
        }
        await #expect(throws: name) {
            try await till.createMenuCategory(MenuCategory(id: "snacks", name: "\u{3000}"), device: device, idempotency: nil)
        }
        await #expect(throws: name) {
            try await till.renameMenuCategory(id: "coffee", name: String(repeating: "x", count: 101), device: device, idempotency: nil)
        }
        #expect(store.snapshot.menu == before.menu && store.snapshot.categories == before.categories)

        let bill = try await till.openBill(device: device)
        await #expect(throws: InvalidInput(field: "reason", rule: BillVoiding.reasonRule)) {
            try await till.void(billId: bill.id, device: device, reason: "\n\t ", idempotency: nil)
        }
        #expect(try till.bill(id: bill.id, device: device).status == .open)
    }
}
