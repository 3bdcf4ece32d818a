import RoutemapAPI
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON
import RoutemapNavigation

/// `GET /v1/launch`: the whole initial UI for the current bill, with the order summary on top
/// when that bill is checked out, and the client's stack after it.
///
/// The answer depends only on the bill (its id and version; the bill belongs to the device),
/// the menu's version and the client's capabilities (the registry changes only with a restart).
/// So it is built once per bill version, menu version and client kind, then sent from ``answers``.
struct LaunchController {
    struct AnswerKey: Hashable, Sendable {
        let billId: String
        let billVersion: Int
        /// The store's history: a version may be made again with other content after a failover.
        let storeHistory: Int
        let menuGeneration: Int
        let client: ClientCapabilities
    }

    let till: Till
    let menu: LiveMenu
    let navigator: Navigator<ScreenContext>
    /// About 3.5 KiB each: at most 3.5 MiB.
    let answers = AnswerCache<AnswerKey, PreparedResponse>(capacity: 1024)

    /// Answers at once from the device's current bill; only a device's first launch, which
    /// opens its first bill (a write), waits for the commit.
    @Sendable func launch(_ request: Request, _ device: AuthenticatedDevice) throws -> Router<APIContext>.Reply {
        let client = try request.clientCapabilities()
        if let bill = try till.reader(for: device.id).currentBill() {
            return .now(try response(bill, device: device, client: client))
        }
        return .later {
            try response(try await till.currentBill(device: device.id), device: device, client: client)
        }
    }

    /// The launch answer for `bill`, from the cache when this bill version was answered before.
    private func response(_ bill: Bill, device: AuthenticatedDevice, client: ClientCapabilities) throws -> Response {
        let menu = self.menu.current
        let key = AnswerKey(
            billId: bill.id, billVersion: bill.version, storeHistory: till.storeHistory, menuGeneration: menu.generation, client: client)
        return try answers.answer(for: key) {
            PreparedResponse(.json(try answer(bill, menu: menu, device: device, client: client)))
        }.response
    }

    /// The whole launch answer for `bill`.
    private func answer(_ bill: Bill, menu: MenuCatalog, device: AuthenticatedDevice, client: ClientCapabilities) throws -> JSON {
        let context = ScreenContext(till: till, device: device.id, menu: menu, known: [bill])
        let inputs = [POSInput.billId: bill.id]
        var navigation = try navigator.launch(inputs: inputs, context: context, client: client)
        if bill.status == .checkedOut {
            let summary = try navigator.navigate(
                NavigationRequest(from: navigation.stack, target: POSRoute.orderSummary, input: inputs), context: context,
                client: client, animated: false)
            navigation = Navigation(steps: navigation.steps + summary.steps, stack: summary.stack)
        }
        return navigation.json
    }
}
