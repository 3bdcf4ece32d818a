import RoutemapDomain
import Testing

@Suite("Bill editing: add, merge, set quantity, remove, limits")
struct BillEditingTests {
    @Test("adding captures the item's name and price; lines stay in the order added")
    func add() throws {
        var bill = Fixtures.bill()
        try bill.add(Fixtures.croissant, quantity: 2, newLineId: "line_a")
        try bill.add(Fixtures.latte, quantity: 1, newLineId: "line_b")
        #expect(bill.lines.map(\.lineId) == ["line_a", "line_b"])
        #expect(bill.lines[0] == (try BillLine(lineId: "line_a", menuItemId: "croissant", name: "Croissant", quantity: 2, unitPriceMinor: 350)))
        #expect(bill.version == 3)
    }

    @Test("adding the same item again raises that line's quantity, at its captured price")
    func merge() throws {
        var bill = Fixtures.bill()
        try bill.add(Fixtures.latte, quantity: 2, newLineId: "line_a")
        try bill.add(Fixtures.croissant, quantity: 1, newLineId: "line_b")
        let repriced = Fixtures.item("latte", price: 999)
        try bill.add(repriced, quantity: 3, newLineId: "line_c")
        #expect(bill.lines.map(\.lineId) == ["line_a", "line_b"])
        #expect(bill.lines[0].quantity == 5)
        #expect(bill.lines[0].unitPriceMinor == 475)
        #expect(bill.lines[0].lineTotalMinor == 2_375)
        #expect(bill.version == 4)
    }

    @Test("quantities outside 1...999 are refused", arguments: [0, -1, 1_000, Int.max, Int.min])
    func quantityRange(quantity: Int) throws {
        var bill = Fixtures.bill()
        #expect(throws: POSError.quantityOutOfRange(quantity: quantity, limit: 999)) { try bill.add(Fixtures.latte, quantity: quantity) }
        try bill.add(Fixtures.latte, quantity: 1, newLineId: "line_a")
        #expect(throws: POSError.quantityOutOfRange(quantity: quantity, limit: 999)) { try bill.setQuantity(lineId: "line_a", quantity: quantity, item: Fixtures.latte) }
        #expect(bill.lines[0].quantity == 1)
    }

    @Test("1 and 999 are allowed")
    func quantityBounds() throws {
        var bill = Fixtures.bill()
        try bill.add(Fixtures.latte, quantity: 999, newLineId: "line_a")
        try bill.setQuantity(lineId: "line_a", quantity: 1, item: Fixtures.latte)
        #expect(bill.lines[0].quantity == 1)
    }

    @Test("merging beyond 999 is refused with the merged quantity, and changes nothing")
    func mergeBeyondLimit() throws {
        var bill = Fixtures.bill()
        try bill.add(Fixtures.latte, quantity: 500)
        let before = bill
        #expect(throws: POSError.lineQuantityLimit(quantity: 1_000, limit: 999)) { try bill.add(Fixtures.latte, quantity: 500) }
        #expect(bill == before)
        try bill.add(Fixtures.latte, quantity: 499)
        #expect(bill.lines[0].quantity == 999)
    }

    @Test("at most 100 lines by default; a custom limit is honoured")
    func lineLimit() throws {
        var bill = Fixtures.bill()
        for index in 0..<100 {
            try bill.add(Fixtures.item("item\(index)", price: 1), quantity: 1)
        }
        #expect(throws: POSError.tooManyLines(limit: 100)) { try bill.add(Fixtures.item("one-more", price: 1), quantity: 1) }
        // Merging into an existing line adds no line: still allowed at the limit.
        try bill.add(Fixtures.item("item0", price: 1), quantity: 1)
        #expect(bill.lines.count == 100)

        let limits = BillLimits(maxQuantityPerLine: 5, maxLines: 2)
        var small = Fixtures.bill()
        try small.add(Fixtures.latte, quantity: 5, limits: limits)
        try small.add(Fixtures.croissant, quantity: 1, limits: limits)
        #expect(throws: POSError.tooManyLines(limit: 2)) { try small.add(Fixtures.item("x", price: 1), quantity: 1, limits: limits) }
        #expect(throws: POSError.lineQuantityLimit(quantity: 6, limit: 5)) { try small.add(Fixtures.latte, quantity: 1, limits: limits) }
        #expect(throws: POSError.quantityOutOfRange(quantity: 6, limit: 5)) { try small.setQuantity(lineId: small.lines[1].lineId, quantity: 6, item: Fixtures.croissant, limits: limits) }
    }

