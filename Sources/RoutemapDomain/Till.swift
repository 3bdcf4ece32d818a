import Foundation

/// The point-of-sale use cases: read the menu and bills, edit a bill, check out, pay.
///
/// Each change is one ``POSStore/write(_:)`` transaction: load the bill, apply the domain rules,
/// save. Concurrent requests on the same bill are therefore serialized and none is lost.
public struct Till: Sendable {
    /// The tax rate of new bills (a bill keeps the rate it was opened with).
    public let taxRate: TaxRate
    /// The currency of new bills.
    public let currency: Currency
    /// The size limits of bills (quantity per line, lines per bill).
    public let limits: BillLimits
    private let store: any POSStore
    private let now: @Sendable () -> Date

    /// - Parameter now: the clock, for bills' and payments' timestamps (kept to the millisecond).
    public init(
        store: any POSStore, taxRate: TaxRate, currency: Currency, limits: BillLimits = BillLimits(),
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.store = store
        self.taxRate = taxRate
        self.currency = currency
        self.limits = limits
        self.now = now
    }

    /// The whole menu, in menu order.
    public func menu() throws -> [MenuItem] {
        try store.menuItems()
    }

    /// The bill with `id`. Throws `POSError.billNotFound`.
    public func bill(id: String) throws -> Bill {
        guard let bill = try store.bill(id: id) else { throw POSError.billNotFound(id) }
        return bill
    }

    /// A new, empty, open bill.
    public func openBill() throws -> Bill {
        try store.write { transaction in
            let bill = try makeBill()
            try transaction.insert(bill)
            return bill
        }
    }

    /// The bill the till is working on: the newest one not yet paid, created if there is none.
    ///
    /// Reads first (the common case writes nothing); if there is none, checks again inside a
    /// write transaction before creating one, so concurrent callers create exactly one.
    public func currentBill() throws -> Bill {
        if let bill = try store.newestUnpaidBill() { return bill }
        return try store.write { transaction in
            if let bill = try transaction.newestUnpaidBill() { return bill }
            let bill = try makeBill()
            try transaction.insert(bill)
            return bill
        }
    }

    /// Adds `quantity` of a menu item, capturing its name and price now.
    /// Throws `billNotFound`, `billNotOpen`, `unknownMenuItem`, `menuItemUnavailable`,
    /// `quantityOutOfRange` or `tooManyLines`.
    public func addItem(billId: String, menuItemId: String, quantity: Int) throws -> Bill {
        try changeBill(billId) { bill, transaction in
            try bill.requireOpen()
            guard let item = try transaction.menuItem(id: menuItemId) else {
                throw POSError.unknownMenuItem(menuItemId)
            }
            try bill.add(item, quantity: quantity, limits: limits)
        }
    }

    /// Sets a line's quantity. Throws `billNotFound`, `billNotOpen`, `lineNotFound` or
    /// `quantityOutOfRange`.
    public func setQuantity(billId: String, lineId: String, quantity: Int) throws -> Bill {
        try changeBill(billId) { bill, _ in
            try bill.setQuantity(lineId: lineId, quantity: quantity, limits: limits)
        }
    }

    /// Removes a line. Throws `billNotFound`, `billNotOpen` or `lineNotFound`.
    public func removeLine(billId: String, lineId: String) throws -> Bill {
        try changeBill(billId) { bill, _ in try bill.removeLine(lineId: lineId) }
    }

    /// Freezes the bill for payment. Throws `billNotFound`, `billNotOpen` or `billEmpty`.
    public func checkout(billId: String) throws -> Bill {
        try changeBill(billId) { bill, _ in try bill.checkout() }
    }

    /// Reopens a checked-out bill. Throws `billNotFound` or `billNotCheckedOut`.
    public func cancelCheckout(billId: String) throws -> Bill {
        try changeBill(billId) { bill, _ in try bill.cancelCheckout() }
    }

    /// Pays a checked-out bill: records the payment, marks the bill paid and opens the next
    /// bill, all in one transaction. Throws `billNotFound`, then as
    /// ``Bill/payment(for:id:createdAt:)`` checks: `billNotCheckedOut`, `amountMismatch`,
    /// `insufficientTender` or `tenderNotAllowed`.
    public func pay(billId: String, _ request: PaymentRequest) throws -> PaymentOutcome {
        try store.write { transaction in
            guard var bill = try transaction.bill(id: billId) else { throw POSError.billNotFound(billId) }
            let payment = try bill.payment(for: request, id: Identifier.make(prefix: "pay_"), createdAt: timestamp())
            try bill.markPaid()
            try transaction.update(bill)
            try transaction.insert(payment)
            let nextBill = try makeBill()
            try transaction.insert(nextBill)
            return PaymentOutcome(payment: payment, bill: bill, nextBill: nextBill)
        }
    }

    /// Throws unless the store answers.
    public func checkHealth() throws {
        try store.ping()
    }

    // MARK: Helpers

    /// Loads the bill, applies `change` and saves the bill if it changed, in one transaction.
    private func changeBill(
        _ billId: String, _ change: (inout Bill, any POSTransaction) throws -> Void
    ) throws -> Bill {
        try store.write { transaction in
            guard var bill = try transaction.bill(id: billId) else { throw POSError.billNotFound(billId) }
            let before = bill
            try change(&bill, transaction)
            if bill != before { try transaction.update(bill) }
            return bill
        }
    }

    private func makeBill() throws -> Bill {
        try Bill(id: Identifier.make(prefix: "bill_"), currency: currency, taxRate: taxRate, createdAt: timestamp())
    }

    private func timestamp() -> Date {
        now().roundedToMilliseconds
    }
}
