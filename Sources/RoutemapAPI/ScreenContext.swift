import RoutemapDomain

/// What the POS payload builders get with each request: the till to read from, the calling
/// device (builders see only its bills), the cached menu, and bills the endpoint already holds
/// (so a builder does not read them again).
struct ScreenContext: Sendable {
    let till: Till
    let device: String
    let menu: MenuCatalog
    var knownBills: [String: Bill] = [:]

    init(till: Till, device: String, menu: MenuCatalog, bills: [Bill] = []) {
        self.till = till
        self.device = device
        self.menu = menu
        for bill in bills where bill.deviceId == device { knownBills[bill.id] = bill }
    }

    /// The device's bill with `id`, from what the endpoint loaded or else from the store.
    func bill(id: String) throws -> Bill {
        if let bill = knownBills[id] { return bill }
        return try till.bill(id: id, device: device)
    }
}
