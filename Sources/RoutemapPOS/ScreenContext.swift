import RoutemapDomain
import RoutemapJSON

/// What the POS payload builders get with each request: the calling device's bills and cash
/// drawer, read-only (a builder cannot change data), the cached menu, and bills (or the drawer)
/// the endpoint already holds (so a builder does not read them again).
package struct ScreenContext: Sendable {
    /// The calling device's bills; builders see no other device's.
    let bills: BillReader
    let menu: MenuCatalog
    /// The shop's currency (the drawer screen's amounts).
    let currency: Currency
    /// The tips the order summary offers, as percentages of what is due (``Till/suggestedTipPercents``).
    let suggestedTipPercents: [Int]
    /// The device's bills among those the endpoint passed: one or two, so a list searched in
    /// order costs less than hashing into a dictionary.
    let knownBills: [Bill]
    /// `knownBills` encoded once each: an answer holds a bill both as data and in its screen.
    private let encodedBills: [JSONFragment]
    /// The drawer as the endpoint that changed it left it (its answer is built in the change's
    /// transaction, where a read would not see it yet), else `nil`: read when a screen needs it.
    private let knownDrawer: DrawerState?

    /// The context of a request of `device` on `till`: its bills and the shop's choices come
    /// from the till, so no builder sees a default the shop did not choose.
    init(till: Till, device: String, menu: MenuCatalog, known: [Bill] = [], drawer: DrawerState? = nil) {
        self.bills = till.reader(for: device)
        self.menu = menu
        currency = till.currency
        knownDrawer = drawer
        self.suggestedTipPercents = till.suggestedTipPercents
        knownBills = known.filter { $0.deviceId == device }
        encodedBills = knownBills.map { JSONFragment($0.json) }
    }

    /// `bill.json`, encoded once per request when the endpoint passed the bill.
    func json(of bill: Bill) -> JSON {
        // A bill's id and version name one state of it: no need to compare the lines.
        guard let index = knownBills.lastIndex(where: { $0.id == bill.id }), knownBills[index].version == bill.version else {
            return bill.json
        }
        return .fragment(encodedBills[index])
    }

    /// The device's bill with `id`, from what the endpoint loaded or else from the store.
    func bill(id: String) throws -> Bill {
        // The last one passed wins, as it did when they were keyed by id.
        if let bill = knownBills.last(where: { $0.id == id }) { return bill }
        return try bills.bill(id: id)
    }

    /// The device's cash drawer: as the endpoint passed it, else as the till has it now.
    func drawer() throws -> DrawerState {
        try knownDrawer ?? bills.drawerState()
    }
}
