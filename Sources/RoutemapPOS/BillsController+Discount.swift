import RoutemapAPI
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON
import RoutemapNavigation

/// A bill's one discount: `PUT /v1/bills/{billId}/discount` gives or replaces it,
/// `DELETE /v1/bills/{billId}/discount` takes it off, on an open bill. A till may give one up
/// to the server's till discount limit on a bill it holds (`discount_needs_manager` past it); a
/// manager any discount on any device's open bill. Each answers as a line's change does: the
/// bill and the steps that update the bill screen.
extension BillsController {
    func registerDiscount(on router: inout Router<APIContext>) {
        router.device(.PUT, "/v1/bills/{billId}/discount", setDiscount)
        router.device(.DELETE, "/v1/bills/{billId}/discount", removeDiscount)
    }

    /// `{"percentBps": …, "reason": …}` or `{"amountMinor": …, "reason": …}`: exactly one of the two.
    @Sendable func setDiscount(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let client = try supported(request, [POSRoute.bill], [.replace])
        let body = try RequestBody(request, allowed: ["percentBps", "amountMinor", "reason"])
        // The ranges and the reason's rule are the domain's (`InvalidInput`, 400 as well); read
        // here so that a wrong type is named as every other member's is.
        let percent = try body.optionalInteger("percentBps", in: Int64(BillDiscount.percentRange.lowerBound)...Int64(BillDiscount.percentRange.upperBound))
        let amount = try body.optionalInteger("amountMinor", in: BillDiscount.amountRange)
        let reason = try body.text("reason", maxCharacters: BillVoiding.maxReasonLength)
        let discount: BillDiscount
        switch (percent, amount) {
        case (let percent?, nil): discount = try BillDiscount(percentBasisPoints: Int(percent), reason: reason)
        case (nil, let amount?): discount = try BillDiscount(amountMinor: amount, reason: reason)
        default: throw Problem.invalidField("percentBps", "Give exactly one of 'percentBps' and 'amountMinor'.")
        }
        return try await changeDiscount(request, body, device, client, discount)
    }

    @Sendable func removeDiscount(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let client = try supported(request, [POSRoute.bill], [.replace])
        let body = try RequestBody(request, allowed: [], emptyAllowed: true)
        return try await changeDiscount(request, body, device, client, nil)
    }

    /// Sets or removes the discount under the request's key. The bill screen is replaced when
    /// the bill is the caller's own; a manager changing another device's bill gets no steps (the
    /// bill is on none of its screens), as voiding it does.
    private func changeDiscount(
        _ request: Request, _ body: RequestBody, _ device: AuthenticatedDevice, _ client: ClientCapabilities, _ discount: BillDiscount?
    ) async throws -> Response {
        let billId = try request.parameter("billId")
        return try await app.idempotency.perform(request, body: body, device: device) { key in
            try await till.setDiscount(billId: billId, caller: device.caller, discount, idempotency: key)
        } answer: { bill in
            guard bill.deviceId == device.id else {
                return .json(["bill": app.screenContext(device, bill).json(of: bill), "navigation": []])
            }
            return .json(try billAndSteps(bill, device) { [try replaceBill(bill, $0, client)] })
        }
    }
}
