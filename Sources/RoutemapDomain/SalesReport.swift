/// What the till took in a period and what it still holds: the end-of-day ("Z") report a
/// manager counts the drawer against, and the takings of a day for the owner.
///
/// Built by ``Till/salesReport(_:caller:)`` from the ``SalesFigures`` a store sums up in one
/// read snapshot, so its numbers agree with each other. Money is in minor units of
/// ``currency``; every sum is exact (one that would not fit in 64 bits is an
/// ``InvariantViolation``, never a wrapped number).
public struct SalesReport: Sendable, Hashable {
    public let period: SalesPeriod
    /// The server's currency (the currency of the bills it makes).
    public let currency: Currency
    /// The payments made in the period.
    public let payments: Payments
    /// The bills those payments paid, and what was on them.
    public let sales: Sales
    /// The bills voided in the period.
    public let voids: Voids
    /// The refunds made in the period (by their own time, whenever their bills were paid), in
    /// all and by their payment's method. Cash refunds came out of the drawer: it holds the cash
    /// payments' amount less ``refunds``' cash amount, plus its float.
    public let refunds: ByMethod
    /// The tips the period's payments carried, in all and by method (`count`: the payments
    /// with a tip): the staff's money, not sales (not in ``payments``' amounts nor in
    /// ``sales``). Cash tips are in the drawer (see ``Takings``); card tips came in with the
    /// card payments.
    public let tips: ByMethod
    /// The bills not yet settled when the report was read, on every device (not period-bound).
    public let unsettledNow: Unsettled

    /// The payments of the period, in all and by method.
    public struct Payments: Sendable, Hashable {
        /// How many payments.
        public let count: Int
        /// What they took: the sales of the period, `card.amountMinor + cash.amountMinor`.
        public let amountMinor: Int64
        public let card: Takings
        public let cash: Takings
    }

    /// The payments of one method. ``amountMinor`` is what they took for the bills (the sales,
    /// tips left out). For cash, the drawer gained ``tenderedMinor`` (handed over) less
    /// ``changeMinor`` (given back), which is ``amountMinor`` plus the cash tips
    /// (``Tips/cash``); for card, what was tendered is the amount and tip, and there is no change.
    public struct Takings: Sendable, Hashable {
        public let count: Int
        public let amountMinor: Int64
        public let tenderedMinor: Int64
        public let changeMinor: Int64

        public init(count: Int, amountMinor: Int64, tenderedMinor: Int64, changeMinor: Int64) {
            self.count = count
            self.amountMinor = amountMinor
            self.tenderedMinor = tenderedMinor
            self.changeMinor = changeMinor
        }

        /// No payment.
        public static let zero = Takings(count: 0, amountMinor: 0, tenderedMinor: 0, changeMinor: 0)
    }

    /// The bills paid in the period (a bill is in the period its payment is): their stored
    /// totals, as their own answers show them, summed, and what was sold on them by menu item.
    ///
    /// Gross, then net: ``subtotalMinor`` is what the lines came to (the items' amounts sum to
    /// it), ``discounts`` what the bills' discounts took off it, ``discountedSubtotalMinor`` what
    /// was left (the tax was on it), and ``totalMinor`` that and the tax: what the payments took.
    public struct Sales: Sendable, Hashable {
        public let bills: Int
        /// Σ of the bills' subtotals: their lines, before discounts (gross).
        public let subtotalMinor: Int64
        /// The discounts given on these bills: how many took something off, and Σ of what they took.
        public let discounts: MethodTotals
        public let taxMinor: Int64
        /// `discountedSubtotalMinor + taxMinor`.
        public let totalMinor: Int64
        /// By menu item, the largest amount first (then by id, in byte order).
        public let items: [ItemSales]

        public init(
            bills: Int, subtotalMinor: Int64, discounts: MethodTotals = .zero, taxMinor: Int64, totalMinor: Int64, items: [ItemSales]
        ) {
            self.bills = bills
            self.subtotalMinor = subtotalMinor
            self.discounts = discounts
            self.taxMinor = taxMinor
            self.totalMinor = totalMinor
            self.items = items
        }

        /// `subtotalMinor - discounts.amountMinor` (net): never negative, as no bill's discount
        /// takes off more than its subtotal.
        public var discountedSubtotalMinor: Int64 { subtotalMinor - discounts.amountMinor }
    }

