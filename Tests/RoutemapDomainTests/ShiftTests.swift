import Foundation
import RoutemapDomain
import RoutemapTestSupport
import Testing

@Suite("Cash drawer shifts: what a device's drawer should hold, and whether its count is over or short")
struct ShiftTests {
    let store = InMemoryStore(menu: Fixtures.menu)
    let clock = TestClock()
    /// The device whose drawer is counted, enrolled as a manager so that it may refund too.
    let device = BillCaller(deviceId: Fixtures.device, role: .manager)

    private var till: Till { Till(store: store, taxRate: Fixtures.rate875, currency: .usd, now: clock.function) }

    /// A bill of `device` holding two lattes (950 + 83 = 1033), paid by `method` with `tip`, cash tendered `tendered`.
    private func paid(_ method: PaymentMethod, tip: Int64 = 0, tendered: Int64? = nil, device: String = Fixtures.device) async throws -> Payment {
        let bill = try await till.addItem(billId: try await till.openBill(device: device).id, device: device, menuItemId: "latte", quantity: 2)
        _ = try await till.checkout(billId: bill.id, device: device)
        return try await till.pay(
            billId: bill.id, device: device, PaymentRequest(method: method, amountMinor: bill.totalMinor, tenderedMinor: tendered, tipMinor: tip)
        ).payment
    }

    private func open(_ float: Int64, device: String = Fixtures.device) async throws -> ShiftReport {
        try await till.openShift(device: device, openingFloatMinor: float, idempotency: nil).performedWithoutKey()
    }

    private func move(_ kind: DrawerMovement.Kind, _ amount: Int64, reason: String = "Change from the bank") async throws -> DrawerMovementOutcome {
        try await till.recordDrawerMovement(kind: kind, amountMinor: amount, reason: reason, device: device.deviceId, idempotency: nil)
            .performedWithoutKey()
    }

    private func close(_ counted: Int64) async throws -> ShiftReport {
        try await till.closeShift(device: device.deviceId, countedCashMinor: counted, idempotency: nil).performedWithoutKey()
    }

    // MARK: The rule, on records

    private static let shift = DrawerShift(
        id: "shift_1", deviceId: "dev_A", openedAt: Fixtures.createdAt, openingFloatMinor: 5000)

    private static func payment(
        _ id: String, _ method: PaymentMethod, amount: Int64 = 1000, tip: Int64 = 0, tendered: Int64? = nil, device: String? = "dev_A",
        at seconds: TimeInterval = 60
    ) -> Payment {
        let charged = amount + tip, handed = tendered ?? charged
        return Payment(
            id: id, billId: "bill_\(id)", receiptNumber: 1, method: method, amountMinor: amount, tipMinor: tip, tenderedMinor: handed,
            changeMinor: handed - charged, createdAt: Fixtures.createdAt.addingTimeInterval(seconds), deviceId: device)
    }

    private static func refund(_ payment: Payment, _ amount: Int64, device: String = "dev_A", at seconds: TimeInterval = 120) -> Refund {
        Refund(
            id: "ref_\(payment.id)", billId: payment.billId, paymentId: payment.id, method: payment.method, amountMinor: amount, reason: "Cold",
            deviceId: device, createdAt: Fixtures.createdAt.addingTimeInterval(seconds))
    }

    private static func movement(_ kind: DrawerMovement.Kind, _ amount: Int64, shiftId: String = "shift_1") -> DrawerMovement {
        DrawerMovement(
            id: "mov_\(kind.rawValue)_\(amount)", shiftId: shiftId, kind: kind, amountMinor: amount, reason: "Float top-up", deviceId: "dev_A",
            createdAt: Fixtures.createdAt.addingTimeInterval(30))
    }

