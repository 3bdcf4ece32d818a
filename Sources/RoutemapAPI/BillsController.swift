import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON
import RoutemapNavigation

/// The bill endpoints. Each change answers with the bill and the steps that update the screens
/// showing it.
struct BillsController {
    let api: API

    private var till: Till { api.till }
    private var navigator: Navigator<ScreenContext> { api.navigator }

    func register(on router: inout Router) {
        router.post("/v1/bills", use: createBill)
        router.get("/v1/bills/{billId}", use: getBill)
        router.post("/v1/bills/{billId}/items", use: addItem)
        router.patch("/v1/bills/{billId}/items/{lineId}", use: setQuantity)
        router.delete("/v1/bills/{billId}/items/{lineId}", use: removeLine)
        router.post("/v1/bills/{billId}/checkout", use: checkout)
        router.post("/v1/bills/{billId}/checkout/cancel", use: cancelCheckout)
        router.post("/v1/bills/{billId}/pay", use: pay)
    }

    @Sendable func createBill(_ request: Request) throws -> Response {
        let client = try supported(request, [POSRoute.bill], [.replace])
        _ = try RequestBody(request, allowed: [], emptyAllowed: true)
        let bill = try till.openBill()
        return .json(
            try billAndSteps(bill, [replaceBill(bill, client)]), status: .created,
            headers: ["Location": "/v1/bills/\(bill.id)"])
    }

    @Sendable func getBill(_ request: Request) throws -> Response {
        .json(try till.bill(id: try request.parameter("billId")).json)
    }

    @Sendable func addItem(_ request: Request) throws -> Response {
        let client = try supported(request, [POSRoute.bill], [.replace])
        let body = try RequestBody(request, allowed: ["menuItemId", "quantity"])
        let menuItemId = try body.string("menuItemId")
        let quantity = try body.integer("quantity", in: quantityRange)
        let bill = try till.addItem(billId: try request.parameter("billId"), menuItemId: menuItemId, quantity: Int(quantity))
        return .json(try billAndSteps(bill, [replaceBill(bill, client)]))
    }

    @Sendable func setQuantity(_ request: Request) throws -> Response {
        let client = try supported(request, [POSRoute.bill], [.replace])
        let body = try RequestBody(request, allowed: ["quantity"])
        let quantity = try body.integer("quantity", in: quantityRange)
        let bill = try till.setQuantity(
            billId: try request.parameter("billId"), lineId: try request.parameter("lineId"), quantity: Int(quantity))
        return .json(try billAndSteps(bill, [replaceBill(bill, client)]))
    }

    @Sendable func removeLine(_ request: Request) throws -> Response {
        let client = try supported(request, [POSRoute.bill], [.replace])
        let bill = try till.removeLine(billId: try request.parameter("billId"), lineId: try request.parameter("lineId"))
        return .json(try billAndSteps(bill, [replaceBill(bill, client)]))
    }

    @Sendable func checkout(_ request: Request) throws -> Response {
        let client = try supported(request, [POSRoute.bill, POSRoute.orderSummary], [.replace, .present])
        _ = try RequestBody(request, allowed: [], emptyAllowed: true)
        let bill = try till.checkout(billId: try request.parameter("billId"))
        let summary = try walk(from: .posBill, to: POSRoute.orderSummary, bill, client)
        return .json(try billAndSteps(bill, [replaceBill(bill, client)] + summary))
    }

    @Sendable func cancelCheckout(_ request: Request) throws -> Response {
        let client = try supported(request, [POSRoute.bill], [.dismiss, .replace])
        _ = try RequestBody(request, allowed: [], emptyAllowed: true)
        let bill = try till.cancelCheckout(billId: try request.parameter("billId"))
        let back = try walk(from: .posOrderSummary, to: POSRoute.bill, bill, client)
        return .json(try billAndSteps(bill, back + [replaceBill(bill, client)]))
    }

    @Sendable func pay(_ request: Request) throws -> Response {
        let client = try supported(request, [POSRoute.bill], [.dismiss, .replace])
        let body = try RequestBody(request, allowed: ["method", "amountMinor", "tenderedMinor"])
        let payment = PaymentRequest(
            method: try body.choice("method", of: PaymentMethod.self),
            amountMinor: try body.integer("amountMinor", in: moneyRange),
            tenderedMinor: try body.optionalInteger("tenderedMinor", in: moneyRange))
        let outcome = try till.pay(billId: try request.parameter("billId"), payment)
        let steps = try walk(from: .posOrderSummary, to: POSRoute.bill, outcome.nextBill, client) + [replaceBill(outcome.nextBill, client)]
        return .json([
            "payment": outcome.payment.json,
            "bill": outcome.bill.json,
            "nextBill": outcome.nextBill.json,
            "navigation": steps.json,
        ])
    }

    // MARK: Helpers

    private var quantityRange: ClosedRange<Int64> { 1...Int64(BillLimits().maxQuantityPerLine) }
    /// Amounts a till can take: up to 10^13 minor units, far from `Int64` overflow in any sum.
    private var moneyRange: ClosedRange<Int64> { 0...10_000_000_000_000 }

    private func inputs(_ bill: Bill) -> RouteInputs { [POSInput.billId: bill.id] }

    private func replaceBill(_ bill: Bill, _ client: ClientCapabilities) throws -> Step {
        try navigator.replace(POSRoute.bill, inputs: inputs(bill), context: api.screenContext(bill), client: client)
    }

    /// The client's capabilities, once checked to cover what the answer will hold: a client that
    /// could not follow it gets 422 before anything changes.
    private func supported(_ request: Request, _ routes: [RouteID], _ operations: Set<StepOperation>) throws -> ClientCapabilities {
        let client = try request.clientCapabilities()
        try navigator.verify(client, canShow: routes, performing: operations)
        return client
    }

    /// The engine's steps from a fixed POS stack to `target`, for `bill`.
    private func walk(from stack: NavigationStack, to target: RouteID, _ bill: Bill, _ client: ClientCapabilities) throws -> [Step] {
        try navigator.navigate(
            NavigationRequest(from: stack, target: target, input: inputs(bill)), context: api.screenContext(bill), client: client
        ).steps
    }

    private func billAndSteps(_ bill: Bill, _ steps: [Step]) throws -> JSON {
        ["bill": bill.json, "navigation": steps.json]
    }
}
