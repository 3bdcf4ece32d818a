import RoutemapAPI
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON
import RoutemapNavigation

/// Cash drawer shifts (cash-up): the calling device opens a shift with its float
/// (`POST /v1/shifts`), reads it with what its drawer should hold (`GET /v1/shifts/current`),
/// records cash paid in or out (`POST /v1/shifts/current/movements`) and closes it with the
/// cash it counted (`POST /v1/shifts/current/close`), which answers the report: over or short.
/// Any device, till or manager, works its own drawer only; `GET /v1/shifts/{shiftId}` reads a
/// report, a till its own shifts only (another's is 404, as another's bill is), a manager any;
/// a manager lists them (`GET /v1/shifts`).
///
/// Optional: paying needs no open shift. Every change takes an optional `Idempotency-Key`, and
/// is committed with full durability, as a payment is. Each change also answers `navigation`:
/// one `replace drawer`, the drawer screen (POSDrawer.swift) showing the shift after it.
struct ShiftsController {
    let app: POSApp

    var till: Till { app.till }

    func register(on router: inout Router<APIContext>) {
        router.device(.POST, "/v1/shifts", openShift)
        router.device(.GET, "/v1/shifts/current", reading: till, currentShift)
        router.device(.POST, "/v1/shifts/current/movements", recordMovement)
        router.device(.POST, "/v1/shifts/current/close", closeShift)
        router.device(.GET, "/v1/shifts/{shiftId}", reading: till, getShift)
        router.manager(.GET, "/v1/shifts", reading: till, listShifts)
    }

    /// `POST /v1/shifts` with `{"openingFloatMinor": …}`: 201 with the open shift; 409
    /// `shift_already_open` (with its `shiftId`) when the device has one.
    @Sendable func openShift(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let client = try drawerClient(request)
        let body = try RequestBody(request, allowed: ["openingFloatMinor"])
        let float = try body.integer("openingFloatMinor", in: Self.cashRange)
        return try await app.idempotency.perform(request, body: body, device: device) { key in
            try await till.openShift(device: device.id, openingFloatMinor: float, idempotency: key)
        } answer: { report in
            .json(
                try json(report, steps: replaceDrawer(.open(report), device, client)), status: .created,
                headers: ["Location": "/v1/shifts/\(report.shift.id)"])
        }
    }

    /// `GET /v1/shifts/current`: the device's open shift with its running sums; 404
    /// `no_open_shift` when it has none (the resource is missing: no conflict to record).
    @Sendable func currentShift(_ request: Request, _ device: AuthenticatedDevice) throws -> Response {
        do {
            return Self.report(try json(try till.currentShift(device: device.id)))
        } catch POSError.noOpenShift {
            var problem = POSError.noOpenShift.problem
            problem.status = .notFound
            throw problem
        }
    }

    /// `POST /v1/shifts/current/movements` with `{"kind": "pay_in" | "pay_out", "amountMinor": …,
    /// "reason": …}`: 200 with the movement and the shift after it (a movement has no address of
    /// its own). 409 `no_open_shift`; a pay-out beyond the cash the drawer should hold, 409
    /// `insufficient_cash` with `expectedCashMinor`.
    @Sendable func recordMovement(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let client = try drawerClient(request)
        let body = try RequestBody(request, allowed: ["kind", "amountMinor", "reason"])
        let kind = try body.choice("kind", of: DrawerMovement.Kind.self)
        let amount = try body.integer("amountMinor", in: 1...Self.cashRange.upperBound)
        // The length here, with its own message, as a refund's reason; the rest of the rule is
        // the domain's (`InvalidInput`, 400 as well).
        let reason = try body.text("reason", maxCharacters: BillVoiding.maxReasonLength)
        return try await app.idempotency.perform(request, body: body, device: device) { key in
            try await till.recordDrawerMovement(kind: kind, amountMinor: amount, reason: reason, device: device.id, idempotency: key)
        } answer: { outcome in
            .json([
                "movement": outcome.movement.json, "shift": try json(outcome.report),
                "navigation": try replaceDrawer(.open(outcome.report), device, client),
            ])
        }
    }

    /// `POST /v1/shifts/current/close` with `{"countedCashMinor": …}`: 200 with the closed
    /// shift's report; 409 `no_open_shift`.
    @Sendable func closeShift(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let client = try drawerClient(request)
        let body = try RequestBody(request, allowed: ["countedCashMinor"])
        let counted = try body.integer("countedCashMinor", in: Self.cashRange)
        return try await app.idempotency.perform(request, body: body, device: device) { key in
            try await till.closeShift(device: device.id, countedCashMinor: counted, idempotency: key)
        } answer: { report in
            .json(try json(report, steps: replaceDrawer(.closed(last: report), device, client)))
        }
    }

    /// `GET /v1/shifts/{shiftId}`: the shift's report, open or closed.
    @Sendable func getShift(_ request: Request, _ device: AuthenticatedDevice) throws -> Response {
        let report = try till.shiftReport(id: try request.parameter("shiftId"), caller: device.caller)
        return Self.report(try json(report))
    }

