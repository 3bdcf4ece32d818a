/// Where a bill is in its life: `open` (being edited) → `checkedOut` (frozen, awaiting payment)
/// → `paid`. A checkout can be cancelled back to `open`. An open or checked-out bill can be
/// `voided` instead (opened by mistake, a customer who left): it keeps its lines for the
/// record and takes no further change.
public enum BillStatus: String, Sendable, CaseIterable {
    case open
    case checkedOut = "checked_out"
    case paid
    case voided

    /// Not yet settled (paid or voided): the bill is one of its till's open orders.
    public var isUnsettled: Bool { self == .open || self == .checkedOut }
}
