import RoutemapAPI
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON
import RoutemapNavigation

/// A bill's label ("Table 4"): `PUT /v1/bills/{billId}/label` with `{"label": …}` names the bill
/// (`null`, `""` or blank takes the label off), `DELETE /v1/bills/{billId}/label` takes it off,
/// on an open or checked-out bill of the caller's (another device's is 404, a manager's call
/// included: a label is the cashier's own way to find a tab; a paid or voided bill is 409
/// `bill_settled`). Each answers as a line's change does: the bill and the steps that update
/// the bill screen.
extension BillsController {
    func registerLabel(on router: inout Router<APIContext>) {
        router.device(.PUT, "/v1/bills/{billId}/label", setLabel)
        router.device(.DELETE, "/v1/bills/{billId}/label", removeLabel)
    }

    @Sendable func setLabel(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let client = try supported(request, [POSRoute.bill], [.replace])
        let body = try RequestBody(request, allowed: ["label"])
        guard let raw = try body.clearableString("label") else {
            throw Problem.invalidField("label", "'label' is required (null or \"\" takes the label off).")
        }
        let label = try BillLabel.parse(raw)
        // Keyed by the label it makes: `null`, `""` and blank are one request (they take it off).
        return try await changeLabel(request, body.with("label", .string(label?.text ?? "")), device, client, label)
    }

    @Sendable func removeLabel(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let client = try supported(request, [POSRoute.bill], [.replace])
        let body = try RequestBody(request, allowed: [], emptyAllowed: true)
        return try await changeLabel(request, body, device, client, nil)
    }

    private func changeLabel(
        _ request: Request, _ body: RequestBody, _ device: AuthenticatedDevice, _ client: ClientCapabilities, _ label: BillLabel?
    ) async throws -> Response {
        let billId = try request.parameter("billId")
        return try await app.idempotency.perform(request, body: body, device: device) { key in
            try await till.setLabel(billId: billId, device: device.id, label: label?.text, idempotency: key)
        } answer: { bill in
            .json(try billAndSteps(bill, device) { [try replaceBill(bill, $0, client)] })
        }
    }
}