    /// One menu item's sales: the quantity on the paid bills' lines and their amount before tax.
    public struct ItemSales: Sendable, Hashable {
        public let menuItemId: String
        /// The name on the lines (the latest paid line's, should the item have been renamed).
        public let name: String
        public let quantity: Int
        /// Σ of the lines' `quantity × unitPriceMinor`, before tax.
        public let amountMinor: Int64

        public init(menuItemId: String, name: String, quantity: Int, amountMinor: Int64) {
            self.menuItemId = menuItemId
            self.name = name
            self.quantity = quantity
            self.amountMinor = amountMinor
        }
    }

    /// Refunds or tips of the period, in all and by method.
    public struct ByMethod: Sendable, Hashable {
        /// `card.count + cash.count`.
        public let count: Int
        /// `card.amountMinor + cash.amountMinor`.
        public let amountMinor: Int64
        public let card: MethodTotals
        public let cash: MethodTotals

        /// `card` and `cash` summed; throws ``InvariantViolation`` naming `what` if a sum does
        /// not fit in 64 bits.
        public init(card: MethodTotals, cash: MethodTotals, _ what: String) throws(InvariantViolation) {
            count = try SalesReport.sum(card.count, cash.count, "the number of \(what)")
            amountMinor = try SalesReport.sum(card.amountMinor, cash.amountMinor, "the \(what)' amounts")
            self.card = card
            self.cash = cash
        }
    }

    /// The refunds that went back by one method, or the tips that came in by one, or the
    /// discounts given (``Sales/discounts``): how many, and what they sum to.
    public struct MethodTotals: Sendable, Hashable {
        public let count: Int
        public let amountMinor: Int64

        public init(count: Int, amountMinor: Int64) {
            self.count = count
            self.amountMinor = amountMinor
        }

        /// None.
        public static let zero = MethodTotals(count: 0, amountMinor: 0)
    }

    /// The bills voided in the period and the total they held.
    public struct Voids: Sendable, Hashable {
        public let count: Int
        public let totalMinor: Int64

        public init(count: Int, totalMinor: Int64) {
            self.count = count
            self.totalMinor = totalMinor
        }
    }

    /// The bills still open or checked out; what a checked-out bill has due is money expected
    /// but not yet taken.
    public struct Unsettled: Sendable, Hashable {
        public let open: Int
        public let checkedOut: Int
        /// Σ of the checked-out bills' ``Bill/dueMinor``: their totals, less what partial
        /// payments of split bills already took (which the takings count).
        public let checkedOutTotalMinor: Int64

        public init(open: Int, checkedOut: Int, checkedOutTotalMinor: Int64) {
            self.open = open
            self.checkedOut = checkedOut
            self.checkedOutTotalMinor = checkedOutTotalMinor
        }
    }

    /// The report of `period` in `currency` from a store's `figures`: the payments summed over
    /// both methods, the items in report order. Throws ``InvariantViolation`` if a sum does not
    /// fit in 64 bits.
    public init(period: SalesPeriod, currency: Currency, figures: SalesFigures) throws(InvariantViolation) {
        self.period = period
        self.currency = currency
        payments = Payments(
            count: try Self.sum(figures.card.count, figures.cash.count, "the number of payments"),
            amountMinor: try Self.sum(figures.card.amountMinor, figures.cash.amountMinor, "the payments' amounts"),
            card: figures.card, cash: figures.cash)
        let items = figures.sales.items.sorted { first, second in
            first.amountMinor != second.amountMinor
                ? first.amountMinor > second.amountMinor
                : first.menuItemId.utf8.lexicographicallyPrecedes(second.menuItemId.utf8)
        }
        sales = Sales(
            bills: figures.sales.bills, subtotalMinor: figures.sales.subtotalMinor, discounts: figures.sales.discounts,
            taxMinor: figures.sales.taxMinor, totalMinor: figures.sales.totalMinor, items: items)
        voids = figures.voids
        refunds = try ByMethod(card: figures.cardRefunds, cash: figures.cashRefunds, "refunds")
        tips = try ByMethod(card: figures.cardTips, cash: figures.cashTips, "tips")
        unsettledNow = figures.unsettled
    }

