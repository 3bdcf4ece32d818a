/// A broken business rule: what a cashier's request asked for that the rules do not allow.
///
/// Each case carries what a client needs to explain it. Storage failures are not `POSError`s.
public enum POSError: StateConflict, Sendable, Equatable {
    case billNotFound(String)
    /// No payment with this id paid one of the device's bills.
    case paymentNotFound(String)
    /// A page cursor that is not one of the device's bills.
    case invalidCursor(String)
    case lineNotFound(String)
    case unknownMenuItem(String)
    /// The item is marked unavailable, or cannot be sold on this bill (priced in another currency,
    /// or with a negative price).
    case menuItemUnavailable(String)
    /// The shop counts the item and none is left (``MenuItem/isSoldOut``): refused as an
    /// unavailable item is (the same problem), saying why.
    case menuItemSoldOut(String)
    /// Editing and checkout need an open bill; this is the bill's actual status.
    case billNotOpen(BillStatus)
    /// An empty bill cannot be checked out.
    case billEmpty
    /// Paying and cancelling a checkout need a checked-out bill; this is the bill's actual status.
    case billNotCheckedOut(BillStatus)
    /// The payment's amount is not what is due on the bill (its total less earlier payments).
    case amountMismatch(expectedMinor: Int64, receivedMinor: Int64)
    /// A partial payment asked to pay more than is due on the bill.
    case amountExceedsDue(dueMinor: Int64, receivedMinor: Int64)
    /// Part of the bill is paid (`paidMinor`): its checkout cannot be cancelled nor the bill
    /// voided until the rest is paid (then a manager refunds).
    case billPartlyPaid(paidMinor: Int64)
    /// A refund of a bill paid by several payments must name the payment it gives back part of.
    case refundNeedsPayment(paymentIds: [String])
    /// The refund names a payment that is not one of the bill's.
    case unknownPayment(String)
    /// Cash tendered is less than what the payment charges: the bill's total and the tip.
    case insufficientTender(chargedMinor: Int64, tenderedMinor: Int64)
    /// Voiding and resuming need a bill that is open or checked out; this is the bill's actual
    /// status (paid or voided).
    case billSettled(BillStatus)
    /// The requested quantity is outside `1...limit`, the till's ``BillLimits/maxQuantityPerLine``.
    case quantityOutOfRange(quantity: Int, limit: Int)
    /// The quantity is within the limits, but the line's amount or the bill's totals would not
    /// fit in 64 bits of minor units (only prices far above any real menu's reach this).
    case amountOutOfRange(quantity: Int)
    /// Adding to a line already on the bill would raise its quantity to `quantity`, past
    /// `limit`: a limit of what the bill holds, not of the request.
    case lineQuantityLimit(quantity: Int, limit: Int)
    /// A new line would exceed the bill's line limit.
    case tooManyLines(limit: Int)
    /// A card payment carried a `tenderedMinor` different from its amount and tip.
    case tenderNotAllowed
    /// A menu item with this id exists, or existed (a retired item's id is never reused).
    case menuItemExists(String)
    /// No menu item on the menu has this id (to change or retire it).
    case menuItemNotFound(String)
    /// An item names a category that is not on the menu.
    case unknownCategory(String)
    /// A category with this id exists, or existed.
    case menuCategoryExists(String)
    /// No category on the menu has this id (to rename or retire it).
    case menuCategoryNotFound(String)
    /// The category still holds items on the menu: move or retire them first.
    case categoryNotEmpty(String)
    /// A bill can be transferred only to an enrolled device that is not revoked; this id names
    /// no such device.
    case deviceNotActive(String)
    /// Only a manager may act on another device's bills (list them, transfer a bill), refund a
    /// bill or read the sales report.
    case managerOnly
    /// A refund and a receipt need a paid bill; this is the bill's actual status.
    case billNotPaid(BillStatus)
    /// The refund asked for more than is left of the bill's payment after its earlier refunds:
    /// at most `refundableMinor` may still be refunded.
    case refundExceedsPayment(refundableMinor: Int64)
    /// A till may give a discount of at most `limitBasisPoints` of the bill's subtotal (the
    /// server's till discount limit); this one is `shareBasisPoints` of it: a manager gives it.
    case discountNeedsManager(limitBasisPoints: Int, shareBasisPoints: Int)
    /// An add named an option that is not one of the item's modifier options.
    case unknownModifier(menuItemId: String, optionId: String)
    /// An add chose `chosen` options of a modifier group that takes `minChoices` to
    /// `maxChoices` (a required group left out is 0 of at least 1).
    case modifierChoiceInvalid(menuItemId: String, groupId: String, groupName: String, minChoices: Int, maxChoices: Int, chosen: Int)
    /// The device has an open shift already (`shiftId`): close it before opening another.
    case shiftAlreadyOpen(shiftId: String)
    /// Recording cash paid in or out of the drawer, and closing a shift, need an open shift on
    /// the device; it has none.
    case noOpenShift
    /// A pay-out of more cash than the drawer should hold: at most `expectedCashMinor`.
    case insufficientCash(expectedCashMinor: Int64)
    /// No shift with this id that the caller may read (a till reads only its own).
    case shiftNotFound(String)

    /// A conflict with the bill's current state (not with the request's content): a retry
    /// with the same key must get the same answer, so these outcomes are recorded.
    public var isStateConflict: Bool {
        switch self {
        case .billNotOpen, .billEmpty, .billNotCheckedOut, .billSettled, .lineQuantityLimit, .tooManyLines,
            .menuItemExists, .menuCategoryExists, .categoryNotEmpty, .billNotPaid, .refundExceedsPayment, .discountNeedsManager,
            .amountExceedsDue, .billPartlyPaid, .shiftAlreadyOpen, .noOpenShift, .insufficientCash:
            true
        default: false
        }
    }
}