    @Test("the drawer gains a cash payment's amount and cash tip (tendered less change); card payments are counted apart, not in it")
    func cashAndCard() throws {
        let cash = Self.payment("cash", .cash, amount: 1033, tip: 100, tendered: 2000)
        let card = Self.payment("card", .card, amount: 1033, tip: 200)
        let figures = try DrawerFigures(of: Self.shift, payments: [cash, card], refunds: [], movements: [])
        #expect(figures.cashTaken == SalesReport.MethodTotals(count: 1, amountMinor: 1133))
        #expect(figures.cardTaken == SalesReport.MethodTotals(count: 1, amountMinor: 1233))
        #expect(figures.paymentCount == 2)
        #expect(try ShiftReport.expectedCash(openingFloatMinor: 5000, figures: figures) == 6133)
    }

    @Test("cash refunds the device made come out of the drawer; card refunds and another device's refunds do not")
    func refunds() throws {
        let cash = Self.payment("cash", .cash, amount: 1000)
        let card = Self.payment("card", .card, amount: 1000)
        let refunds = [Self.refund(cash, 300), Self.refund(card, 400), Refund(
            id: "ref_other", billId: cash.billId, paymentId: cash.id, method: .cash, amountMinor: 50, reason: "Cold", deviceId: "dev_B",
            createdAt: Fixtures.createdAt.addingTimeInterval(90))]
        let figures = try DrawerFigures(of: Self.shift, payments: [cash, card], refunds: refunds, movements: [])
        #expect(figures.cashRefunded == SalesReport.MethodTotals(count: 1, amountMinor: 300))
        #expect(try ShiftReport.expectedCash(openingFloatMinor: 5000, figures: figures) == 5700)
    }

    @Test("a payment by another device, one without a device, one before the opening or after the close is not the shift's; both ends count")
    func window() throws {
        let closed = Self.shift.closed(
            at: Fixtures.createdAt.addingTimeInterval(600), countedCashMinor: 0, expectedCashMinor: 0)
        let payments = [
            Self.payment("other", .cash, device: "dev_B"), Self.payment("legacy", .cash, device: nil),
            Self.payment("before", .cash, at: -0.001), Self.payment("after", .cash, at: 600.001),
            Self.payment("opening", .cash, amount: 1, at: 0), Self.payment("closing", .cash, amount: 2, at: 600),
        ]
        let figures = try DrawerFigures(of: closed, payments: payments, refunds: [], movements: [])
        #expect(figures.cashTaken == SalesReport.MethodTotals(count: 2, amountMinor: 3))
        // While open, the shift runs on: a payment any time after its opening is its.
        let open = try DrawerFigures(of: Self.shift, payments: payments, refunds: [], movements: [])
        #expect(open.cashTaken == SalesReport.MethodTotals(count: 3, amountMinor: 1003))
    }

    @Test("expected cash: float + cash taken − cash refunded + pay-ins − pay-outs; another shift's movements do not count")
    func expected() throws {
        let cash = Self.payment("cash", .cash, amount: 2000)
        let movements = [Self.movement(.payIn, 700), Self.movement(.payOut, 1500), Self.movement(.payOut, 9, shiftId: "shift_2")]
        let figures = try DrawerFigures(of: Self.shift, payments: [cash], refunds: [Self.refund(cash, 250)], movements: movements)
        #expect(figures.payIns == SalesReport.MethodTotals(count: 1, amountMinor: 700))
        #expect(figures.payOuts == SalesReport.MethodTotals(count: 1, amountMinor: 1500))
        let report = try ShiftReport(shift: Self.shift, figures: figures)
        #expect(report.expectedCashMinor == 5000 + 2000 - 250 + 700 - 1500)
        #expect(report.varianceMinor == nil)
    }