    /// `first + second`, or an ``InvariantViolation`` naming `what` when it does not fit.
    package static func sum<N: FixedWidthInteger>(_ first: N, _ second: N, _ what: @autoclosure () -> String) throws(InvariantViolation) -> N {
        let (sum, overflow) = first.addingReportingOverflow(second)
        guard !overflow else { throw InvariantViolation("\(what()) do not fit in 64 bits: \(first) + \(second)") }
        return sum
    }
}

/// What a store sums up for a ``SalesReport``, all read in one snapshot: the payments of a
/// period by method, the bills they paid (totals and lines by menu item, in any order), the
/// bills voided in it, its refunds by their payments' method, its tips by method, and the
/// unsettled bills now. Each
/// sum is exact or the read fails.
public struct SalesFigures: Sendable, Hashable {
    public var card: SalesReport.Takings
    public var cash: SalesReport.Takings
    public var sales: SalesReport.Sales
    public var voids: SalesReport.Voids
    public var unsettled: SalesReport.Unsettled
    /// The refunds of the period that went back to cards.
    public var cardRefunds: SalesReport.MethodTotals
    /// The refunds of the period paid out of the drawer.
    public var cashRefunds: SalesReport.MethodTotals
    /// The tips of the period's card payments (`count`: the payments with a tip above 0).
    public var cardTips: SalesReport.MethodTotals
    /// The tips of the period's cash payments.
    public var cashTips: SalesReport.MethodTotals

    public init(
        card: SalesReport.Takings = .zero, cash: SalesReport.Takings = .zero,
        sales: SalesReport.Sales = SalesReport.Sales(bills: 0, subtotalMinor: 0, taxMinor: 0, totalMinor: 0, items: []),
        voids: SalesReport.Voids = SalesReport.Voids(count: 0, totalMinor: 0),
        unsettled: SalesReport.Unsettled = SalesReport.Unsettled(open: 0, checkedOut: 0, checkedOutTotalMinor: 0),
        cardRefunds: SalesReport.MethodTotals = .zero, cashRefunds: SalesReport.MethodTotals = .zero,
        cardTips: SalesReport.MethodTotals = .zero, cashTips: SalesReport.MethodTotals = .zero
    ) {
        self.card = card
        self.cash = cash
        self.sales = sales
        self.voids = voids
        self.unsettled = unsettled
        self.cardRefunds = cardRefunds
        self.cashRefunds = cashRefunds
        self.cardTips = cardTips
        self.cashTips = cashTips
    }

    /// The payments made by `method`: ``card`` or ``cash``.
    public subscript(payments method: PaymentMethod) -> SalesReport.Takings {
        get { self[keyPath: Self.member(method, card: \.card, cash: \.cash)] }
        set { self[keyPath: Self.member(method, card: \.card, cash: \.cash)] = newValue }
    }

    /// The refunds that went back by `method`: ``cardRefunds`` or ``cashRefunds``.
    public subscript(refunds method: PaymentMethod) -> SalesReport.MethodTotals {
        get { self[keyPath: Self.member(method, card: \.cardRefunds, cash: \.cashRefunds)] }
        set { self[keyPath: Self.member(method, card: \.cardRefunds, cash: \.cashRefunds)] = newValue }
    }

    /// The tips that came in by `method`: ``cardTips`` or ``cashTips``.
    public subscript(tips method: PaymentMethod) -> SalesReport.MethodTotals {
        get { self[keyPath: Self.member(method, card: \.cardTips, cash: \.cashTips)] }
        set { self[keyPath: Self.member(method, card: \.cardTips, cash: \.cashTips)] = newValue }
    }

    /// `card` or `cash`, by `method`: the one switch over the methods for the three subscripts.
    private static func member<T>(
        _ method: PaymentMethod, card: WritableKeyPath<SalesFigures, T>, cash: WritableKeyPath<SalesFigures, T>
    ) -> WritableKeyPath<SalesFigures, T> {
        switch method {
        case .card: card
        case .cash: cash
        }
    }
}

extension Till {
    /// The sales report of `period`, for a manager (`managerOnly` for a till): read in one
    /// snapshot of the store, changing nothing.
    public func salesReport(_ period: SalesPeriod, caller: BillCaller) throws -> SalesReport {
        guard caller.role == .manager else { throw POSError.managerOnly }
        return try SalesReport(period: period, currency: currency, figures: try store.salesFigures(in: period))
    }
}