    @Test("unavailable items, items in another currency and negative prices cannot be added")
    func unsellable() throws {
        var bill = Fixtures.bill()
        #expect(throws: POSError.menuItemUnavailable("pumpkin-spice-latte")) { try bill.add(Fixtures.soldOut, quantity: 1) }
        let euro = Fixtures.item("euro-latte", price: 400, currency: Currency(rawValue: "EUR")!)
        #expect(throws: POSError.menuItemUnavailable("euro-latte")) { try bill.add(euro, quantity: 1) }
        #expect(throws: POSError.menuItemUnavailable("refund")) { try bill.add(Fixtures.item("refund", price: -100), quantity: 1) }
        #expect(bill == Fixtures.bill())
    }

    @Test("set quantity changes the line and the totals; the same quantity is no change")
    func setQuantity() throws {
        var bill = try Fixtures.bill(with: [Fixtures.latte, Fixtures.croissant])
        try bill.setQuantity(lineId: "line_1", quantity: 4, item: Fixtures.croissant)
        #expect(bill.lines.map(\.quantity) == [1, 4])
        #expect(bill.subtotalMinor == 475 + 1_400)
        #expect(bill.version == 4)
        try bill.setQuantity(lineId: "line_1", quantity: 4, item: Fixtures.croissant)
        #expect(bill.version == 4)
        #expect(throws: POSError.lineNotFound("line_nope")) { try bill.setQuantity(lineId: "line_nope", quantity: 1, item: Fixtures.latte) }
    }

    @Test("raising a line needs its item still sold, as adding does; lowering and the same quantity do not")
    func raiseNeedsSellableItem() throws {
        var bill = try Fixtures.bill(with: [Fixtures.latte])
        try bill.setQuantity(lineId: "line_0", quantity: 3, item: Fixtures.latte)
        let before = bill
        let soldOut = Fixtures.item("latte", price: 475, available: false)
        #expect(throws: POSError.menuItemUnavailable("latte")) { try bill.setQuantity(lineId: "line_0", quantity: 6, item: soldOut) }
        // Retired: no longer on the menu.
        #expect(throws: POSError.unknownMenuItem("latte")) { try bill.setQuantity(lineId: "line_0", quantity: 40, item: nil) }
        #expect(bill == before)
        try bill.setQuantity(lineId: "line_0", quantity: 3, item: nil)
        #expect(bill == before)
        try bill.setQuantity(lineId: "line_0", quantity: 2, item: soldOut)
        try bill.setQuantity(lineId: "line_0", quantity: 1, item: nil)
        #expect(bill.lines[0].quantity == 1)
        // The line keeps the price it was added at.
        #expect(bill.lines[0].unitPriceMinor == 475)
        try bill.removeLine(lineId: "line_0")
        #expect(bill.lines.isEmpty)
    }

    @Test("remove keeps the other lines in order")
    func remove() throws {
        var bill = try Fixtures.bill(with: [Fixtures.latte, Fixtures.croissant, Fixtures.item("espresso", price: 300)])
        try bill.removeLine(lineId: "line_1")
        #expect(bill.lines.map(\.lineId) == ["line_0", "line_2"])
        #expect(bill.subtotalMinor == 775)
        #expect(bill.version == 5)
        #expect(throws: POSError.lineNotFound("line_1")) { try bill.removeLine(lineId: "line_1") }
    }

    @Test("a bill that is not open cannot be edited", arguments: [BillStatus.checkedOut, .paid])
    func editsNeedOpen(status: BillStatus) throws {
        var bill = try status == .paid ? Fixtures.paidBill(with: [Fixtures.latte]) : Fixtures.checkedOutBill(with: [Fixtures.latte])
        let before = bill
        #expect(throws: POSError.billNotOpen(status)) { try bill.add(Fixtures.croissant, quantity: 1) }
        // Status is checked before the item: even an unsellable item reports billNotOpen.
        #expect(throws: POSError.billNotOpen(status)) { try bill.add(Fixtures.soldOut, quantity: 0) }
        #expect(throws: POSError.billNotOpen(status)) { try bill.setQuantity(lineId: "line_0", quantity: 2, item: Fixtures.latte) }
        #expect(throws: POSError.billNotOpen(status)) { try bill.removeLine(lineId: "line_0") }
        #expect(throws: POSError.billNotOpen(status)) { try bill.checkout() }
        #expect(bill == before)
    }
}
