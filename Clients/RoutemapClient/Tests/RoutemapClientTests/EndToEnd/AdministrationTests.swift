import Foundation
import Testing

@testable import RoutemapClient

/// The device and menu management endpoints through `APIClient`, against the real server: a
/// manager enrolled with the manager code manages the menu and the devices; a till cannot.
@Suite("API client: devices and menu management, end to end")
struct AdministrationTests {
    /// A client of `server` enrolled as a manager.
    private func manager(_ server: RoutemapServer) async throws -> APIClient {
        let client = APIClient(baseURL: server.baseURL, retry: .init(maxAttempts: 3, delay: .milliseconds(50)))
        let enrolled = try await client.enroll(name: "manager", enrollmentCode: RoutemapServer.managerEnrollmentCode, role: .manager)
        #expect(enrolled.role == .manager)
        return client
    }

    /// A new bill of `till`'s with `quantity` of `item`, checked out: its id and total.
    private func checkedOutBill(_ till: APIClient, _ item: String, quantity: Int = 1) async throws -> (id: String, totalMinor: Int64) {
        let bill = try await till.createBill().answer.bill.id
        _ = try await till.addItem(billId: bill, menuItemId: item, quantity: quantity)
        return (bill, try await till.checkout(billId: bill).answer.bill.totalMinor)
    }

    /// A server with a manager and a till enrolled; stop the server when done.
    private func shop() async throws -> (server: RoutemapServer, manager: APIClient, till: APIClient) {
        let server = try RoutemapServer()
        do {
            return (server, try await manager(server), try await server.enrolledClient())
        } catch {
            server.stop()
            throw error
        }
    }

    @Test("A manager lists the devices and revokes a till (again: the same answer); the till is refused from then on")
    func devices() async throws {
        let (server, manager, till) = try await shop()
        defer { server.stop() }
        await #expect { _ = try await till.devices() } throws: { ($0 as? Problem)?.code == .managerOnly }

        let listed = try await manager.devices().devices
        #expect(listed.map(\.role) == [.manager, .till])
        #expect(listed.map(\.current) == [true, false])
        let tillID = listed[1].deviceId
        let revoked = try await manager.revokeDevice(id: tillID)
        #expect(revoked.device.revoked && revoked.device.revokedAt != nil)
        #expect(try await manager.revokeDevice(id: tillID).device.revokedAt == revoked.device.revokedAt)
        await #expect { _ = try await till.launch() } throws: { ($0 as? Problem)?.code == .unauthorized }
        await #expect { _ = try await manager.revokeDevice(id: "dev_unknown") } throws: { ($0 as? Problem)?.code == .notFound }
    }

    @Test("A lost till's bills: a manager lists them, transfers one (a retried transfer replays) to a till that pays it, voids the other; a till cannot")
    func lostTillBills() async throws {
        let server = try RoutemapServer()
        defer { server.stop() }
        let manager = try await manager(server)
        let lost = try await server.enrolledClient()
        let counter = try await server.enrolledClient()
        let tab = try await lost.createBill().answer.bill.id
        try await Task.sleep(for: .milliseconds(3))  // listed by time, not by id
        let owed = try await lost.createBill().answer.bill.id
        _ = try await lost.addItem(billId: owed, menuItemId: "latte")
        let total = try await lost.checkout(billId: owed).answer.bill.totalMinor
        let devices = try await manager.devices().devices.filter { $0.role == .till }
        let (lostID, counterID) = (devices[0].deviceId, devices[1].deviceId)
        _ = try await manager.revokeDevice(id: lostID)

        #expect(try await manager.bills(ofDevice: lostID).bills.map(\.id) == [owed, tab])
        #expect(try await manager.bills(ofDevice: lostID, statuses: [.open]).bills.map(\.id) == [tab])
        #expect(try await manager.bill(id: owed).status == .checkedOut)
        await #expect { _ = try await counter.bills(ofDevice: lostID) } throws: { ($0 as? Problem)?.code == .managerOnly }
        await #expect { _ = try await counter.bill(id: owed) } throws: { ($0 as? Problem)?.code == .notFound }
        await #expect { _ = try await manager.transfer(billId: owed, toDevice: lostID) } throws: { problem in
            (problem as? Problem)?.code == .deviceNotActive && (problem as? Problem)?.deviceId == lostID
        }

