import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An async client for every routemap endpoint (openapi.yaml).
///
/// - It sends the device's bearer token (`enroll` keeps the one it gets) and the app's
///   capabilities headers on every request.
/// - Requests that may be repeated (GET, and those with an `Idempotency-Key`) are retried after a
///   lost connection or timeout, after `409 idempotency_key_in_flight`, and after a `503`
///   `overloaded`, `timed_out` or `database_unavailable` once its `Retry-After` has passed (when
///   it is at most `RetryPolicy.maxRetryAfter`), with the same key: a change the server may
///   have made is then replayed, not made twice.
/// - A problem+json answer is thrown as a `Problem` (its `code` says what went wrong; its
///   `retryAfterSeconds`, for a 429 or a 503, when to try again).
public actor APIClient {
    public let baseURL: URL
    /// The app whose navigation endpoints this client uses (`/v1/apps/{app}/launch`, …); nil:
    /// the point of sale's, without a name (`/v1/launch`, …).
    public let app: String?
    public let capabilities: AppCapabilities
    /// The device's bearer token.
    public private(set) var token: String?
    private let transport: any HTTPTransport
    private let retry: RetryPolicy

    /// How often, and after how long, a repeatable request is sent again.
    public struct RetryPolicy: Sendable {
        /// Attempts in all, the first included.
        public var maxAttempts: Int
        /// The wait before the second attempt; doubled for each further one.
        public var delay: Duration
        /// The longest `Retry-After` of a `503` the client waits for before sending the request
        /// again (it waits that long, or `delay`'s wait when that is longer); a 503 asking for
        /// longer is thrown, with its `retryAfterSeconds`.
        public var maxRetryAfter: Duration

        public init(maxAttempts: Int = 3, delay: Duration = .milliseconds(200), maxRetryAfter: Duration = .seconds(5)) {
            self.maxAttempts = max(1, maxAttempts)
            self.delay = delay
            self.maxRetryAfter = maxRetryAfter
        }
    }

    public init(
        baseURL: URL, app: String? = nil, token: String? = nil, capabilities: AppCapabilities = .everything,
        transport: any HTTPTransport = URLSessionTransport(), retry: RetryPolicy = RetryPolicy()
    ) {
        self.baseURL = baseURL
        self.app = app
        self.token = token
        self.capabilities = capabilities
        self.transport = transport
        self.retry = retry
    }

    /// Uses `token` from now on (one the app stored after enrolling).
    public func setToken(_ token: String?) { self.token = token }

    // MARK: Devices

    /// `POST /v1/devices`: enrolls this device with its role's code (`role` nil: a till, with the
    /// till code; `.manager`: with the manager code) and keeps the token it gets.
    @discardableResult
    public func enroll(name: String, enrollmentCode: String, role: DeviceRole? = nil) async throws -> EnrolledDevice {
        let device: EnrolledDevice = try await decode(
            send(.post, "/v1/devices", body: EnrollRequest(name: name, enrollmentCode: enrollmentCode, role: role), authorized: false))
        token = device.token
        return device
    }

    /// `GET /v1/devices` (managers only): every device enrolled, oldest first, revoked ones too.
    public func devices() async throws -> DeviceList {
        try await decode(send(.get, "/v1/devices"))
    }

    /// `POST /v1/devices/{deviceId}/revoke` (managers only): its token stops working. Revoking
    /// again answers the same, so it is retried like a keyed request.
    public func revokeDevice(id: String) async throws -> RevokedDeviceAnswer {
        try await decode(send(.post, "/v1/devices/\(Self.segment(id))/revoke", repeatable: true))
    }

    /// `POST /v1/devices/me/token`: a new token for this device, which the client keeps and uses
    /// from now on (the old one works until the new one is first used). A lost answer is retried:
    /// the old token still works, and rotating again replaces the unused new one.
    @discardableResult
    public func rotateToken() async throws -> EnrolledDevice {
        let device: EnrolledDevice = try await decode(send(.post, "/v1/devices/me/token", repeatable: true))
        token = device.token
        return device
    }

    // MARK: Menu

    /// `GET /v1/menu/items`, optionally of one category. With `ifNoneMatch` (an earlier `etag`),
    /// an unchanged menu answers `.notModified`.
    public func menuItems(category: String? = nil, ifNoneMatch: String? = nil) async throws -> Conditional<MenuListing> {
        try await conditional("/v1/menu/items", query: category.map { ["category": $0] } ?? [:], ifNoneMatch: ifNoneMatch)
    }

    /// `POST /v1/menu/items` (managers only): adds an item at the end of the menu.
    public func createMenuItem(_ request: CreateMenuItemRequest, intent: UserIntent = UserIntent()) async throws -> Replayable<MenuItemAnswer> {
        try await replayable(send(.post, "/v1/menu/items", body: request, intent: intent))
    }

    /// `PATCH /v1/menu/items/{itemId}` (managers only): changes the members `request` gives.
    public func changeMenuItem(id: String, _ request: ChangeMenuItemRequest, intent: UserIntent = UserIntent()) async throws
        -> Replayable<MenuItemAnswer>
    {
        try await replayable(send(.patch, "/v1/menu/items/\(Self.segment(id))", body: request, intent: intent))
    }

    /// `DELETE /v1/menu/items/{itemId}` (managers only): takes the item off the menu.
    public func retireMenuItem(id: String, intent: UserIntent = UserIntent()) async throws -> Replayable<RetiredMenuItemAnswer> {
        try await replayable(send(.delete, "/v1/menu/items/\(Self.segment(id))", intent: intent))
    }

    /// `GET /v1/menu/categories`. With `ifNoneMatch` (an earlier `etag`), unchanged categories
    /// answer `.notModified`.
    public func menuCategories(ifNoneMatch: String? = nil) async throws -> Conditional<MenuCategoryListing> {
        try await conditional("/v1/menu/categories", ifNoneMatch: ifNoneMatch)
    }

    /// A conditional `GET` of `path`: `.notModified` when `ifNoneMatch` (an earlier `etag`) still matches.
    private func conditional<Listing: Decodable>(_ path: String, query: [String: String] = [:], ifNoneMatch: String?) async throws
        -> Conditional<Listing>
    {
        let answer = try await send(.get, path, query: query, headers: ifNoneMatch.map { ["If-None-Match": $0] } ?? [:])
        if answer.status == 304 { return .notModified }
        return .modified(try decode(answer), etag: answer.header("ETag"))
    }

    /// `POST /v1/menu/categories` (managers only): adds a category at the end of the menu.
    public func createMenuCategory(_ category: MenuCategory, intent: UserIntent = UserIntent()) async throws -> Replayable<MenuCategoryAnswer> {
        try await replayable(send(.post, "/v1/menu/categories", body: category, intent: intent))
    }

    /// `PATCH /v1/menu/categories/{categoryId}` (managers only): renames a category.
    public func renameMenuCategory(id: String, name: String, intent: UserIntent = UserIntent()) async throws -> Replayable<MenuCategoryAnswer> {
        try await replayable(send(.patch, "/v1/menu/categories/\(Self.segment(id))", body: RenameMenuCategoryRequest(name: name), intent: intent))
    }

    /// `DELETE /v1/menu/categories/{categoryId}` (managers only): takes an empty category off the menu.
    public func retireMenuCategory(id: String, intent: UserIntent = UserIntent()) async throws -> Replayable<RetiredMenuCategoryAnswer> {
        try await replayable(send(.delete, "/v1/menu/categories/\(Self.segment(id))", intent: intent))
    }

    // MARK: Bills

    /// `POST /v1/bills`: opens a new bill, named `label` ("Table 4") when given (trimmed by the
    /// server; empty or blank is none). Without a label the body is empty, as for a server from
    /// before labels.
    public func createBill(label: String? = nil, intent: UserIntent = UserIntent()) async throws -> Replayable<BillAndNavigation> {
        guard let label else { return try await replayable(send(.post, "/v1/bills", intent: intent)) }
        return try await replayable(send(.post, "/v1/bills", body: CreateBillRequest(label: label), intent: intent))
    }

    /// `PUT /v1/bills/{billId}/label`: names the device's open or checked-out bill `label`
    /// ("Sam's tab"), replacing its label; `nil`, empty or blank takes it off. A paid or voided
    /// bill is `bill_settled`; another device's bill is not found.
    public func setLabel(billId: String, _ label: String?, intent: UserIntent = UserIntent()) async throws -> Replayable<BillAndNavigation> {
        try await replayable(send(.put, "/v1/bills/\(Self.segment(billId))/label", body: SetLabelRequest(label: label), intent: intent))
    }

    /// `DELETE /v1/bills/{billId}/label`: takes the bill's label off (none: nothing changes).
    public func removeLabel(billId: String, intent: UserIntent = UserIntent()) async throws -> Replayable<BillAndNavigation> {
        try await replayable(send(.delete, "/v1/bills/\(Self.segment(billId))/label", intent: intent))
    }

    /// `GET /v1/bills/{billId}`: one of the device's bills; for a manager, any device's.
    public func bill(id: String) async throws -> Bill {
        try await decode(send(.get, "/v1/bills/\(Self.segment(id))"))
    }

    /// `GET /v1/bills`: a page of the device's open and checked-out bills, newest first; pass
    /// the page's `nextCursor` as `cursor` for the next one.
    public func bills(statuses: [BillStatus] = [], limit: Int? = nil, cursor: String? = nil) async throws -> BillList {
        var query: [String: String] = [:]
        if !statuses.isEmpty { query["status"] = statuses.map(\.rawValue).joined(separator: ",") }
        if let limit { query["limit"] = String(limit) }
        if let cursor { query["cursor"] = cursor }
        return try await decode(send(.get, "/v1/bills", query: query))
    }

    /// `POST /v1/bills/{billId}/resume`: makes an open or checked-out bill the current one.
    public func resume(billId: String, intent: UserIntent = UserIntent()) async throws -> Replayable<BillAndNavigation> {
        try await replayable(send(.post, "/v1/bills/\(Self.segment(billId))/resume", intent: intent))
    }

    /// `POST /v1/bills/{billId}/void`: voids an open or checked-out bill, with a reason (a
    /// manager: any device's; `nextBill` is then the manager's own current bill).
    public func void(billId: String, reason: String, intent: UserIntent = UserIntent()) async throws -> Replayable<VoidAnswer> {
        try await replayable(send(.post, "/v1/bills/\(Self.segment(billId))/void", body: VoidRequest(reason: reason), intent: intent))
    }

    /// `GET /v1/devices/{deviceId}/bills` (managers only): a page of another device's open and
    /// checked-out bills (a revoked till's too), as ``bills(statuses:limit:cursor:)`` lists the
    /// device's own.
    public func bills(ofDevice deviceId: String, statuses: [BillStatus] = [], limit: Int? = nil, cursor: String? = nil) async throws
        -> BillList
    {
        var query: [String: String] = [:]
        if !statuses.isEmpty { query["status"] = statuses.map(\.rawValue).joined(separator: ",") }
        if let limit { query["limit"] = String(limit) }
        if let cursor { query["cursor"] = cursor }
        return try await decode(send(.get, "/v1/devices/\(Self.segment(deviceId))/bills", query: query))
    }

    /// `POST /v1/bills/{billId}/transfer` (managers only): gives any device's open or
    /// checked-out bill to device `deviceId` (enrolled, not revoked), whose cashier resumes it
    /// when they want (it does not become that device's current bill). The answer is the bill.
    public func transfer(billId: String, toDevice deviceId: String, intent: UserIntent = UserIntent()) async throws -> Replayable<Bill> {
        try await replayable(send(.post, "/v1/bills/\(Self.segment(billId))/transfer", body: TransferRequest(deviceId: deviceId), intent: intent))
    }

    /// `POST /v1/bills/{billId}/refund` (managers only): gives back `amountMinor` of any
    /// device's paid bill, by its payment's method, with `reason`. The bill does not change.
    /// Like every change, one refund is one ``UserIntent``: its attempts send the same key, so a
    /// retry gets the recorded answer, never a second refund. Throws a ``Problem``:
    /// `bill_not_paid`, `refund_exceeds_payment` (with ``Problem/refundableMinor``),
    /// `manager_only`, `not_found`. A bill paid by several payments (split tender) is refunded
    /// payment by payment: `paymentId` names one of its `payments` (else `payment_id_required`,
    /// with ``Problem/paymentIds``; `unknown_payment` for one not the bill's).
    public func refund(billId: String, paymentId: String? = nil, amountMinor: Int64, reason: String, intent: UserIntent = UserIntent())
        async throws -> Replayable<RefundAnswer>
    {
        try await replayable(
            send(
                .post, "/v1/bills/\(Self.segment(billId))/refund",
                body: RefundRequest(amountMinor: amountMinor, reason: reason, paymentId: paymentId), intent: intent))
    }

    /// `GET /v1/bills/{billId}/refunds` (managers only): the bill's refunds, oldest first, with
    /// what they add up to and what may still be refunded.
    public func refunds(billId: String) async throws -> RefundList {
        try await decode(send(.get, "/v1/bills/\(Self.segment(billId))/refunds"))
    }

    /// `GET /v1/reports/sales` (managers only): the end-of-day report of the period [`from`,
    /// `to`), given as RFC 3339 instants with their offset (`2026-11-25T00:00:00+01:00`), so the
    /// shop's day is the caller's to say.
    public func salesReport(from: String, to: String) async throws -> SalesReport {
        try await decode(send(.get, "/v1/reports/sales", query: ["from": from, "to": to]))
    }

    /// ``salesReport(from:to:)`` of the period [`from`, `to`), sent in UTC to the millisecond.
    public func salesReport(from: Date, to: Date) async throws -> SalesReport {
        try await salesReport(from: Self.instant(from), to: Self.instant(to))
    }

    /// `date` as RFC 3339 in UTC with milliseconds (`2026-11-24T23:00:00.000Z`).
    static func instant(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// `POST /v1/shifts`: opens a cash drawer shift on this device with `openingFloatMinor` in
    /// its drawer; the answer is the shift and the steps that show the drawer screen with it
    /// (follow them with `NavigationSession.follow(answer:)`). Shifts are optional: paying needs none. Throws a ``Problem``:
    /// `shift_already_open` (with ``Problem/shiftId``, the open one).
    public func openShift(openingFloatMinor: Int64, intent: UserIntent = UserIntent()) async throws -> Replayable<ShiftAnswer> {
        try await replayable(send(.post, "/v1/shifts", body: OpenShiftRequest(openingFloatMinor: openingFloatMinor), intent: intent))
    }

    /// `GET /v1/shifts/current`: this device's open shift, with the cash its drawer should hold
    /// now. Throws a ``Problem``: `no_open_shift` (404).
    public func currentShift() async throws -> Shift {
        try await decode(send(.get, "/v1/shifts/current"))
    }

    /// `POST /v1/shifts/current/movements`: cash paid into or out of this device's open shift's
    /// drawer, with `reason`. Throws a ``Problem``: `no_open_shift`, `insufficient_cash` (a
    /// pay-out beyond ``Problem/expectedCashMinor``).
    public func recordDrawerMovement(kind: DrawerMovementKind, amountMinor: Int64, reason: String, intent: UserIntent = UserIntent())
        async throws -> Replayable<DrawerMovementAnswer>
    {
        try await replayable(
            send(
                .post, "/v1/shifts/current/movements", body: DrawerMovementRequest(kind: kind, amountMinor: amountMinor, reason: reason),
                intent: intent))
    }

    /// `POST /v1/shifts/current/close`: closes this device's open shift with `countedCashMinor`
    /// counted in its drawer; the answer is its report (``Shift/varianceMinor``: over or short)
    /// and the steps that show the drawer screen with it as the last closed shift.
    /// Throws a ``Problem``: `no_open_shift`.
    public func closeShift(countedCashMinor: Int64, intent: UserIntent = UserIntent()) async throws -> Replayable<ShiftAnswer> {
        try await replayable(
            send(.post, "/v1/shifts/current/close", body: CloseShiftRequest(countedCashMinor: countedCashMinor), intent: intent))
    }

    /// `GET /v1/shifts/{shiftId}`: a shift's report; a till's own shifts only (another's is
    /// `not_found`), any device's for a manager.
    public func shift(id: String) async throws -> Shift {
        try await decode(send(.get, "/v1/shifts/\(Self.segment(id))"))
    }

    /// `GET /v1/shifts` (managers only): a page of shifts, newest first, of device `deviceId` or
    /// of every device; pass a page's ``ShiftList/nextCursor`` as `cursor` for the next.
    public func shifts(ofDevice deviceId: String? = nil, limit: Int? = nil, cursor: String? = nil) async throws -> ShiftList {
        var query: [String: String] = [:]
        if let deviceId { query["device"] = deviceId }
        if let limit { query["limit"] = String(limit) }
        if let cursor { query["cursor"] = cursor }
        return try await decode(send(.get, "/v1/shifts", query: query))
    }

    /// `GET /v1/bills/{billId}/receipt`: a paid bill's receipt, to print or show, for the till
    /// that holds the bill or a manager. Throws a ``Problem``: `bill_not_paid` (the bill is not
    /// paid yet), `not_found` (no such bill, or another till's).
    public func receipt(billId: String) async throws -> Receipt {
        try await decode(send(.get, "/v1/bills/\(Self.segment(billId))/receipt"))
    }

    /// `GET /v1/payments/{paymentId}`: a payment of one of the device's bills, read back.
    public func payment(id: String) async throws -> Payment {
        try await decode(send(.get, "/v1/payments/\(Self.segment(id))"))
    }

    /// `POST /v1/bills/{billId}/items`. Every attempt of one tap sends the same `intent`, so a
    /// retry never adds twice (its answer is then `replayed`). `modifiers`: the ids of the item's
    /// options chosen, as the modifier sheet sends them (its answer dismisses the sheet); `nil`
    /// for the menu's one tap. `note`: the line's note ("extra hot", at most 140 characters); the
    /// add raises a line only with the same note.
    public func addItem(
        billId: String, menuItemId: String, quantity: Int = 1, modifiers: [String]? = nil, note: String? = nil,
        intent: UserIntent = UserIntent()
    ) async throws -> Replayable<BillAndNavigation> {
        try await replayable(
            send(
                .post, "/v1/bills/\(Self.segment(billId))/items",
                body: AddItemRequest(menuItemId: menuItemId, quantity: quantity, modifiers: modifiers, note: note), intent: intent))
    }

    /// `PATCH /v1/bills/{billId}/items/{lineId}`: sets a line's quantity.
    public func updateItem(billId: String, lineId: String, quantity: Int, intent: UserIntent = UserIntent()) async throws
        -> Replayable<BillAndNavigation>
    {
        try await updateItem(billId: billId, lineId: lineId, UpdateItemRequest(quantity: quantity), intent: intent)
    }

    /// `PATCH /v1/bills/{billId}/items/{lineId}`: sets a line's note (`""` removes it), and its
    /// quantity too when given, as one change. The line stays its own even if it then looks
    /// like another. Throws a ``Problem``: `invalid_field` (`note`, over 140 characters),
    /// `bill_not_open`, `not_found`.
    public func setNote(billId: String, lineId: String, note: String, quantity: Int? = nil, intent: UserIntent = UserIntent()) async throws
        -> Replayable<BillAndNavigation>
    {
        try await updateItem(billId: billId, lineId: lineId, UpdateItemRequest(quantity: quantity, note: note), intent: intent)
    }

    private func updateItem(billId: String, lineId: String, _ body: UpdateItemRequest, intent: UserIntent) async throws
        -> Replayable<BillAndNavigation>
    {
        try await replayable(
            send(.patch, "/v1/bills/\(Self.segment(billId))/items/\(Self.segment(lineId))", body: body, intent: intent))
    }

    /// `PUT /v1/bills/{billId}/discount`: gives the open bill `discount`, replacing any it had.
    /// A till gives one up to the server's till discount limit on its own bills; a manager any,
    /// on any device's open bill. Throws a ``Problem``: `discount_needs_manager` (with
    /// ``Problem/limitBps`` and ``Problem/shareBps``), `bill_not_open`, `not_found`, `invalid_field`.
    public func setDiscount(billId: String, _ discount: Discount, intent: UserIntent = UserIntent()) async throws
        -> Replayable<BillAndNavigation>
    {
        try await replayable(send(.put, "/v1/bills/\(Self.segment(billId))/discount", body: discount, intent: intent))
    }

    /// `DELETE /v1/bills/{billId}/discount`: takes the open bill's discount off (none: nothing changes).
    public func removeDiscount(billId: String, intent: UserIntent = UserIntent()) async throws -> Replayable<BillAndNavigation> {
        try await replayable(send(.delete, "/v1/bills/\(Self.segment(billId))/discount", intent: intent))
    }

    /// `DELETE /v1/bills/{billId}/items/{lineId}`.
    public func removeItem(billId: String, lineId: String, intent: UserIntent = UserIntent()) async throws -> Replayable<BillAndNavigation> {
        try await replayable(send(.delete, "/v1/bills/\(Self.segment(billId))/items/\(Self.segment(lineId))", intent: intent))
    }

    /// `POST /v1/bills/{billId}/checkout`.
    public func checkout(billId: String, intent: UserIntent = UserIntent()) async throws -> Replayable<BillAndNavigation> {
        try await replayable(send(.post, "/v1/bills/\(Self.segment(billId))/checkout", intent: intent))
    }

    /// `POST /v1/bills/{billId}/checkout/cancel`.
    public func cancelCheckout(billId: String, intent: UserIntent = UserIntent()) async throws -> Replayable<BillAndNavigation> {
        try await replayable(send(.post, "/v1/bills/\(Self.segment(billId))/checkout/cancel", intent: intent))
    }

    /// `POST /v1/bills/{billId}/pay`. Pass the same `intent` to every attempt of one payment.
    public func pay(billId: String, _ request: PayRequest, intent: UserIntent) async throws -> Replayable<PaymentAnswer> {
        try await replayable(send(.post, "/v1/bills/\(Self.segment(billId))/pay", body: request, intent: intent))
    }

    // MARK: Trivia

    /// `POST /v1/trivia/games`: a game of `difficulty` in `category` (nil: any), or, when no
    /// question matches, the no-data screen. Every attempt of one tap sends the same `intent`, so
    /// a retry never starts a second game.
    public func startTriviaGame(_ request: StartTriviaGameRequest, intent: UserIntent = UserIntent()) async throws -> TriviaStart {
        let answer = try await send(.post, "/v1/trivia/games", body: request, intent: intent)
        return answer.status == 201 ? .started(try decode(answer)) : .noData(try decode(answer))
    }

    /// `GET /v1/trivia/games/{gameId}`.
    public func triviaGame(id: String) async throws -> TriviaGame {
        try await decode(send(.get, "/v1/trivia/games/\(Self.segment(id))"))
    }

    /// `POST /v1/trivia/games/{gameId}/answers`. Every attempt of one tap sends the same
    /// `intent`: a retry gets the recorded verdict, not `409 question_already_answered`.
    public func answer(gameId: String, _ request: TriviaAnswerRequest, intent: UserIntent = UserIntent()) async throws -> TriviaAnswerResult {
        try await decode(send(.post, "/v1/trivia/games/\(Self.segment(gameId))/answers", body: request, intent: intent))
    }

    // MARK: Navigation

    /// The path of the navigation endpoint `name` of ``app``.
    private func navigation(_ name: String) -> String {
        app.map { "/v1/apps/\(Self.segment($0))/\(name)" } ?? "/v1/\(name)"
    }

    /// `GET /v1/launch` (`/v1/apps/{app}/launch`): the whole initial UI.
    public func launch() async throws -> NavigationAnswer {
        try await decode(send(.get, navigation("launch")))
    }

    /// `GET /v1/routes` (`/v1/apps/{app}/routes`): the route registry as a tree.
    public func routes() async throws -> RouteTree {
        try await decode(send(.get, navigation("routes")), as: RouteTreeAnswer.self).root
    }

    /// `GET /v1/routes/{routeId}`.
    public func route(id: RouteID) async throws -> RouteDetail {
        try await decode(send(.get, navigation("routes/\(Self.segment(id))")))
    }

    /// `POST /v1/navigate`: a walk from `from`.
    public func navigate(_ request: NavigateRequest) async throws -> NavigationAnswer {
        try await decode(send(.post, navigation("navigate"), body: request))
    }

    /// `GET /v1/resolve` (`/v1/apps/{app}/resolve`): the walk from `from` to the screen `url`
    /// links to. Nil sends no `from`, which the server reads as the root's screen with no
    /// embedded route listed (the point of sale's `tabBar,splitContainer`; trivia's `trivia`),
    /// not as the launch stack: what the embedded screens show is then unknown to the walk.
    public func resolve(url: String, from: [StackEntry]? = nil) async throws -> NavigationAnswer {
        var query = ["url": url]
        if let from { query["from"] = String(decoding: try JSONEncoder.sorted.encode(from), as: UTF8.self) }
        return try await decode(send(.get, navigation("resolve"), query: query))
    }

    // MARK: Health

    /// `GET /healthz`: throws `Problem` `unavailable` when the database does not answer.
    public func health() async throws -> HealthStatus {
        try await decode(send(.get, "/healthz", authorized: false))
    }

    // MARK: Screen actions

    /// Sends a filled screen action (see `ActionRequest`) and returns its answer; a problem+json
    /// answer is thrown as a `Problem`. Like every request, it is retried when it is safe to
    /// repeat: a GET action, or one with an `Idempotency-Key` (sent again with the same key).
    public func send(_ action: ActionRequest) async throws -> ActionAnswer {
        var headers = action.headers
        headers["Content-Type"] = action.body == nil ? nil : "application/json"
        let body = try action.body.map { try JSONEncoder.sorted.encode($0) }
        let answer = try await send(
            action.method, action.path, rawBody: body, headers: headers, repeatable: action.method == .get || headers["Idempotency-Key"] != nil)
        guard answer.isJSON else { throw APIError.unexpectedAnswer(status: answer.status, reason: "not JSON") }
        return ActionAnswer(
            status: answer.status, body: try Self.decode(JSONValue.self, answer), replayed: answer.replayed, data: answer.body)
    }

    // MARK: Sending

    /// An HTTP answer as received.
    struct RawAnswer: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data

        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }

        var isJSON: Bool { header("Content-Type").map { $0.hasPrefix("application/json") } ?? false }
        var isProblem: Bool { header("Content-Type").map { $0.hasPrefix("application/problem+json") } ?? false }
        var replayed: Bool { header("Idempotent-Replayed") == "true" }
    }

    /// Sends a request; `repeatable` (else: a GET, or one with an `intent`) says whether it is
    /// safe to send again: after a lost connection, `409 idempotency_key_in_flight` or a 503 that asks for it.
    private func send(
        _ method: HTTPMethod, _ path: String, query: [String: String] = [:], body: (any Encodable & Sendable)? = nil, intent: UserIntent? = nil,
        headers: [String: String] = [:], authorized: Bool = true, repeatable: Bool? = nil
    ) async throws -> RawAnswer {
        var headers = headers
        if let intent { headers["Idempotency-Key"] = intent.idempotencyKey }
        var data: Data?
        if let body {
            data = try JSONEncoder.sorted.encode(body)
            headers["Content-Type"] = "application/json"
        }
        return try await send(
            method, path, query: query, rawBody: data, headers: headers, authorized: authorized,
            repeatable: repeatable ?? (method == .get || intent != nil))
    }

    private func send(
        _ method: HTTPMethod, _ path: String, query: [String: String] = [:], rawBody: Data?, headers: [String: String],
        authorized: Bool = true, repeatable: Bool
    ) async throws -> RawAnswer {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else { throw URLError(.badURL) }
        components.percentEncodedPath = components.percentEncodedPath.trimmingSuffix("/") + path
        if !query.isEmpty {
            components.percentEncodedQuery = query.sorted { $0.key < $1.key }.map { "\(Self.queryComponent($0.key))=\(Self.queryComponent($0.value))" }
                .joined(separator: "&")
        }
        guard let url = components.url else { throw URLError(.badURL) }
        var request = URLRequest(url: url)
        request.httpMethod = method.rawValue
        request.httpBody = rawBody
        for (name, value) in capabilities.headerFields { request.setValue(value, forHTTPHeaderField: name) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if authorized {
            guard let token else { throw APIError.noToken }
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        var attempt = 1
        while true {
            try Task.checkCancellation()  // a cancelled task sends nothing (more)
            do {
                let (data, response) = try await transport.send(request)
                var fields: [String: String] = [:]
                for case (let name as String, let value as String) in response.allHeaderFields { fields[name] = value }
                let answer = RawAnswer(status: response.statusCode, headers: fields, body: data)
                if answer.isProblem {
                    var problem = try Self.decode(Problem.self, answer)
                    if problem.retryAfterSeconds == nil, let header = answer.header("Retry-After") {
                        problem.retryAfterSeconds = Int(header.trimmingCharacters(in: .whitespaces))
                    }
                    if repeatable, attempt < retry.maxAttempts {
                        if problem.code == .idempotencyKeyInFlight {
                            try await pause(before: &attempt)
                            continue
                        }
                        if let wait = retryWait(after: problem) {
                            try await pause(before: &attempt, atLeast: wait)
                            continue
                        }
                    }
                    throw problem
                }
                return answer
            } catch let error as URLError where repeatable && attempt < retry.maxAttempts && Self.isTransient(error) {
                try await pause(before: &attempt)
            }
        }
    }

    private func pause(before attempt: inout Int, atLeast minimum: Duration = .zero) async throws {
        try await Task.sleep(for: max(minimum, retry.delay * (1 << (attempt - 1))))
        attempt += 1
    }

    /// How long to wait before sending again a repeatable request answered `problem`: a 503 the
    /// spec says to retry after `Retry-After` (`overloaded`: nothing was done; `timed_out`,
    /// `database_unavailable`: the change may have happened, and the same key replays it), when
    /// that is at most `maxRetryAfter`; nil for anything else.
    private func retryWait(after problem: Problem) -> Duration? {
        guard problem.status == 503, [.overloaded, .timedOut, .databaseUnavailable].contains(problem.code) else { return nil }
        let wait = Duration.seconds(max(0, problem.retryAfterSeconds ?? 0))
        return wait <= retry.maxRetryAfter ? wait : nil
    }

    /// Failures after which the request may or may not have reached the server: worth a retry
    /// when repeating it is safe.
    private static func isTransient(_ error: URLError) -> Bool {
        [.timedOut, .networkConnectionLost, .cannotConnectToHost, .notConnectedToInternet, .cannotFindHost, .dnsLookupFailed]
            .contains(error.code)
    }

    private func decode<T: Decodable>(_ answer: RawAnswer, as type: T.Type = T.self) throws -> T {
        guard (200..<300).contains(answer.status), answer.isJSON else {
            throw APIError.unexpectedAnswer(status: answer.status, reason: "expected a JSON answer, got \(answer.header("Content-Type") ?? "no content type")")
        }
        return try Self.decode(T.self, answer)
    }

    private func replayable<T: Decodable & Sendable>(_ answer: RawAnswer) throws -> Replayable<T> {
        Replayable(answer: try decode(answer), replayed: answer.replayed)
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ answer: RawAnswer) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: answer.body)
        } catch {
            throw APIError.unexpectedAnswer(status: answer.status, reason: "the body does not decode as \(T.self): \(error)")
        }
    }

    /// A path segment: everything but unreserved characters percent-encoded.
    static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlUnreserved) ?? text
    }

    private static func queryComponent(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlUnreserved) ?? text
    }
}

