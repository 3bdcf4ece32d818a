import RoutemapDomain
import RoutemapJSON

/// What the POS payload builders get with each request: the till to read from, the calling
/// device (builders see only its bills), the cached menu, and bills the endpoint already holds
/// (so a builder does not read them again).
struct ScreenContext: Sendable {
    let till: Till
    let device: String
    let menu: MenuCatalog
    /// The device's bills among those the endpoint passed: one or two, so a list searched in
    /// order costs less than hashing into a dictionary.
    let knownBills: [Bill]
    /// `knownBills` encoded once each: an answer holds a bill both as data and in its screen.
    private let encodedBills: [JSONFragment]

    init(till: Till, device: String, menu: MenuCatalog, bills: [Bill] = []) {
        self.till = till
        self.device = device
        self.menu = menu
        knownBills = bills.filter { $0.deviceId == device }
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
        return try till.bill(id: id, device: device)
    }
}