    @Test("variance: the count less the expected cash fixed at close: over above 0, short below, 0 when it balances")
    func variance() throws {
        for (counted, variance) in [(Int64(6000), Int64(50)), (5900, -50), (5950, 0)] {
            let closed = Self.shift.closed(at: Fixtures.createdAt.addingTimeInterval(60), countedCashMinor: counted, expectedCashMinor: 5950)
            // The figures read later do not change what was fixed.
            let report = try ShiftReport(shift: closed, figures: DrawerFigures())
            #expect(report.expectedCashMinor == 5950 && report.varianceMinor == variance)
        }
    }

    // MARK: The use cases

    @Test("a whole shift: open, cash with a tip, card, a cash refund, a pay-in and a pay-out, then a short count")
    func wholeShift() async throws {
        let opened = try await open(10_000)
        #expect(opened.shift.deviceId == device.deviceId && opened.shift.isOpen)
        #expect(opened.expectedCashMinor == 10_000 && opened.shift.id.hasPrefix("shift_"))
        clock.advance(by: 1)
        let cash = try await paid(.cash, tip: 100, tendered: 2000)
        #expect(cash.deviceId == device.deviceId, "paying records its device")
        _ = try await paid(.card, tip: 150)
        _ = try await paid(.cash, device: Fixtures.otherDevice)
        let refunded = try await till.refund(billId: cash.billId, amountMinor: 33, reason: "Cold", caller: device, idempotency: nil)
        _ = try refunded.performedWithoutKey()
        let payIn = try await move(.payIn, 500)
        #expect(payIn.movement.kind == .payIn && payIn.movement.shiftId == opened.shift.id && payIn.report.figures.payIns.amountMinor == 500)
        let payOut = try await move(.payOut, 1200, reason: "Milk delivery")
        // 10 000 + 1133 − 33 + 500 − 1200.
        #expect(payOut.report.expectedCashMinor == 10_400)
        let current = try till.currentShift(device: device.deviceId)
        #expect(current.expectedCashMinor == 10_400 && current.figures.cardTaken == SalesReport.MethodTotals(count: 1, amountMinor: 1183))
        #expect(current.figures.paymentCount == 2)

        clock.advance(by: 60)
        let closed = try await close(10_390)
        #expect(closed.expectedCashMinor == 10_400 && closed.varianceMinor == -10)
        #expect(closed.shift.closing?.closedAt == clock.now && closed.shift.deviceId == device.deviceId)
        #expect(Array(store.snapshot.committedDurabilities.suffix(4)) == [.full, .full, .full, .full])

        // After the close: no open shift; a later payment is not the closed shift's.
        #expect(throws: POSError.noOpenShift) { try till.currentShift(device: device.deviceId) }
        clock.advance(by: 1)
        _ = try await paid(.cash)
        #expect(try till.shiftReport(id: closed.shift.id, caller: device) == closed)
    }