/// An answer to `If-None-Match`.
public enum Conditional<Value: Sendable>: Sendable {
    case modified(Value, etag: String?)
    case notModified
}

/// The answer to a screen action: its JSON body, and whether it was a replay.
public struct ActionAnswer: Sendable {
    public var status: Int
    public var body: JSONValue
    public var replayed: Bool
    /// The body's bytes, to decode as the action's answer type.
    public var data: Data

    /// The body as `type` (e.g. `PaymentAnswer` for `pay`).
    public func decode<T: Decodable>(_ type: T.Type) throws -> T { try JSONDecoder().decode(T.self, from: data) }

    /// The answer's navigation, when it has some (`navigation`, and `stack` when present);
    /// throws when it is there but does not decode.
    public func navigation() throws -> NavigationAnswerParts? {
        guard let steps = body["navigation"] else { return nil }
        return NavigationAnswerParts(navigation: try steps.decode([Step].self), stack: try body["stack"]?.decode([StackEntry].self))
    }
}

/// The navigation part of any answer.
public struct NavigationAnswerParts: NavigatingAnswer {
    public var navigation: [Step]
    public var stack: [StackEntry]?
}

extension CharacterSet {
    /// RFC 3986's unreserved characters: letters, digits, `-`, `.`, `_`, `~`.
    static let urlUnreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}

extension JSONEncoder {
    /// Keys sorted, so the same body is always the same bytes.
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
