import RoutemapDomain
import RoutemapHTTP

extension POSError {
    /// The problem a client receives for a broken business rule.
    public var problem: Problem {
        switch self {
        case .billNotFound(let id):
            return .notFound("bill", id)
        case .lineNotFound(let id):
            return .notFound("bill line", id)
        case .paymentNotFound(let id):
            return .notFound("payment", id)
        case .invalidCursor(let cursor):
            return .invalidField("cursor", "'\(cursor.prefix(64))' is not a cursor of this list; pass a nextCursor it gave.")
        case .billSettled(let status):
            return Problem(
                status: .conflict, code: "bill_settled", title: "Bill settled",
                detail: "The bill is \(status.rawValue); only an open or checked-out bill can be resumed, voided or transferred.")
        case .unknownMenuItem(let id):
            return Problem(
                status: .unprocessableContent, code: "unknown_menu_item", title: "Unknown menu item",
                detail: "There is no menu item '\(id)'.", extensions: ["menuItemId": .string(id)])
        case .menuItemUnavailable(let id):
            return Problem(
                status: .unprocessableContent, code: "menu_item_unavailable", title: "Menu item unavailable",
                detail: "The menu item '\(id)' is not available right now.", extensions: ["menuItemId": .string(id)])
        case .menuItemSoldOut(let id):
            return Problem(
                status: .unprocessableContent, code: "menu_item_unavailable", title: "Menu item unavailable",
                detail: "The menu item '\(id)' is sold out: none is left.", extensions: ["menuItemId": .string(id)])
        case .billNotOpen(let status):
            return Problem(
                status: .conflict, code: "bill_not_open", title: "Bill not open",
                detail: "The bill is \(status.rawValue); only an open bill can be changed or checked out.")
        case .billEmpty:
            return Problem(
                status: .conflict, code: "bill_empty", title: "Bill empty", detail: "An empty bill cannot be checked out.")
        case .billNotCheckedOut(let status):
            return Problem(
                status: .conflict, code: "bill_not_checked_out", title: "Bill not checked out",
                detail: "The bill is \(status.rawValue); only a checked-out bill can be paid or have its checkout cancelled.")
        case .amountMismatch(let expected, let received):
            return Problem(
                status: .unprocessableContent, code: "amount_mismatch", title: "Amount mismatch",
                detail: "amountMinor is \(received) but the amount due on the bill (its total less what is paid) is \(expected).",
                extensions: ["expectedMinor": .int(expected)])
        case .amountExceedsDue(let due, let received):
            return Problem(
                status: .conflict, code: "amount_exceeds_due", title: "Amount exceeds due",
                detail: "amountMinor is \(received) but only \(due) is due on the bill.", extensions: ["dueMinor": .int(due)])
        case .billPartlyPaid(let paid):
            return Problem(
                status: .conflict, code: "bill_partly_paid", title: "Bill partly paid",
                detail: "\(paid) of the bill is paid; take the rest of it (then refund) instead of cancelling its checkout or voiding it.",
                extensions: ["paidMinor": .int(paid)])
        case .refundNeedsPayment(let ids):
            return Problem(
                status: .unprocessableContent, code: "payment_id_required", title: "Payment required",
                detail: "The bill was paid by \(ids.count) payments; name the one to refund with paymentId.",
                extensions: ["paymentIds": .array(ids.map { .string($0) })])
        case .unknownPayment(let id):
            return Problem(
                status: .unprocessableContent, code: "unknown_payment", title: "Unknown payment",
                detail: "'\(id.prefix(64))' is not one of the bill's payments.", extensions: ["paymentId": .string(String(id.prefix(64)))])
        case .insufficientTender(let charged, let tendered):
            return Problem(
                status: .unprocessableContent, code: "insufficient_tender", title: "Insufficient tender",
                detail: "Cash tendered (\(tendered)) is less than the total and tip (\(charged)).")
        case .quantityOutOfRange(let quantity, let limit):
            return .invalidField("quantity", "The line's quantity would be \(quantity); it must be 1 to \(limit).")
        case .amountOutOfRange(let quantity):
            return .invalidField(
                "quantity", "A quantity of \(quantity) would make the bill's amounts larger than \(Int64.max) minor units.")
        case .lineQuantityLimit(let quantity, let limit):
            return Problem(
                status: .unprocessableContent, code: "line_quantity_limit", title: "Line quantity limit",
                detail: "The line would hold \(quantity); a line holds at most \(limit).", extensions: ["limit": .int(Int64(limit))])
        case .tooManyLines(let limit):
            return Problem(
                status: .unprocessableContent, code: "too_many_lines", title: "Too many lines",
                detail: "The bill holds \(limit) lines already, the most a bill holds.", extensions: ["limit": .int(Int64(limit))])
        case .menuItemExists(let id):
            return Problem(
                status: .conflict, code: "menu_item_exists", title: "Menu item exists",
                detail: "A menu item '\(id)' exists or existed (a retired item's id is not reused).",
                extensions: ["menuItemId": .string(id)])
        case .menuItemNotFound(let id):
            return .notFound("menu item", id)
        case .unknownCategory(let id):
            return Problem(
                status: .unprocessableContent, code: "unknown_category", title: "Unknown category",
                detail: "There is no category '\(id)' on the menu.", extensions: ["category": .string(id)])
        case .menuCategoryExists(let id):
            return Problem(
                status: .conflict, code: "menu_category_exists", title: "Category exists",
                detail: "A category '\(id)' exists or existed (a retired category's id is not reused).", extensions: ["category": .string(id)])
        case .menuCategoryNotFound(let id):
            return .notFound("category", id)
        case .categoryNotEmpty(let id):
            return Problem(
                status: .conflict, code: "category_not_empty", title: "Category not empty",
                detail: "The category '\(id)' still holds items on the menu; move or retire them first.", extensions: ["category": .string(id)])
        case .deviceNotActive(let id):
            return Problem(
                status: .unprocessableContent, code: "device_not_active", title: "Device not active",
                detail: "There is no active device '\(id.prefix(64))' to give the bill to: it is unknown or revoked.",
                extensions: ["deviceId": .string(String(id.prefix(64)))])
        case .managerOnly:
            return .managerOnly
        case .billNotPaid(let status):
            return Problem(
                status: .conflict, code: "bill_not_paid", title: "Bill not paid",
                detail: "The bill is \(status.rawValue); only a paid bill can be refunded or has a receipt.")
        case .refundExceedsPayment(let refundable):
            return Problem(
                status: .unprocessableContent, code: "refund_exceeds_payment", title: "Refund exceeds payment",
                detail: "Only \(refundable) minor units of the bill's payment are left to refund.",
                extensions: ["refundableMinor": .int(refundable)])
        case .discountNeedsManager(let limit, let share):
            return Problem(
                status: .forbidden, code: "discount_needs_manager", title: "Discount needs a manager",
                detail: "This discount is \(share) basis points of the bill's subtotal; a till may give at most \(limit). A manager device may give it.",
                extensions: ["limitBps": .int(Int64(limit)), "shareBps": .int(Int64(share))])
        case .tenderNotAllowed:
            return .invalidField("tenderedMinor", "For card payments tenderedMinor must be omitted or equal amountMinor + tipMinor.")
        case .unknownModifier(let item, let option):
            return Problem(
                status: .unprocessableContent, code: "unknown_modifier", title: "Unknown modifier",
                detail: "The menu item '\(item)' has no modifier option '\(option.prefix(64))'.",
                extensions: ["menuItemId": .string(item), "optionId": .string(String(option.prefix(64)))])
        case .modifierChoiceInvalid(let item, let group, let name, let min, let max, let chosen):
            let wanted = min == max ? "\(min)" : "\(min) to \(max)"
            return Problem(
                status: .unprocessableContent, code: "modifier_choice_invalid", title: "Modifier choice invalid",
                detail: "\(name) takes \(wanted) choice\(max == 1 ? "" : "s"); \(chosen) \(chosen == 1 ? "was" : "were") chosen.",
                extensions: [
                    "menuItemId": .string(item), "groupId": .string(group), "minChoices": .int(Int64(min)), "maxChoices": .int(Int64(max)),
                    "chosen": .int(Int64(chosen)),
                ])
        case .shiftAlreadyOpen(let id):
            return Problem(
                status: .conflict, code: "shift_already_open", title: "Shift already open",
                detail: "This device has an open shift ('\(id)'); close it before opening another.", extensions: ["shiftId": .string(id)])
        case .noOpenShift:
            return Problem(
                status: .conflict, code: "no_open_shift", title: "No open shift",
                detail: "This device has no open shift; open one with POST /v1/shifts.")
        case .insufficientCash(let expected):
            return Problem(
                status: .conflict, code: "insufficient_cash", title: "Insufficient cash",
                detail: "The drawer should hold \(expected) minor units; a pay-out cannot take more.",
                extensions: ["expectedCashMinor": .int(expected)])
        case .shiftNotFound(let id):
            return .notFound("shift", id)
        }
    }
}
