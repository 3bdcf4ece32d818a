import RoutemapAPI
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON

/// A manager's hold on every device's unsettled bills, for the till that is lost or revoked:
/// list a device's bills (`GET /v1/devices/{deviceId}/bills`) and give one to another device
/// (`POST /v1/bills/{billId}/transfer`). A manager also reads (`GET /v1/bills/{billId}`) and
/// voids (`POST /v1/bills/{billId}/void`) any device's bill through the endpoints tills use.
extension BillsController {
    func registerManaging(on router: inout Router<APIContext>) {
        router.manager(.GET, "/v1/devices/{deviceId}/bills", reading: till, listDeviceBills)
        router.manager(.POST, "/v1/bills/{billId}/transfer", transfer)
    }

    /// `GET /v1/devices/{deviceId}/bills`: as `GET /v1/bills` (same query, same answer), for the
    /// device in the path, revoked or not; `current` is that device's current bill.
    @Sendable func listDeviceBills(_ request: Request, _ device: AuthenticatedDevice) throws -> Response {
        let query = try ListQuery(request)
        let deviceId = try request.parameter("deviceId")
        let page = try till.bills(
            ofDevice: deviceId, caller: device.caller, statuses: query.statuses, after: query.cursor, limit: query.limit)
        let current = try till.reader(for: deviceId).currentBill()?.id
        return .json(BillListJSON.page(page, current: current))
    }

    /// `POST /v1/bills/{billId}/transfer` with `{"deviceId": …}`: the bill becomes that device's
    /// (not its current bill: its cashier resumes it). The answer is the bill, as `GET` shows it;
    /// no navigation steps: the manager's own screens do not show the bill.
    @Sendable func transfer(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let body = try RequestBody(request, allowed: ["deviceId"])
        // Counted in characters, as openapi.yaml's maxLength counts; an id no device has is 422.
        let target = try body.text("deviceId", maxCharacters: 64)
        let billId = try request.parameter("billId")
        return try await app.idempotency.perform(request, body: body, device: device) { key in
            try await till.transfer(billId: billId, to: target, caller: device.caller, idempotency: key)
        } answer: { bill in
            .json(bill.json)
        }
    }
}

extension AuthenticatedDevice {
    /// The caller as the domain's rules see it: its device and role.
    var caller: BillCaller {
        BillCaller(deviceId: id, role: role)
    }
}
