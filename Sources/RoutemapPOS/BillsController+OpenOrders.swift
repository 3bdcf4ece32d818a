import RoutemapAPI
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON
import RoutemapNavigation

/// A till's several open orders: list them (`GET /v1/bills`), make one current (resume), void
/// one; and read a payment back (`GET /v1/payments/{paymentId}`).
extension BillsController {
    func registerOpenOrders(on router: inout Router<APIContext>) {
        router.device(.GET, "/v1/bills", reading: till, listBills)
        router.device(.POST, "/v1/bills/{billId}/resume", resume)
        router.device(.POST, "/v1/bills/{billId}/void", void)
        router.device(.GET, "/v1/payments/{paymentId}", reading: till, getPayment)
    }

    /// `GET /v1/bills?status=open,checked_out&limit=20&cursor=bill_…`: the device's unsettled
    /// bills, newest first, a page at a time.
    @Sendable func listBills(_ request: Request, _ device: AuthenticatedDevice) throws -> Response {
        let query = try ListQuery(request)
        let page = try till.bills(device: device.id, statuses: query.statuses, after: query.cursor, limit: query.limit)
        let current = try till.reader(for: device.id).currentBill()?.id
        return .json(BillListJSON.page(page, current: current))
    }

    /// Makes the bill current: the bill list is dismissed, the bill screen shows the bill, and
    /// its order summary is presented when it is checked out.
    @Sendable func resume(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let client = try supported(request, [POSRoute.bill, POSRoute.orderSummary], [.dismiss, .replace, .present])
        let body = try RequestBody(request, allowed: [], emptyAllowed: true)
        let billId = try request.parameter("billId")
        return try await app.idempotency.perform(request, body: body, device: device) { key in
            try await till.resume(billId: billId, device: device.id, idempotency: key)
        } answer: { bill in
            .json(
                try billAndSteps(bill, device) { context in
                    try walk(from: .posBillList, to: Self.screen(showing: bill), bill, context, client)
                })
        }
    }

    /// Voids the bill with a reason; the bill screen then shows the device's current bill (the
    /// one selected last, or a new one), with its summary when it is checked out. A manager may
    /// void any device's bill: the voided bill was on none of its screens, so there are no steps
    /// (what it shows stays), and the other device gets no new bill.
    @Sendable func void(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let client = try supported(request, [POSRoute.bill, POSRoute.orderSummary], [.dismiss, .replace, .present])
        let body = try RequestBody(request, allowed: ["reason"])
        // The length here, with its own message (the API's tests and clients read it); the rest of
        // the reason's rule is the domain's (`InvalidInput`, 400 as well).
        let reason = try body.text("reason", maxCharacters: BillVoiding.maxReasonLength)
        let billId = try request.parameter("billId")
        return try await app.idempotency.perform(request, body: body, device: device) { key in
            try await till.void(billId: billId, caller: device.caller, reason: reason, idempotency: key)
        } answer: { outcome in
            let context = app.screenContext(device, outcome.bill, outcome.nextBill)
            guard outcome.bill.deviceId == device.id else {
                // Another device's bill, voided by a manager from outside its screens: nothing to show.
                return .json(["bill": context.json(of: outcome.bill), "nextBill": context.json(of: outcome.nextBill), "navigation": []])
            }
            // The voided bill was on the bill screen, under its summary when it was checked out.
            let from: NavigationStack = outcome.previousStatus == .checkedOut ? .posOrderSummary(outcome.bill.id) : .posBill(outcome.bill.id)
            let steps = try walk(from: from, to: Self.screen(showing: outcome.nextBill), outcome.nextBill, context, client)
            return .json(["bill": context.json(of: outcome.bill), "nextBill": context.json(of: outcome.nextBill), "navigation": steps.json])
        }
    }

    /// A payment of one of the device's bills (404 for any other), or for a manager of any
    /// device's bill, as a manager reads any bill.
    @Sendable func getPayment(_ request: Request, _ device: AuthenticatedDevice) throws -> Response {
        .json(try till.payment(id: try request.parameter("paymentId"), caller: device.caller).json)
    }

    /// The screen a bill is shown on when it becomes current: its summary when checked out.
    private static func screen(showing bill: Bill) -> RouteID {
        bill.status == .checkedOut ? POSRoute.orderSummary : POSRoute.bill
    }
}

/// The query of `GET /v1/bills` (and of a manager's `GET /v1/devices/{deviceId}/bills`).
struct ListQuery {
    let statuses: Set<BillStatus>
    let limit: Int
    let cursor: String?

    init(_ request: Request) throws {
        if let text = request.query["status"] {
            var statuses: Set<BillStatus> = []
            for name in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let status = BillStatus(rawValue: String(name)), status.isUnsettled else {
                    throw Problem.invalidField("status", "status lists open and checked_out, comma-separated.")
                }
                statuses.insert(status)
            }
            self.statuses = statuses
        } else {
            statuses = [.open, .checkedOut]
        }
        let page = try PageQuery(request)
        limit = page.limit
        cursor = page.cursor
    }
}

/// A page's query parameters, as every list reads them: `limit` (1 to ``Till/maxPageSize``, 20
/// when absent) and `cursor` (the previous page's `nextCursor`).
struct PageQuery {
    let limit: Int
    let cursor: String?

    init(_ request: Request) throws {
        if let text = request.query["limit"] {
            guard let limit = Int(text), (1...Till.maxPageSize).contains(limit), text.allSatisfy(\.isASCII) else {
                throw Problem.invalidField("limit", "limit must be 1 to \(Till.maxPageSize).")
            }
            self.limit = limit
        } else {
            limit = 20
        }
        cursor = request.query["cursor"]
    }
}
