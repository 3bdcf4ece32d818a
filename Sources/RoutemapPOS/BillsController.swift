import RoutemapAPI
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON
import RoutemapNavigation

/// The bill endpoints. Each change answers with the bill and the steps that update the screens
/// showing it. Every bill belongs to the device that opened it (or that a manager transferred it
/// to); any other till gets 404. A manager may also read, void and transfer any device's bill
/// (`BillsController+Managing.swift`).
///
/// Every change takes an `Idempotency-Key` (required to pay): the answer is recorded with the
/// effect, and a retry gets it again instead of a second effect.
struct BillsController {
    let app: POSApp

    var till: Till { app.till }
    var navigator: Navigator<ScreenContext> { app.navigator }

    func register(on router: inout Router<APIContext>) {
        router.device(.POST, "/v1/bills", createBill)
        router.device(.GET, "/v1/bills/{billId}", reading: till, getBill)
        router.device(.POST, "/v1/bills/{billId}/items", addItem)
        router.device(.PATCH, "/v1/bills/{billId}/items/{lineId}", changeLine)
        router.device(.DELETE, "/v1/bills/{billId}/items/{lineId}", removeLine)
        router.device(.POST, "/v1/bills/{billId}/checkout", checkout)
        router.device(.POST, "/v1/bills/{billId}/checkout/cancel", cancelCheckout)
        router.device(.POST, "/v1/bills/{billId}/pay", pay)
        registerOpenOrders(on: &router)
        registerManaging(on: &router)
        registerRefunds(on: &router)
        registerReceipts(on: &router)
        registerDiscount(on: &router)
        registerLabel(on: &router)
    }

    /// An empty body, `{}`, or `{"label": …}` naming the new bill (`null`, `""` or blank: no
    /// label, the request an empty body is).
    @Sendable func createBill(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let client = try supported(request, [POSRoute.bill], [.replace])
        let body = try RequestBody(request, allowed: ["label"], emptyAllowed: true)
        let label = try BillLabel.parse(try body.clearableString("label") ?? "")
        // Keyed by the label it makes: no label is one request however it is spelled.
        let keyed = label.map { body.with("label", .string($0.text)) } ?? body.without("label")
        return try await app.idempotency.perform(request, body: keyed, device: device) { key in
            try await till.openBill(device: device.id, label: label?.text, idempotency: key)
        } answer: { bill in
            .json(
                try billAndSteps(bill, device) { [try replaceBill(bill, $0, client)] }, status: .created,
                headers: ["Location": "/v1/bills/\(bill.id)"])
        }
    }

    /// The bill (with its `payments`); a paid bill also with `payment`, the one that completed it
    /// (its only one unless split), so an app that lost the answer to `pay` can read it back.
    /// A till reads its own bills only; a manager any device's.
    @Sendable func getBill(_ request: Request, _ device: AuthenticatedDevice) throws -> Response {
        let bill = try till.bill(id: try request.parameter("billId"), caller: device.caller)
        guard let payment = bill.completingPayment, case .object(var object) = bill.json else {
            return .json(bill.json)
        }
        object.append("payment", payment.json)
        return .json(.object(object))
    }

    /// An add with `modifiers` (even `[]`) is the modifier sheet's "Add": its answer dismisses the
    /// sheet, then shows the bill; without, the menu's one tap: the bill is replaced.
    ///
    /// The capabilities are read once: what every add needs (the bill, `replace`) is checked
    /// before the body, as for the other changes; `dismiss`, which only the sheet's answer
    /// needs, once the body has said it is one.
    @Sendable func addItem(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let client = try supported(request, [POSRoute.bill], [.replace])
        let body = try RequestBody(request, allowed: ["menuItemId", "quantity", "modifiers", "note"])
        let modifiers = try body.modifierIds()
        if modifiers != nil { try navigator.verify(client, canShow: [], performing: [.dismiss]) }
        let menuItemId = try body.string("menuItemId")
        let quantity = try body.integer("quantity", in: quantityRange)
        // `null`, empty or blank: no note (LineNote.parse, in the till).
        let note = try body.clearableString("note")
        let billId = try request.parameter("billId")
        return try await app.idempotency.perform(request, body: body, device: device) { key in
            try await till.addItem(
                billId: billId, device: device.id, menuItemId: menuItemId, quantity: Int(quantity), modifiers: modifiers ?? [], note: note,
                idempotency: key)
        } answer: { bill in
            .json(
                try billAndSteps(bill, device) { context in
                    guard modifiers != nil else { return [try replaceBill(bill, context, client)] }
                    return try walk(from: .posModifierSheet(billId: bill.id, menuItemId: menuItemId), to: POSRoute.bill, bill, context, client)
                })
        }
    }