        let intent = UserIntent()
        let moved = try await manager.transfer(billId: owed, toDevice: counterID, intent: intent)
        #expect(moved.answer.id == owed && moved.answer.status == .checkedOut && !moved.replayed)
        #expect(try await manager.transfer(billId: owed, toDevice: counterID, intent: intent).replayed)
        #expect(try await counter.bills().bills.contains { $0.id == owed && !$0.current })
        _ = try await counter.pay(billId: owed, PayRequest(method: .card, amountMinor: total), intent: UserIntent())
        let voided = try await manager.void(billId: tab, reason: "tablet lost").answer
        #expect(voided.bill.status == .voided && voided.nextBill.id != tab)
        #expect(try await manager.bills(ofDevice: lostID).bills.isEmpty)
    }

    @Test("A manager's sales report: a till's card and cash payments in the period, by method and item; a till cannot, a bad period is 400")
    func salesReport() async throws {
        let (server, manager, till) = try await shop()
        defer { server.stop() }
        let start = Date()
        let (card, cardTotal) = try await checkedOutBill(till, "latte", quantity: 2)
        _ = try await till.pay(billId: card, PayRequest(method: .card, amountMinor: cardTotal), intent: UserIntent())
        let cash = try await till.createBill().answer.bill.id
        _ = try await till.addItem(billId: cash, menuItemId: "croissant")
        let cashBill = try await till.checkout(billId: cash).answer.bill
        _ = try await till.pay(billId: cash, PayRequest(method: .cash, amountMinor: cashBill.totalMinor, tenderedMinor: 1000), intent: UserIntent())

        let report = try await manager.salesReport(from: start.addingTimeInterval(-1), to: Date().addingTimeInterval(1))
        #expect(report.currency == "USD")
        #expect(report.payments.count == 2 && report.payments.amountMinor == cardTotal + cashBill.totalMinor)
        #expect(report.payments.byMethod.card == SalesReport.CardTakings(count: 1, amountMinor: cardTotal))
        #expect(
            report.payments.byMethod.cash
                == SalesReport.CashTakings(count: 1, amountMinor: cashBill.totalMinor, tenderedMinor: 1000, changeMinor: 1000 - cashBill.totalMinor))
        #expect(report.sales.bills == 2 && report.sales.totalMinor == cardTotal + cashBill.totalMinor)
        #expect(report.sales.items == [
            SalesItem(menuItemId: "latte", name: "Latte", quantity: 2, amountMinor: 950),
            SalesItem(menuItemId: "croissant", name: "Butter Croissant", quantity: 1, amountMinor: 350),
        ])
        // The same period as the shop's local instants (a '+' offset, which the client encodes).
        let local = try await manager.salesReport(from: "2000-01-01T01:00:00+01:00", to: "2000-01-02T00:00:00+01:00")
        #expect(local.from == "2000-01-01T00:00:00.000Z" && local.payments.count == 0)
        await #expect { _ = try await till.salesReport(from: start, to: Date()) } throws: { ($0 as? Problem)?.code == .managerOnly }
        await #expect { _ = try await manager.salesReport(from: Date(), to: start) } throws: { problem in
            (problem as? Problem)?.code == .invalidField && (problem as? Problem)?.field == "to"
        }
    }

    @Test("Receipts: a till pays two bills (numbered 1 and 2) and reads their receipts, the manager too, with a refund on one; another till and an unpaid bill are refused")
    func receipts() async throws {
        let (server, manager, till) = try await shop()
        defer { server.stop() }
        let other = try await server.enrolledClient()
        var paid: [PaymentAnswer] = []
        for quantity in [2, 1] {
            let (bill, total) = try await checkedOutBill(till, "latte", quantity: quantity)
            paid.append(try await till.pay(billId: bill, PayRequest(method: .cash, amountMinor: total, tenderedMinor: 5000), intent: UserIntent()).answer)
        }
        #expect(paid.map(\.payment.receiptNumber) == [1, 2])
        #expect(try await till.payment(id: paid[1].payment.id).receiptNumber == 2)

        let first = try await till.receipt(billId: paid[0].bill.id)
        #expect(first.receiptNumber == 1 && first.billId == paid[0].bill.id && first.payment == paid[0].payment)
        #expect(first.paidAt == paid[0].payment.createdAt && first.lines == paid[0].bill.lines)
        #expect(first.subtotalMinor == paid[0].bill.subtotalMinor && first.totalMinor == paid[0].bill.totalMinor && first.currency == "USD")
        #expect(first.tax.rateBps == 875 && first.tax.amountMinor == paid[0].bill.taxMinor)
        #expect(first.shop == Shop() && first.refunds.isEmpty && first.refundedMinor == 0)

        let refund = try await manager.refund(billId: paid[0].bill.id, amountMinor: 100, reason: "Cold latte").answer.refund
        let refunded = try await manager.receipt(billId: paid[0].bill.id)
        #expect(refunded.refunds == [refund] && refunded.refundedMinor == 100)
        #expect(try await till.receipt(billId: paid[0].bill.id) == refunded)

        await #expect { _ = try await other.receipt(billId: paid[1].bill.id) } throws: { ($0 as? Problem)?.code == .notFound }
        let open = try await till.createBill().answer.bill.id
        await #expect { _ = try await till.receipt(billId: open) } throws: { ($0 as? Problem)?.code == .billNotPaid }
    }

    @Test("Split tender: a till pays a bill in two parts (the bill shows paid, due and its payments); a manager refunds it payment by payment")
    func splitTender() async throws {
        let (server, manager, till) = try await shop()
        defer { server.stop() }
        let (bill, total) = try await checkedOutBill(till, "latte", quantity: 2)
        let part = try await till.pay(billId: bill, PayRequest(method: .card, amountMinor: 400, partial: true), intent: UserIntent()).answer
        #expect(part.bill.status == .checkedOut && part.bill.paidMinor == 400 && part.bill.dueMinor == total - 400)
        #expect(part.bill.payments == [part.payment] && part.nextBill.id == bill)
        await #expect {
            _ = try await till.pay(billId: bill, PayRequest(method: .card, amountMinor: total, partial: true), intent: UserIntent())
        } throws: { ($0 as? Problem)?.code == .amountExceedsDue && ($0 as? Problem)?.dueMinor == total - 400 }
        let rest = try await till.pay(billId: bill, PayRequest(method: .cash, amountMinor: total - 400), intent: UserIntent()).answer
        #expect(rest.bill.status == .paid && rest.bill.dueMinor == 0 && rest.bill.payments == [part.payment, rest.payment])

        await #expect { _ = try await manager.refund(billId: bill, amountMinor: 1, reason: "Cold") } throws: { problem in
            (problem as? Problem)?.code == .paymentIdRequired && (problem as? Problem)?.paymentIds == [part.payment.id, rest.payment.id]
        }
        let refund = try await manager.refund(billId: bill, paymentId: rest.payment.id, amountMinor: 100, reason: "Cold").answer
        #expect(refund.refund.method == .cash && refund.refund.paymentId == rest.payment.id && refund.refundableMinor == total - 100)
        let receipt = try await till.receipt(billId: bill)
        #expect(receipt.payments == [part.payment, rest.payment] && receipt.payment == rest.payment)
    }

    @Test("Refunds: a manager refunds a till's paid bill in parts (a retried refund replays), lists them, reads them in the report; a till cannot")
    func refunds() async throws {
        let (server, manager, till) = try await shop()
        defer { server.stop() }
        let start = Date()
        let (bill, total) = try await checkedOutBill(till, "latte", quantity: 2)
        let paid = try await till.pay(billId: bill, PayRequest(method: .cash, amountMinor: total, tenderedMinor: 2000), intent: UserIntent()).answer
        let open = try await till.createBill().answer.bill.id

        #expect(try await manager.refunds(billId: bill) == RefundList(refunds: [], refundedMinor: 0, refundableMinor: total))
        let first = try await manager.refund(billId: bill, amountMinor: 500, reason: "Returned a latte", intent: UserIntent(idempotencyKey: "refund-1"))
        #expect(!first.replayed)
        #expect(first.answer.refund.method == .cash && first.answer.refund.paymentId == paid.payment.id && first.answer.refund.amountMinor == 500)
        #expect(first.answer.refundedMinor == 500 && first.answer.refundableMinor == total - 500)
        let again = try await manager.refund(billId: bill, amountMinor: 500, reason: "Returned a latte", intent: UserIntent(idempotencyKey: "refund-1"))
        #expect(again.replayed && again.answer == first.answer)
        await #expect { _ = try await manager.refund(billId: bill, amountMinor: total, reason: "all of it") } throws: { problem in
            (problem as? Problem)?.code == .refundExceedsPayment && (problem as? Problem)?.refundableMinor == total - 500
        }
        await #expect { _ = try await manager.refund(billId: open, amountMinor: 1, reason: "not paid") } throws: {
            ($0 as? Problem)?.code == .billNotPaid
        }
        await #expect { _ = try await till.refund(billId: bill, amountMinor: 1, reason: "mine") } throws: { ($0 as? Problem)?.code == .managerOnly }
        await #expect { _ = try await till.refunds(billId: bill) } throws: { ($0 as? Problem)?.code == .managerOnly }
        let rest = try await manager.refund(billId: bill, amountMinor: total - 500, reason: "Overcharged").answer
        #expect(rest.refundableMinor == 0)

        let listed = try await manager.refunds(billId: bill)
        #expect(listed.refunds == [first.answer.refund, rest.refund] && listed.refundedMinor == total && listed.refundableMinor == 0)
        #expect(try await manager.bill(id: bill).status == .paid)
        let report = try await manager.salesReport(from: start.addingTimeInterval(-1), to: Date().addingTimeInterval(1))
        #expect(
            report.refunds
                == SalesReport.Refunds(
                    count: 2, amountMinor: total, card: MethodTotals(count: 0, amountMinor: 0), cash: MethodTotals(count: 2, amountMinor: total)))
    }

    @Test("Tips: paid with the bill (a retried pay replays it), shown on the payment and the receipt, apart in the report, not refundable")
    func tips() async throws {
        let (server, manager, till) = try await shop()
        defer { server.stop() }
        let start = Date()
        let (bill, total) = try await checkedOutBill(till, "latte", quantity: 2)
        let intent = UserIntent()
        let paid = try await till.pay(billId: bill, PayRequest(method: .cash, amountMinor: total, tenderedMinor: 2000, tipMinor: 150), intent: intent)
        let payment = paid.answer.payment
        #expect(payment.tipMinor == 150 && payment.chargedMinor == total + 150 && payment.changeMinor == 2000 - total - 150)
        let again = try await till.pay(billId: bill, PayRequest(method: .cash, amountMinor: total, tenderedMinor: 2000, tipMinor: 150), intent: intent)
        #expect(again.replayed && again.answer.payment == payment)
        #expect(try await till.payment(id: payment.id) == payment)
        let receipt = try await till.receipt(billId: bill)
        #expect(receipt.totalMinor == total && receipt.tipMinor == 150 && receipt.chargedMinor == total + 150 && receipt.payment == payment)
        // The card bill with no tip sends none: 0.
        let (plain, plainTotal) = try await checkedOutBill(till, "latte")
        let card = try await till.pay(billId: plain, PayRequest(method: .card, amountMinor: plainTotal), intent: UserIntent()).answer.payment
        #expect(card.tipMinor == 0 && card.chargedMinor == plainTotal)

        await #expect { _ = try await manager.refund(billId: bill, amountMinor: total + 1, reason: "the tip too") } throws: { problem in
            (problem as? Problem)?.code == .refundExceedsPayment && (problem as? Problem)?.refundableMinor == total
        }
        let report = try await manager.salesReport(from: start.addingTimeInterval(-1), to: Date().addingTimeInterval(1))
        #expect(report.payments.amountMinor == total + plainTotal && report.sales.totalMinor == total + plainTotal)
        #expect(report.tips == SalesReport.Tips(count: 1, amountMinor: 150, card: MethodTotals(count: 0, amountMinor: 0), cash: MethodTotals(count: 1, amountMinor: 150)))
    }

    @Test("Discounts: a till (limit 0 by default) is refused with discount_needs_manager; a manager gives 10 %, the bill, receipt and report show it; removeDiscount takes it off")
    func discounts() async throws {
        let (server, manager, till) = try await shop()
        defer { server.stop() }
        let start = Date()
        let bill = try await till.createBill().answer.bill.id
        for item in ["latte", "croissant"] { _ = try await till.addItem(billId: bill, menuItemId: item) }
        await #expect { _ = try await till.setDiscount(billId: bill, .percent(basisPoints: 1000, reason: "Regular")) } throws: { problem in
            (problem as? Problem)?.code == .discountNeedsManager && (problem as? Problem)?.limitBps == 0 && (problem as? Problem)?.shareBps == 1000
        }
        let amount = try await manager.setDiscount(billId: bill, .amount(900, reason: "Wrong order")).answer.bill
        #expect(amount.discount == .amount(900, reason: "Wrong order") && amount.discountMinor == 825 && amount.totalMinor == 0)
        let removed = try await till.removeDiscount(billId: bill).answer.bill
        #expect(removed.discount == nil && removed.discountMinor == 0 && removed.totalMinor == 898)
        let given = try await manager.setDiscount(billId: bill, .percent(basisPoints: 1000, reason: "Regular")).answer.bill
        #expect(given.discount == .percent(basisPoints: 1000, reason: "Regular"))
        #expect((given.subtotalMinor, given.discountMinor, given.taxMinor, given.totalMinor) == (825, 82, 65, 808))
        let checkedOut = try await till.checkout(billId: bill).answer.bill
        #expect(checkedOut.totalMinor == 808 && checkedOut.discount == given.discount)
        _ = try await till.pay(billId: bill, PayRequest(method: .card, amountMinor: 808), intent: UserIntent())
        let receipt = try await till.receipt(billId: bill)
        #expect(receipt.discount == given.discount && receipt.discountMinor == 82 && receipt.totalMinor == 808)
        let report = try await manager.salesReport(from: start.addingTimeInterval(-1), to: Date().addingTimeInterval(1))
        #expect(report.sales.subtotalMinor == 825 && report.sales.discounts == MethodTotals(count: 1, amountMinor: 82))
        #expect(report.sales.discountedSubtotalMinor == 743 && report.sales.totalMinor == 808)
    }

    @Test("rotateToken: the client uses the new token, and the old one stops working once the new one is used")
    func rotateToken() async throws {
        let server = try RoutemapServer()
        defer { server.stop() }
        let till = try await server.enrolledClient()
        let old = try #require(await till.token)
        let rotated = try await till.rotateToken()
        #expect(rotated.token != old)
        #expect(await till.token == rotated.token)
        _ = try await till.launch()
        let withOld = APIClient(baseURL: server.baseURL, token: old)
        await #expect { _ = try await withOld.launch() } throws: { ($0 as? Problem)?.code == .unauthorized }
    }

    @Test("A manager adds, changes and retires a category and an item (a retried change replays); tills see the menu change")
    func menu() async throws {
        let (server, manager, till) = try await shop()
        defer { server.stop() }
        await #expect {
            _ = try await till.createMenuCategory(MenuCategory(id: "specials", name: "Specials"))
        } throws: { ($0 as? Problem)?.code == .managerOnly }

        let categoryIntent = UserIntent()
        let category = try await manager.createMenuCategory(MenuCategory(id: "specials", name: "Specials"), intent: categoryIntent)
        #expect(category.answer.category == MenuCategory(id: "specials", name: "Specials") && !category.replayed)
        #expect(try await manager.createMenuCategory(MenuCategory(id: "specials", name: "Specials"), intent: categoryIntent).replayed)
        #expect(try await manager.renameMenuCategory(id: "specials", name: "Today's specials").answer.category.name == "Today's specials")
        guard case .modified(let categories, let etag) = try await till.menuCategories() else {
            Issue.record("the first listing is not modified")
            return
        }
        #expect(categories.categories.last == MenuCategory(id: "specials", name: "Today's specials"))
        guard case .notModified = try await till.menuCategories(ifNoneMatch: etag) else {
            Issue.record("the same categories again are modified")
            return
        }

        let created = try await manager.createMenuItem(CreateMenuItemRequest(id: "hot-chocolate", name: "Hot Chocolate", category: "specials", priceMinor: 400))
        #expect(created.answer.item.priceMinor == 400 && created.answer.item.available)
        let changeIntent = UserIntent()
        let changed = try await manager.changeMenuItem(id: "hot-chocolate", ChangeMenuItemRequest(priceMinor: 450), intent: changeIntent)
        #expect(changed.answer.item.priceMinor == 450 && !changed.replayed)
        #expect(try await manager.changeMenuItem(id: "hot-chocolate", ChangeMenuItemRequest(priceMinor: 450), intent: changeIntent).replayed)
        guard case .modified(let specials, _) = try await till.menuItems(category: "specials") else {
            Issue.record("the menu is not modified")
            return
        }
        #expect(specials.items.map(\.id) == ["hot-chocolate"] && specials.items.first?.priceMinor == 450)

        await #expect { _ = try await manager.retireMenuCategory(id: "specials") } throws: { ($0 as? Problem)?.code == .categoryNotEmpty }
        let retired = try await manager.retireMenuItem(id: "hot-chocolate")
        #expect(retired.answer.retired && retired.answer.item.id == "hot-chocolate")
        #expect(try await manager.retireMenuCategory(id: "specials").answer.retired)
        guard case .modified(let after, _) = try await till.menuItems() else {
            Issue.record("the menu is not modified")
            return
        }
        #expect(!after.items.contains { $0.id == "hot-chocolate" })
    }

    @Test("Stock counts: a manager counts croissants; the menu shows them, paying sells the last, and adding it is then refused; null stops counting")
    func stock() async throws {
        let (server, manager, till) = try await shop()
        defer { server.stop() }
        let counted = try await manager.changeMenuItem(id: "croissant", ChangeMenuItemRequest(stock: .count(1)), intent: UserIntent())
        #expect(counted.answer.item.stock == 1 && !counted.answer.item.isSoldOut)
        guard case .modified(let menu, _) = try await till.menuItems() else {
            Issue.record("the menu is not modified")
            return
        }
        #expect(menu.items.first { $0.id == "croissant" }?.stock == 1)
        #expect(menu.items.first { $0.id == "latte" }?.stock == nil, "an uncounted item has no count")
        let bill = try await checkedOutBill(till, "croissant")
        _ = try await till.pay(billId: bill.id, PayRequest(method: .card, amountMinor: bill.totalMinor), intent: UserIntent())
        guard case .modified(let after, _) = try await till.menuItems() else {
            Issue.record("the menu is not modified")
            return
        }
        #expect(after.items.first { $0.id == "croissant" }.map { ($0.stock, $0.isSoldOut) } ?? (nil, false) == (0, true))
        let next = try await till.createBill().answer.bill.id
        await #expect { _ = try await till.addItem(billId: next, menuItemId: "croissant", quantity: 1) } throws: {
            ($0 as? Problem)?.code == .menuItemUnavailable
        }
        let uncounted = try await manager.changeMenuItem(id: "croissant", ChangeMenuItemRequest(stock: .notCounted), intent: UserIntent())
        #expect(uncounted.answer.item.stock == nil)
        _ = try await till.addItem(billId: next, menuItemId: "croissant", quantity: 1)
    }
}
