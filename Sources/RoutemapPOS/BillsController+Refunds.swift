import RoutemapAPI
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON

/// A manager's refunds of paid bills: give money back on one (`POST /v1/bills/{billId}/refund`)
/// and list a bill's refunds (`GET /v1/bills/{billId}/refunds`). Any device's bill, as a
/// manager's void reaches it; a till gets 403 `manager_only`.
extension BillsController {
    func registerRefunds(on router: inout Router<APIContext>) {
        router.manager(.POST, "/v1/bills/{billId}/refund", refund)
        router.manager(.GET, "/v1/bills/{billId}/refunds", reading: till, listRefunds)
    }

    /// `POST /v1/bills/{billId}/refund` with `{"amountMinor": …, "reason": …}` and, for a bill
    /// paid by several payments, `"paymentId"` (the payment it gives back part of): 200 with the
    /// refund and the bill's refunded and refundable amounts (a refund has no address of its
    /// own: it is listed under its bill). No navigation steps: a manager's action outside the
    /// till's screens. Committed with full durability, as a payment is.
    @Sendable func refund(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let body = try RequestBody(request, allowed: ["amountMinor", "reason", "paymentId"])
        let amount = try body.integer("amountMinor", in: 1...moneyRange.upperBound)
        let paymentId = body.value("paymentId") == nil ? nil : try body.string("paymentId")
        // The length here, with its own message, as a void's reason; the rest of the rule is the
        // domain's (`InvalidInput`, 400 as well).
        let reason = try body.text("reason", maxCharacters: BillVoiding.maxReasonLength)
        let billId = try request.parameter("billId")
        return try await app.idempotency.perform(request, body: body, device: device) { key in
            try await till.refund(
                billId: billId, paymentId: paymentId, amountMinor: amount, reason: reason, caller: device.caller, idempotency: key)
        } answer: { outcome in
            .json([
                "refund": outcome.refund.json, "refundedMinor": .int(outcome.refundedMinor),
                "refundableMinor": .int(outcome.refundableMinor),
            ])
        }
    }

    /// `GET /v1/bills/{billId}/refunds`: the bill's refunds, oldest first, with what they sum to
    /// and what is left to refund (an empty list for a bill with none).
    @Sendable func listRefunds(_ request: Request, _ device: AuthenticatedDevice) throws -> Response {
        .json(try till.refunds(billId: try request.parameter("billId"), caller: device.caller).json)
    }
}

extension BillRefunds {
    /// The `RefundList` schema of openapi.yaml.
    var json: JSON {
        ["refunds": .array(refunds.map(\.json)), "refundedMinor": .int(refundedMinor), "refundableMinor": .int(refundableMinor)]
    }
}

extension Refund {
    /// The `Refund` schema of openapi.yaml.
    var json: JSON {
        [
            "refundId": .string(id),
            "billId": .string(billId),
            "paymentId": .string(paymentId),
            "method": .string(method.rawValue),
            "amountMinor": .int(amountMinor),
            "reason": .string(reason),
            "deviceId": .string(deviceId),
            "createdAt": .string(createdAt.wireText),
        ]
    }
}