    @Test("one open shift per device: a second open is refused with the open one's id, recorded under the key; another device opens its own")
    func oneOpenShift() async throws {
        let first = try await open(0)
        await #expect(throws: POSError.shiftAlreadyOpen(shiftId: first.shift.id)) { try await open(100) }
        let key = IdempotencyKey<ShiftReport>(key: "open-again", fingerprint: "POST /v1/shifts") { _ in [1] }
        await #expect(throws: POSError.shiftAlreadyOpen(shiftId: first.shift.id)) {
            try await till.openShift(device: device.deviceId, openingFloatMinor: 100, idempotency: key)
        }
        #expect(store.snapshot.recordedAnswers.values.contains { $0.key == "open-again" && $0.answer == [1] })
        let other = try await open(300, device: Fixtures.otherDevice)
        #expect(other.shift.deviceId == Fixtures.otherDevice)
        #expect(store.snapshot.shifts.count == 2)
    }

    @Test("a pay-out beyond the expected cash is refused with it; nothing is recorded")
    func insufficientCash() async throws {
        _ = try await open(1000)
        _ = try await move(.payOut, 400)
        await #expect(throws: POSError.insufficientCash(expectedCashMinor: 600)) { try await move(.payOut, 601) }
        _ = try await move(.payOut, 600)
        #expect(store.snapshot.drawerMovements.map(\.amountMinor) == [400, 600])
        #expect(try till.currentShift(device: device.deviceId).expectedCashMinor == 0)
    }

    @Test("without an open shift, movements and closing are refused; paying is not")
    func noOpenShift() async throws {
        await #expect(throws: POSError.noOpenShift) { try await move(.payIn, 1) }
        await #expect(throws: POSError.noOpenShift) { try await close(0) }
        #expect(throws: POSError.noOpenShift) { try till.currentShift(device: device.deviceId) }
        _ = try await paid(.cash)
        #expect(store.snapshot.shifts.isEmpty && store.snapshot.drawerMovements.isEmpty)
    }

    @Test("bad input is refused before anything is read or written: a negative float or count, an amount below 1, a bad reason")
    func invalidInput() async throws {
        await #expect(throws: InvalidInput(field: "openingFloatMinor", rule: "at least 0")) { try await open(-1) }
        _ = try await open(0)
        let committed = store.snapshot.committedDurabilities.count
        await #expect(throws: InvalidInput(field: "amountMinor", rule: "at least 1")) { try await move(.payIn, 0) }
        await #expect(throws: InvalidInput.self) { try await move(.payIn, 5, reason: "   ") }
        await #expect(throws: InvalidInput.self) { try await move(.payIn, 5, reason: String(repeating: "x", count: 201)) }
        await #expect(throws: InvalidInput(field: "countedCashMinor", rule: "at least 0")) { try await close(-5) }
        #expect(store.snapshot.committedDurabilities.count == committed)
        #expect(try till.currentShift(device: device.deviceId).shift.isOpen)
    }

    @Test("a manager lists shifts newest first, a page at a time, of one device or all; a till may not; a bad cursor is refused")
    func listing() async throws {
        let first = try await open(100)
        clock.advance(by: 1)
        _ = try await close(100)
        clock.advance(by: 1)
        let other = try await open(200, device: Fixtures.otherDevice)
        clock.advance(by: 1)
        let second = try await open(300)
        let all = try till.shifts(deviceId: nil, after: nil, limit: 2, caller: device)
        #expect(all.shifts.map(\.id) == [second.shift.id, other.shift.id] && all.nextCursor == other.shift.id)
        let rest = try till.shifts(deviceId: nil, after: all.nextCursor, limit: 2, caller: device)
        #expect(rest.shifts.map(\.id) == [first.shift.id] && rest.nextCursor == nil && rest.shifts[0].closing != nil)
        let own = try till.shifts(deviceId: device.deviceId, after: nil, limit: 10, caller: device)
        #expect(own.shifts.map(\.id) == [second.shift.id, first.shift.id])
        #expect(throws: POSError.managerOnly) { try till.shifts(deviceId: nil, after: nil, limit: 10, caller: .till(Fixtures.device)) }
        #expect(throws: POSError.invalidCursor(other.shift.id)) {
            try till.shifts(deviceId: device.deviceId, after: other.shift.id, limit: 10, caller: device)
        }
        #expect(throws: POSError.invalidCursor("shift_missing")) { try till.shifts(deviceId: nil, after: "shift_missing", limit: 10, caller: device) }
    }

    @Test("a till reads only its own shifts (another's reads as missing); a manager reads any")
    func reading() async throws {
        let own = try await open(100, device: Fixtures.otherDevice)
        #expect(throws: POSError.shiftNotFound(own.shift.id)) { try till.shiftReport(id: own.shift.id, caller: .till(Fixtures.device)) }
        #expect(try till.shiftReport(id: own.shift.id, caller: .till(Fixtures.otherDevice)) == own)
        #expect(try till.shiftReport(id: own.shift.id, caller: device) == own)
        #expect(throws: POSError.shiftNotFound("shift_missing")) { try till.shiftReport(id: "shift_missing", caller: device) }
    }
}