    /// `GET /v1/shifts?device=dev_…&limit=20&cursor=shift_…` (managers only): shifts newest
    /// first, of one device or of all, a page at a time; each as stored, without its sums
    /// (`GET /v1/shifts/{shiftId}` has them).
    @Sendable func listShifts(_ request: Request, _ device: AuthenticatedDevice) throws -> Response {
        let query = try PageQuery(request)
        let page = try till.shifts(
            deviceId: request.query["device"], after: query.cursor, limit: query.limit, caller: device.caller)
        var object: JSONObject = ["shifts": .array(try page.shifts.map(Self.entry))]
        if let next = page.nextCursor { object.append("nextCursor", .string(next)) }
        return Self.report(.object(object))
    }

    /// The `ShiftListEntry` schema of openapi.yaml: a shift as stored, and once closed its count.
    private static func entry(_ shift: DrawerShift) throws -> JSON {
        var object = opening(shift)
        if let closing = shift.closing { try append(closing, to: &object) }
        return .object(object)
    }

    /// The members every shift's answer opens with: which, whose, whether open, and its opening.
    private static func opening(_ shift: DrawerShift) -> JSONObject {
        [
            "shiftId": .string(shift.id), "deviceId": .string(shift.deviceId), "status": .string(shift.isOpen ? "open" : "closed"),
            "openedAt": .string(shift.openedAt.wireText), "openingFloatMinor": .int(shift.openingFloatMinor),
        ]
    }

    /// A closed shift's members: when, what was counted and expected, and the variance.
    private static func append(_ closing: DrawerShift.Closing, to object: inout JSONObject) throws {
        object.append("closedAt", .string(closing.closedAt.wireText))
        object.append("countedCashMinor", .int(closing.countedCashMinor))
        object.append("expectedCashMinor", .int(closing.expectedCashMinor))
        object.append("varianceMinor", .int(try closing.varianceMinor()))
    }

    /// The cash a drawer's float, count and movements may be: as much as a till takes.
    static let cashRange = BillsController.moneyRange

    /// A read report: not for caches to keep, as it is out of date at the next sale.
    private static func report(_ json: JSON) -> Response {
        .json(json, headers: ["Cache-Control": "no-store"])
    }

    /// The `Shift` schema of openapi.yaml, in the till's currency.
    func json(_ report: ShiftReport) throws -> JSON {
        .object(try Self.members(report, currency: till.currency))
    }

    /// A change's answer (openapi.yaml's `ShiftAnswer`): the shift's members, and `navigation`.
    func json(_ report: ShiftReport, steps: JSON) throws -> JSON {
        var object = try Self.members(report, currency: till.currency)
        object.append("navigation", steps)
        return .object(object)
    }

    /// The `Shift` schema of openapi.yaml, as the drawer screen's payload holds it.
    static func json(_ report: ShiftReport, currency: Currency) throws -> JSON {
        .object(try members(report, currency: currency))
    }

    /// The members of the `Shift` schema: the shift, its sums, and once closed its count.
    private static func members(_ report: ShiftReport, currency: Currency) throws -> JSONObject {
        let shift = report.shift, figures = report.figures
        var object = opening(shift)
        let sums: KeyValuePairs<String, JSON> = [
            "currency": .string(currency.rawValue),
            "cashPayments": .int(Int64(figures.cashTaken.count)), "cashTakenMinor": .int(figures.cashTaken.amountMinor),
            "cashRefunds": .int(Int64(figures.cashRefunded.count)), "cashRefundedMinor": .int(figures.cashRefunded.amountMinor),
            "payIns": .int(Int64(figures.payIns.count)), "payInsMinor": .int(figures.payIns.amountMinor),
            "payOuts": .int(Int64(figures.payOuts.count)), "payOutsMinor": .int(figures.payOuts.amountMinor),
            "cardPayments": .int(Int64(figures.cardTaken.count)), "cardTakenMinor": .int(figures.cardTaken.amountMinor),
            "paymentsCount": .int(Int64(figures.paymentCount)),
        ]
        for (key, value) in sums { object.append(key, value) }
        if let closing = shift.closing {
            try append(closing, to: &object)
        } else {
            object.append("expectedCashMinor", .int(report.expectedCashMinor))
        }
        return object
    }

    // MARK: The drawer screen

    /// The client's capabilities, checked to show the drawer screen with a `replace` before
    /// anything changes: a client that could not follow the answer changes nothing.
    private func drawerClient(_ request: Request) throws -> ClientCapabilities {
        try request.clientCapabilities(verifiedBy: app.navigator, canShow: [POSRoute.drawer], performing: [.replace])
    }

    /// `[replace drawer]`, the drawer screen showing `state`: what the change left, passed to the
    /// builder (the answer is built in the change's transaction, where a read would not see it).
    private func replaceDrawer(_ state: DrawerState, _ device: AuthenticatedDevice, _ client: ClientCapabilities) throws -> JSON {
        let context = ScreenContext(till: till, device: device.id, menu: app.menu.current, drawer: state)
        return [try app.navigator.replace(POSRoute.drawer, inputs: [:], context: context, client: client)].json
    }
}

extension DrawerMovement {
    /// The `DrawerMovement` schema of openapi.yaml.
    var json: JSON {
        [
            "movementId": .string(id), "shiftId": .string(shiftId), "kind": .string(kind.rawValue), "amountMinor": .int(amountMinor),
            "reason": .string(reason), "deviceId": .string(deviceId), "createdAt": .string(createdAt.wireText),
        ]
    }
}
