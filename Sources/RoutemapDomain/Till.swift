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
    /// The shop's name, address and tax id, printed on every receipt.
    public let shop: ShopDetails
    /// The largest discount a till may give a bill it holds, in basis points of the bill's
    /// subtotal (0 to 10 000); 0: only a manager gives discounts. See ``setDiscount(billId:caller:_:idempotency:)``.
    public let tillDiscountLimitBasisPoints: Int
    /// The tips the order summary offers, as percentages (1 to 100) of what a bill has due:
    /// ``Bill/suggestedTipPercents`` unless the shop chose others; empty offers none.
    public let suggestedTipPercents: [Int]
    let store: any POSStore
    private let now: @Sendable () -> Date

    /// The store's ``POSStore/history``: part of the key of an answer cached by a bill's version.
    public var storeHistory: Int { store.history }

    /// - Parameter now: the clock, for bills' and payments' timestamps (kept to the millisecond).
    public init(
        store: any POSStore, taxRate: TaxRate, currency: Currency, limits: BillLimits = BillLimits(), shop: ShopDetails = ShopDetails(),
        tillDiscountLimitBasisPoints: Int = 0, suggestedTipPercents: [Int] = Bill.suggestedTipPercents,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.store = store
        self.tillDiscountLimitBasisPoints = tillDiscountLimitBasisPoints
        self.suggestedTipPercents = suggestedTipPercents
        self.taxRate = taxRate
        self.currency = currency
        self.limits = limits
        self.shop = shop
        self.now = now
    }

    /// The whole menu, in menu order.
    public func menu() throws -> [MenuItem] {
        try store.menuItems()
    }

    /// The bill with `id`, if `device` owns it. Throws `POSError.billNotFound` otherwise: another
    /// device's bill is indistinguishable from a missing one.
    public func bill(id: String, device: String) throws -> Bill {
        guard let bill = try store.bill(id: id), bill.deviceId == device else { throw POSError.billNotFound(id) }
        return bill
    }

    /// A new, empty, open bill for `device`, named `label` (``BillLabel/parse(_:)``: trimmed,
    /// blank is none). Throws ``InvalidInput`` for a label that breaks its rule, before anything
    /// is written.
    public func openBill(device: String, label: String? = nil) async throws -> Bill {
        try performed(await openBill(device: device, label: label, idempotency: nil))
    }

    /// ``openBill(device:label:)`` under an idempotency key (see ``IdempotencyKey``).
    public func openBill(device: String, label: String? = nil, idempotency: IdempotencyKey<Bill>?) async throws -> IdempotentOutcome<Bill> {
        let label = try label.flatMap { try BillLabel.parse($0) }
        return try await write(device: device, durability: .normal, idempotency: idempotency) { transaction in
            let bill = try makeBill(device: device, label: label)
            try transaction.insert(bill)
            return bill
        }
    }

    /// The bill `device` is working on (its current bill: of its open and checked-out bills, the
    /// one created or resumed last), created if it has none. A new bill is opened only here (a
    /// till with no unsettled bill), by ``openBill(device:)``, after paying when the device has no
    /// empty open bill to take up (``nextBill(device:in:)``), and after voiding the last
    /// unsettled bill.
    ///
    /// Reads first (the common case writes nothing); if there is none, checks again inside a
    /// write transaction before creating one, so concurrent callers create exactly one.
    public func currentBill(device: String) async throws -> Bill {
        if let bill = try store.currentBill(deviceId: device) { return bill }
        return try await store.write { transaction in
            if let bill = try transaction.currentBill(deviceId: device) { return bill }
            let bill = try makeBill(device: device)
            try transaction.insert(bill)
            return bill
        }
    }

    /// Adds `quantity` of a menu item with the options `modifiers` names (ids of its modifier
    /// options; none for an item without groups), capturing its name and price, and the options'
    /// names and prices, now, with the note `note` (``LineNote/parse(_:)``: trimmed, blank is
    /// none). Throws ``InvalidInput`` (a note that breaks its rule, before anything is read),
    /// `billNotFound`, `billNotOpen`, `unknownMenuItem`, ``InvalidInput`` (an option named
    /// twice), `unknownModifier`, `modifierChoiceInvalid`, `menuItemUnavailable`,
    /// `quantityOutOfRange`, `lineQuantityLimit`, `tooManyLines` or `amountOutOfRange`.
    public func addItem(
        billId: String, device: String, menuItemId: String, quantity: Int, modifiers: [String] = [], note: String? = nil
    ) async throws -> Bill {
        try performed(
            await addItem(
                billId: billId, device: device, menuItemId: menuItemId, quantity: quantity, modifiers: modifiers, note: note,
                idempotency: nil))
    }

    /// ``addItem(billId:device:menuItemId:quantity:modifiers:note:)`` under an idempotency key.
    public func addItem(
        billId: String, device: String, menuItemId: String, quantity: Int, modifiers: [String] = [], note: String? = nil,
        idempotency: IdempotencyKey<Bill>?
    ) async throws -> IdempotentOutcome<Bill> {
        let note = try note.flatMap { try LineNote.parse($0) }
        return try await changeBill(billId, device: device, idempotency: idempotency) { bill, transaction in
            try bill.requireOpen()
            guard let item = try transaction.menuItem(id: menuItemId) else {
                throw POSError.unknownMenuItem(menuItemId)
            }
            let chosen = try item.chosenModifiers(modifiers)
            try bill.add(item, quantity: quantity, modifiers: chosen, note: note, limits: limits)
        }
    }

    /// Sets a line's quantity. Raising it needs the line's item still sold, as adding does
    /// (``Bill/setQuantity(lineId:quantity:item:limits:)``); lowering it does not. Throws
    /// `billNotFound`, `billNotOpen`, `lineNotFound`, `quantityOutOfRange`, `unknownMenuItem`
    /// (raising a retired item), `menuItemUnavailable` or `amountOutOfRange`.
    public func setQuantity(billId: String, device: String, lineId: String, quantity: Int) async throws -> Bill {
        try performed(await setQuantity(billId: billId, device: device, lineId: lineId, quantity: quantity, idempotency: nil))
    }

    /// ``setQuantity(billId:device:lineId:quantity:)`` under an idempotency key.
    public func setQuantity(billId: String, device: String, lineId: String, quantity: Int, idempotency: IdempotencyKey<Bill>?)
        async throws -> IdempotentOutcome<Bill>
    {
        try await changeLine(billId: billId, device: device, lineId: lineId, quantity: quantity, idempotency: idempotency)
    }

    /// Changes a line's quantity (when `quantity` is given, as ``setQuantity(billId:device:lineId:quantity:)``)
    /// and its note (when `note` is given: ``LineNote/parse(_:)``'s, so an empty or blank one
    /// removes it), in one change (``Bill/changeLine(lineId:quantity:note:item:limits:)``: the line
    /// stays its own even if it now looks like another). Throws ``InvalidInput`` (a note that
    /// breaks its rule, before anything is read), then as setting the quantity does.
    public func changeLine(billId: String, device: String, lineId: String, quantity: Int? = nil, note: String? = nil) async throws -> Bill {
        try performed(await changeLine(billId: billId, device: device, lineId: lineId, quantity: quantity, note: note, idempotency: nil))
    }

    /// ``changeLine(billId:device:lineId:quantity:note:)`` under an idempotency key.
    public func changeLine(
        billId: String, device: String, lineId: String, quantity: Int? = nil, note: String? = nil, idempotency: IdempotencyKey<Bill>?
    ) async throws -> IdempotentOutcome<Bill> {
        let note: LineNote?? = try note.map { try LineNote.parse($0) }
        return try await changeBill(billId, device: device, idempotency: idempotency) { bill, transaction in
            // Only raising reads the menu (in this transaction, as adding does).
            let raised = bill.line(id: lineId).flatMap { line in quantity.flatMap { $0 > line.quantity ? line.menuItemId : nil } }
            let item = try raised.flatMap { try transaction.menuItem(id: $0) }
            try bill.changeLine(lineId: lineId, quantity: quantity, note: note, item: item, limits: limits)
        }
    }

    /// Removes a line. Throws `billNotFound`, `billNotOpen` or `lineNotFound`.
    public func removeLine(billId: String, device: String, lineId: String) async throws -> Bill {
        try performed(await removeLine(billId: billId, device: device, lineId: lineId, idempotency: nil))
    }

    /// ``removeLine(billId:device:lineId:)`` under an idempotency key.
    public func removeLine(billId: String, device: String, lineId: String, idempotency: IdempotencyKey<Bill>?) async throws
        -> IdempotentOutcome<Bill>
    {
        try await changeBill(billId, device: device, idempotency: idempotency) { bill, _ in try bill.removeLine(lineId: lineId) }
    }

    /// Names the device's open or checked-out bill `label` (``BillLabel/parse(_:)``: trimmed; an
    /// empty or blank label, or `nil`, takes its label off). Naming it as it is named changes
    /// nothing. Throws ``InvalidInput`` (a label that breaks its rule, before anything is read),
    /// `billNotFound` (another device's bill, as for every change of a bill) or `billSettled`.
    public func setLabel(billId: String, device: String, label: String?) async throws -> Bill {
        try performed(await setLabel(billId: billId, device: device, label: label, idempotency: nil))
    }

    /// ``setLabel(billId:device:label:)`` under an idempotency key.
    public func setLabel(billId: String, device: String, label: String?, idempotency: IdempotencyKey<Bill>?) async throws
        -> IdempotentOutcome<Bill>
    {
        let label = try label.flatMap { try BillLabel.parse($0) }
        return try await changeBill(billId, device: device, idempotency: idempotency) { bill, _ in try bill.setLabel(label) }
    }

    /// Freezes the bill for payment. Throws `billNotFound`, `billNotOpen` or `billEmpty`.
    public func checkout(billId: String, device: String) async throws -> Bill {
        try performed(await checkout(billId: billId, device: device, idempotency: nil))
    }

    /// ``checkout(billId:device:)`` under an idempotency key.
    public func checkout(billId: String, device: String, idempotency: IdempotencyKey<Bill>?) async throws -> IdempotentOutcome<Bill> {
        try await changeBill(billId, device: device, idempotency: idempotency) { bill, _ in try bill.checkout() }
    }

    /// Reopens a checked-out bill. Throws `billNotFound` or `billNotCheckedOut`.
    public func cancelCheckout(billId: String, device: String) async throws -> Bill {
        try performed(await cancelCheckout(billId: billId, device: device, idempotency: nil))
    }

    /// ``cancelCheckout(billId:device:)`` under an idempotency key.
    public func cancelCheckout(billId: String, device: String, idempotency: IdempotencyKey<Bill>?) async throws -> IdempotentOutcome<Bill> {
        try await changeBill(billId, device: device, idempotency: idempotency) { bill, _ in try bill.cancelCheckout() }
    }

    /// Pays a checked-out bill, or part of it (``PaymentRequest/partial``): records the payment
    /// with the store's next receipt number, all in one transaction committed with `full`
    /// durability. The payment that pays what is left marks the bill paid and makes the next bill
    /// current (the device's empty open bill if it has one, else a new one: see
    /// ``nextBill(device:in:)``); one that pays part leaves the bill checked out and current, and
    /// the outcome's next bill is the bill itself. Throws `billNotFound`, then as ``Bill/check(_:)``
    /// checks: `billNotCheckedOut`, `amountMismatch`, `amountExceedsDue`, `insufficientTender` or
    /// `tenderNotAllowed`.
    ///
    /// The payment that makes the bill paid also takes what it sold off the shelf counts, in the
    /// same transaction (``Bill/stockSold(countedItems:)``): of the items in `countedItems`, the
    /// ids of the counted items (``MenuItem/isCounted``) as the caller knows them without asking
    /// the store (the POS app: its live menu), so that paying a bill of uncounted items writes
    /// nothing more. A count may go below 0 (the sale happened; the count was wrong). An item
    /// the caller does not know is counted (counting began on another node within the second)
    /// is sold without its count going down.
    public func pay(billId: String, device: String, _ request: PaymentRequest, countedItems: Set<String> = []) async throws
        -> PaymentOutcome
    {
        try performed(await pay(billId: billId, device: device, request, countedItems: countedItems, idempotency: nil))
    }

    /// ``pay(billId:device:_:countedItems:)`` under an idempotency key.
    public func pay(
        billId: String, device: String, _ request: PaymentRequest, countedItems: Set<String> = [],
        idempotency: IdempotencyKey<PaymentOutcome>?
    ) async throws -> IdempotentOutcome<PaymentOutcome> {
        try await write(device: device, durability: .full, idempotency: idempotency) { transaction in
            var bill = try ownedBill(billId, device: device, in: transaction)
            let checked = try bill.check(request)
            let next = checked.completesBill ? try nextBill(device: device, in: transaction) : nil
            // The receipt number last, once nothing can refuse the payment (a refusal recorded
            // under the key commits, and must not use a number up) and just before the payment
            // is recorded: on PostgreSQL every other payment waits for it until this commits.
            // The bill's row is written after it (with the payment in its list); on PostgreSQL
            // both writes are queued, not waited for.
            let payment = checked.payment(
                id: Identifier.make(prefix: "pay_"), receiptNumber: try transaction.nextReceiptNumber(), createdAt: timestamp(),
                deviceId: device)
            try bill.record(payment)
            try transaction.update(bill)
            try transaction.insert(payment)
            // Only the completing payment sells (a bill is paid once); none counted: no statement.
            let sold = checked.completesBill ? bill.stockSold(countedItems: countedItems) : [:]
            if !sold.isEmpty { try transaction.takeFromStock(sold) }
            return PaymentOutcome(payment: payment, bill: bill, nextBill: next ?? bill)
        }
    }

    /// Throws unless the store answers.
    public func checkHealth() throws {
        try store.ping()
    }

    // MARK: Helpers

    /// Loads the device's bill, applies `change` and saves the bill if it changed, in one
    /// transaction under an optional idempotency key.
    func changeBill(
        _ billId: String, device: String, idempotency: IdempotencyKey<Bill>?,
        _ edit: @escaping @Sendable (inout Bill, any POSTransaction) throws -> Void
    ) async throws -> IdempotentOutcome<Bill> {
        try await write(device: device, durability: .normal, idempotency: idempotency) { transaction in
            try change(try ownedBill(billId, device: device, in: transaction), in: transaction, edit)
        }
    }

    /// Applies `change` to `loaded` and saves the bill if it changed.
    func change(
        _ loaded: Bill, in transaction: any POSTransaction, _ change: (inout Bill, any POSTransaction) throws -> Void
    ) throws -> Bill {
        var bill = loaded
        let before = bill
        try change(&bill, transaction)
        if bill != before { try transaction.update(bill) }
        return bill
    }

    func ownedBill(_ billId: String, device: String, in transaction: any POSTransaction) throws -> Bill {
        guard let bill = try transaction.bill(id: billId), bill.deviceId == device else { throw POSError.billNotFound(billId) }
        return bill
    }

    /// One write transaction for a use case that may carry an idempotency key. In order: a key
    /// seen in the last 24 hours replays its recorded answer (or throws ``IdempotencyKeyReused``
    /// for a different request); else `body` runs — it reads what it works on itself, such as a
    /// bill the caller must reach (else `billNotFound`, nothing recorded) — and its outcome, or a
    /// state conflict it throws, is recorded under the key in the same transaction, so the record
    /// survives exactly when the effect does. The key comes before anything `body` reads, so a
    /// retry replays what was done even when the bill has since gone to another device or the
    /// change removed what it named (a retirement). Expired keys are deleted apart, by
    /// `deleteExpiredIdempotencyRecords`.
    func write<Outcome: Sendable>(
        device: String, durability: Durability, idempotency: IdempotencyKey<Outcome>?,
        _ body: @escaping @Sendable (any POSTransaction) throws -> Outcome
    ) async throws -> IdempotentOutcome<Outcome> {
        // A recorded state conflict commits its record, and is thrown after the commit.
        let result: Swift.Result<IdempotentOutcome<Outcome>, any Error> = try await store.write(durability: durability) { transaction in
            guard let idempotency else { return .success(.performed(try body(transaction), recorded: nil)) }
            return try idempotency.perform(device: device, now: timestamp(), in: transaction) { try body(transaction) }
        }
        return try result.get()
    }

    /// The outcome of a use case run without a key.
    func performed<Outcome>(_ outcome: IdempotentOutcome<Outcome>) throws -> Outcome {
        try outcome.performedWithoutKey()
    }

    /// The bill `device` goes on with after paying: its empty open bill selected last, selected
    /// now (as resuming does, so it is the current bill), or else a new bill. Taking up an empty
    /// bill rather than opening another keeps a till that pays one table after another from
    /// piling up empty open bills. An empty bill opened under another tax rate or currency (the
    /// server's settings changed since) is left alone: the next customer pays today's rate.
    /// (Voiding needs no such rule: it opens a bill only when the device has no unsettled bill
    /// left, so none can be empty.)
    func nextBill(device: String, in transaction: any POSTransaction) throws -> Bill {
        if let empty = try transaction.emptyOpenBill(deviceId: device), empty.taxRate == taxRate, empty.currency == currency {
            let date = timestamp()
            return try change(empty, in: transaction) { bill, _ in try bill.resume(at: date) }
        }
        let bill = try makeBill(device: device)
        try transaction.insert(bill)
        return bill
    }

    func makeBill(device: String, label: BillLabel? = nil) throws -> Bill {
        try Bill(
            id: Identifier.make(prefix: "bill_"), currency: currency, taxRate: taxRate, createdAt: timestamp(), deviceId: device,
            label: label?.text)
    }

    func timestamp() -> Date {
        now().roundedToMilliseconds
    }
}
