import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON
import RoutemapNavigation

/// The bill endpoints. Each change answers with the bill and the steps that update the screens
/// showing it. Every bill belongs to the device that opened it; any other device gets 404.
///
/// Opening a bill, checking out and paying take an `Idempotency-Key` (required to pay): the
/// answer is recorded with the effect, and a retry gets it again instead of a second effect.
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
        let device = try request.device()
        let client = try supported(request, [POSRoute.bill], [.replace])
        let body = try RequestBody(request, allowed: [], emptyAllowed: true)
        let key = try api.idempotency.key(of: request, required: false)
        let answer = { @Sendable (bill: Bill) throws -> Response in
            .json(
                try billAndSteps(bill, device) { [try replaceBill(bill, $0, client)] }, status: .created,
                headers: ["Location": "/v1/bills/\(bill.id)"])
        }
        return try api.idempotency.whileClaimed(key, device: device) {
            try respond(
                try till.openBill(device: device, idempotency: record(key, request, body, device, answer)), answer)
        }
    }

    @Sendable func getBill(_ request: Request) throws -> Response {
        .json(try till.bill(id: try request.parameter("billId"), device: try request.device()).json)
    }

    @Sendable func addItem(_ request: Request) throws -> Response {
        let device = try request.device()
        let client = try supported(request, [POSRoute.bill], [.replace])
        let body = try RequestBody(request, allowed: ["menuItemId", "quantity"])
        let menuItemId = try body.string("menuItemId")
        let quantity = try body.integer("quantity", in: quantityRange)
        let bill = try till.addItem(
            billId: try request.parameter("billId"), device: device, menuItemId: menuItemId, quantity: Int(quantity))
        return .json(try billAndSteps(bill, device) { [try replaceBill(bill, $0, client)] })
    }

    @Sendable func setQuantity(_ request: Request) throws -> Response {
        let device = try request.device()
        let client = try supported(request, [POSRoute.bill], [.replace])
        let body = try RequestBody(request, allowed: ["quantity"])
        let quantity = try body.integer("quantity", in: quantityRange)
        let bill = try till.setQuantity(
            billId: try request.parameter("billId"), device: device, lineId: try request.parameter("lineId"), quantity: Int(quantity))
        return .json(try billAndSteps(bill, device) { [try replaceBill(bill, $0, client)] })
    }

    @Sendable func removeLine(_ request: Request) throws -> Response {
        let device = try request.device()
        let client = try supported(request, [POSRoute.bill], [.replace])
        let bill = try till.removeLine(billId: try request.parameter("billId"), device: device, lineId: try request.parameter("lineId"))
        return .json(try billAndSteps(bill, device) { [try replaceBill(bill, $0, client)] })
    }

    @Sendable func checkout(_ request: Request) throws -> Response {
        let device = try request.device()
        let client = try supported(request, [POSRoute.bill, POSRoute.orderSummary], [.replace, .present])
        let body = try RequestBody(request, allowed: [], emptyAllowed: true)
        let billId = try request.parameter("billId")
        let key = try api.idempotency.key(of: request, required: false)
        let answer = { @Sendable (bill: Bill) throws -> Response in
            .json(
                try billAndSteps(bill, device) { context in
                    [try replaceBill(bill, context, client)] + (try walk(from: .posBill(bill.id), to: POSRoute.orderSummary, bill, context, client))
                })
        }
        return try api.idempotency.whileClaimed(key, device: device) {
            try respond(try till.checkout(billId: billId, device: device, idempotency: record(key, request, body, device, answer)), answer)
        }
    }

    @Sendable func cancelCheckout(_ request: Request) throws -> Response {
        let device = try request.device()
        let client = try supported(request, [POSRoute.bill], [.dismiss, .replace])
        _ = try RequestBody(request, allowed: [], emptyAllowed: true)
        let bill = try till.cancelCheckout(billId: try request.parameter("billId"), device: device)
        return .json(
            try billAndSteps(bill, device) { context in
                try walk(from: .posOrderSummary(bill.id), to: POSRoute.bill, bill, context, client) + [try replaceBill(bill, context, client)]
            })
    }

    @Sendable func pay(_ request: Request) throws -> Response {
        let device = try request.device()
        let client = try supported(request, [POSRoute.bill], [.dismiss, .replace])
        let body = try RequestBody(request, allowed: ["method", "amountMinor", "tenderedMinor"])
        let payment = PaymentRequest(
            method: try body.choice("method", of: PaymentMethod.self),
            amountMinor: try body.integer("amountMinor", in: moneyRange),
            tenderedMinor: try body.optionalInteger("tenderedMinor", in: moneyRange))
        let key = try api.idempotency.key(of: request, required: true)
        let billId = try request.parameter("billId")
        let answer = { @Sendable (outcome: PaymentOutcome) throws -> Response in
            let context = api.screenContext(device, outcome.nextBill)
            // The bill screen shows the paid bill: the walk to the next one replaces it.
            let steps = try walk(from: .posOrderSummary(outcome.bill.id), to: POSRoute.bill, outcome.nextBill, context, client)
            return .json([
                "payment": outcome.payment.json,
                "bill": outcome.bill.json,
                "nextBill": context.json(of: outcome.nextBill),
                "navigation": steps.json,
            ])
        }
        return try api.idempotency.whileClaimed(key, device: device) {
            try respond(try till.pay(billId: billId, device: device, payment, idempotency: record(key, request, body, device, answer)), answer)
        }
    }

    // MARK: Helpers

    private var quantityRange: ClosedRange<Int64> { 1...Int64(BillLimits().maxQuantityPerLine) }
    /// Amounts a till can take: up to 10^13 minor units, far from `Int64` overflow in any sum.
    private var moneyRange: ClosedRange<Int64> { 0...10_000_000_000_000 }

    /// How to record the answer under `key` (none without a key): a success as `answer` builds
    /// it, a state conflict as its problem.
    private func record<Outcome>(
        _ key: String?, _ request: Request, _ body: RequestBody, _ device: String, _ answer: @escaping @Sendable (Outcome) throws -> Response
    ) -> IdempotencyKey<Outcome>? {
        guard let key else { return nil }
        return IdempotencyKey(key: key, fingerprint: Idempotency.fingerprint(of: request, body: body)) { outcome in
            let response: Response
            switch outcome {
            case .success(let value): response = try answer(value)
            case .failure(let error): response = Response(error.problem)
            }
            return (response.status.code, response.body, response.headers["Location"])
        }
    }

    /// The answer for what the use case did: built now, or the one recorded for its key.
    private func respond<Outcome>(_ outcome: IdempotentOutcome<Outcome>, _ answer: (Outcome) throws -> Response) throws -> Response {
        switch outcome {
        case .performed(_, let recorded?): Idempotency.first(recorded)
        case .performed(let value, nil): try answer(value)
        case .replayed(let recorded): Idempotency.replay(recorded)
        }
    }

    /// The client's capabilities, once checked to cover what the answer will hold: a client that
    /// could not follow it gets 422 before anything changes.
    private func supported(_ request: Request, _ routes: [RouteID], _ operations: Set<StepOperation>) throws -> ClientCapabilities {
        let client = try request.clientCapabilities()
        try navigator.verify(client, canShow: routes, performing: operations)
        return client
    }

    private func inputs(_ bill: Bill) -> RouteInputs { [POSInput.billId: bill.id] }

    private func replaceBill(_ bill: Bill, _ context: ScreenContext, _ client: ClientCapabilities) throws -> Step {
        try navigator.replace(POSRoute.bill, inputs: inputs(bill), context: context, client: client)
    }

    /// The engine's steps from a fixed POS stack to `target`, for `bill`.
    private func walk(
        from stack: NavigationStack, to target: RouteID, _ bill: Bill, _ context: ScreenContext, _ client: ClientCapabilities
    ) throws -> [Step] {
        try navigator.navigate(NavigationRequest(from: stack, target: target, input: inputs(bill)), context: context, client: client).steps
    }

    /// `{bill, navigation}`: the steps as `steps` builds them with the request's screen context,
    /// which encodes the bill once for both places it appears (the data and the bill screen).
    private func billAndSteps(_ bill: Bill, _ device: String, _ steps: (ScreenContext) throws -> [Step]) throws -> JSON {
        let context = api.screenContext(device, bill)
        return ["bill": context.json(of: bill), "navigation": try steps(context).json]
    }
}
