/// An RFC 9457 problem+json answer: every routemap error, with its stable `code`.
public struct Problem: Codable, Sendable, Hashable, WireObjectWithKeys {
    /// `urn:routemap:problem:<code>`.
    public var type: String
    public var title: String
    public var status: Int
    public var detail: String
    public var code: ProblemCode
    /// `invalid_field`: the member or header at fault.
    public var field: String?
    /// `unknown_menu_item`, `menu_item_unavailable`, `menu_item_exists`: the item asked for.
    public var menuItemId: String?
    /// `unknown_category`, `menu_category_exists`, `category_not_empty`: the category.
    public var category: String?
    /// `amount_mismatch`: what is due on the bill (its total when nothing is paid yet).
    public var expectedMinor: Int64?
    /// `payload_too_large`: the largest body accepted, in bytes; `line_quantity_limit`: the most
    /// a line holds; `too_many_lines`: the most lines a bill holds.
    public var limit: Int?
    /// Seconds to wait before trying again: `too_many_requests`'s member, and, for an answer
    /// without it (a 503: `overloaded`, `timed_out`, `shutting_down`, `database_unavailable`),
    /// the answer's `Retry-After` header, which `APIClient` copies here.
    public var retryAfterSeconds: Int?
    /// `missing_input`: the input's name.
    public var input: String?
    /// `missing_input`: the route whose screen needs it; a failed guard: the guarded route.
    public var route: String?
    /// A failed guard: the guard's name.
    public var routeGuard: String?
    /// The trivia answer problems: the question the answer named.
    public var questionId: String?
    /// `question_not_current`: the question to answer first.
    public var currentQuestionId: String?
    /// `device_not_active`: the device a bill was to be given to.
    public var deviceId: String?
    /// `refund_exceeds_payment`: what may still be refunded on the bill.
    public var refundableMinor: Int64?
    /// For `discount_needs_manager`: the largest discount a till may give, in basis points of the subtotal.
    public var limitBps: Int?
    /// For `discount_needs_manager`: the discount asked for, in basis points of the subtotal.
    public var shareBps: Int?
    /// `amount_exceeds_due`: what is due on the bill.
    public var dueMinor: Int64?
    /// `bill_partly_paid`: what the bill's payments paid so far.
    public var paidMinor: Int64?
    /// `payment_id_required`: the bill's payments, oldest first.
    public var paymentIds: [String]?
    /// `unknown_payment`: the payment named.
    public var paymentId: String?
    /// For `unknown_modifier`: the option id that is not the item's.
    public var optionId: String?
    /// For `modifier_choice_invalid`: the group chosen wrongly, its bounds, and how many were chosen.
    public var groupId: String?
    public var minChoices: Int?
    public var maxChoices: Int?
    public var chosen: Int?
    /// `shift_already_open`: the device's open shift.
    public var shiftId: String?
    /// `insufficient_cash`: the cash the drawer should hold.
    public var expectedCashMinor: Int64?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case type, title, status, detail, code, field, menuItemId, category, expectedMinor, limit, retryAfterSeconds, input, route
        case routeGuard = "guard"
        case questionId, currentQuestionId, deviceId, refundableMinor, limitBps, shareBps, dueMinor, paidMinor, paymentIds, paymentId
        case optionId, groupId, minChoices, maxChoices, chosen, shiftId, expectedCashMinor
    }
}