    /// Changes a line's quantity, its note, or both. A note of `null`, `""` or only whitespace
    /// removes it; the line stays its own even when it then looks like another.
    @Sendable func changeLine(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let client = try supported(request, [POSRoute.bill], [.replace])
        let body = try RequestBody(request, allowed: ["quantity", "note"])
        let quantity = try body.optionalInteger("quantity", in: quantityRange)
        let note = try body.clearableString("note")
        guard quantity != nil || note != nil else { throw Problem.invalidField("quantity", "'quantity' or 'note' is required.") }
        let billId = try request.parameter("billId")
        let lineId = try request.parameter("lineId")
        // `"note": null` is the request `"note": ""` is (both remove it), not one without a note.
        let keyed = note.map { body.with("note", .string($0)) } ?? body
        return try await app.idempotency.perform(request, body: keyed, device: device) { key in
            try await till.changeLine(
                billId: billId, device: device.id, lineId: lineId, quantity: quantity.map { Int($0) }, note: note, idempotency: key)
        } answer: { bill in
            .json(try billAndSteps(bill, device) { [try replaceBill(bill, $0, client)] })
        }
    }

    @Sendable func removeLine(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let client = try supported(request, [POSRoute.bill], [.replace])
        let body = try RequestBody(request, allowed: [], emptyAllowed: true)
        let billId = try request.parameter("billId")
        let lineId = try request.parameter("lineId")
        return try await app.idempotency.perform(request, body: body, device: device) { key in
            try await till.removeLine(billId: billId, device: device.id, lineId: lineId, idempotency: key)
        } answer: { bill in
            .json(try billAndSteps(bill, device) { [try replaceBill(bill, $0, client)] })
        }
    }

    @Sendable func checkout(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let client = try supported(request, [POSRoute.bill, POSRoute.orderSummary], [.replace, .present])
        let body = try RequestBody(request, allowed: [], emptyAllowed: true)
        let billId = try request.parameter("billId")
        return try await app.idempotency.perform(request, body: body, device: device) { key in
            try await till.checkout(billId: billId, device: device.id, idempotency: key)
        } answer: { bill in
            .json(
                try billAndSteps(bill, device) { context in
                    [try replaceBill(bill, context, client)] + (try walk(from: .posBill(bill.id), to: POSRoute.orderSummary, bill, context, client))
                })
        }
    }

    @Sendable func cancelCheckout(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let client = try supported(request, [POSRoute.bill], [.dismiss, .replace])
        let body = try RequestBody(request, allowed: [], emptyAllowed: true)
        let billId = try request.parameter("billId")
        return try await app.idempotency.perform(request, body: body, device: device) { key in
            try await till.cancelCheckout(billId: billId, device: device.id, idempotency: key)
        } answer: { bill in
            .json(
                try billAndSteps(bill, device) { context in
                    try walk(from: .posOrderSummary(bill.id), to: POSRoute.bill, bill, context, client) + [try replaceBill(bill, context, client)]
                })
        }
    }

    /// `POST /v1/bills/{billId}/pay`: the whole amount due, or with `"partial": true` a part of
    /// it (split tender). The payment that completes the bill answers as paying always has: the
    /// steps dismiss the order summary and replace the bill screen with the next bill. A partial
    /// one leaves the bill checked out: `nextBill` is the bill itself, and the one step replaces
    /// the order summary on display, now showing what is still due.
    @Sendable func pay(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let client = try supported(request, [POSRoute.bill], [.dismiss, .replace])
        let body = try RequestBody(request, allowed: ["method", "amountMinor", "tenderedMinor", "tipMinor", "partial"])
        let partial = try body.optionalBool("partial") ?? false
        // The tip's range is the domain's (PaymentRequest.tipRange, refused as InvalidInput, 400
        // as well): read here so a wrong type is named as the other members' are. So is a
        // partial amount of 0.
        let payment = try PaymentRequest(
            method: try body.choice("method", of: PaymentMethod.self),
            amountMinor: try body.integer("amountMinor", in: moneyRange),
            tenderedMinor: try body.optionalInteger("tenderedMinor", in: moneyRange),
            tipMinor: try body.optionalInteger("tipMinor", in: PaymentRequest.tipRange) ?? 0, partial: partial)
        let billId = try request.parameter("billId")
        // "partial": false is the default spelled out: one request with its absence, to a key.
        let meant = partial ? body : body.without("partial")
        // The counted items as this node's menu has them: a bill of none of them pays with no
        // statement more (the menu is current within a second of a change on another node).
        let counted = app.menu.current.countedItemIds
        var soldCounted = false
        let response = try await app.idempotency.perform(request, body: meant, device: device, keyRequired: true) { key in
            let outcome = try await till.pay(billId: billId, device: device.id, payment, countedItems: counted, idempotency: key)
            if case .performed(let done, _) = outcome {
                APIMetrics.committed(done.payment)
                if done.bill.status == .paid, !done.bill.stockSold(countedItems: counted).isEmpty { soldCounted = true }
            }
            return outcome
        } answer: { outcome in
            let context = app.screenContext(device, outcome.nextBill)
            let steps: [Step]
            if outcome.bill.status == .paid {
                // The bill screen shows the paid bill: the walk to the next one replaces it.
                steps = try walk(from: .posOrderSummary(outcome.bill.id), to: POSRoute.bill, outcome.nextBill, context, client)
            } else {
                // Partly paid: the order summary stays, showing what is due.
                steps = [try navigator.replace(POSRoute.orderSummary, inputs: inputs(outcome.bill), context: context, client: client)]
            }
            return .json([
                "payment": outcome.payment.json,
                "bill": context.json(of: outcome.bill),
                "nextBill": context.json(of: outcome.nextBill),
                "navigation": steps.json,
            ])
        }
        // The counts changed: every till's menu shows them now (should the rebuild fail, the
        // revision check does within a second; the payment has committed).
        if soldCounted { try? await app.menu.refresh() }
        return response
    }

    // MARK: Helpers

    /// The quantities the till's limits allow on a line.
    var quantityRange: ClosedRange<Int64> { Int64(till.limits.quantityRange.lowerBound)...Int64(till.limits.quantityRange.upperBound) }
    /// Amounts a till can take: up to 10^13 minor units, far from `Int64` overflow in any sum.
    static let moneyRange: ClosedRange<Int64> = 0...10_000_000_000_000
    var moneyRange: ClosedRange<Int64> { Self.moneyRange }

    /// The client's capabilities, checked to cover `routes` and `operations`.
    func supported(_ request: Request, _ routes: [RouteID], _ operations: Set<StepOperation>) throws -> ClientCapabilities {
        try request.clientCapabilities(verifiedBy: navigator, canShow: routes, performing: operations)
    }

    func inputs(_ bill: Bill) -> RouteInputs { [POSInput.billId: bill.id] }

    func replaceBill(_ bill: Bill, _ context: ScreenContext, _ client: ClientCapabilities) throws -> Step {
        try navigator.replace(POSRoute.bill, inputs: inputs(bill), context: context, client: client)
    }

    /// The engine's steps from a fixed POS stack to `target`, for `bill`.
    func walk(
        from stack: NavigationStack, to target: RouteID, _ bill: Bill, _ context: ScreenContext, _ client: ClientCapabilities
    ) throws -> [Step] {
        try navigator.navigate(NavigationRequest(from: stack, target: target, input: inputs(bill)), context: context, client: client).steps
    }

    /// `{bill, navigation}`: the steps as `steps` builds them with the request's screen context,
    /// which encodes the bill once for both places it appears (the data and the bill screen).
    func billAndSteps(_ bill: Bill, _ device: AuthenticatedDevice, _ steps: (ScreenContext) throws -> [Step]) throws -> JSON {
        let context = app.screenContext(device, bill)
        return ["bill": context.json(of: bill), "navigation": try steps(context).json]
    }
}
