/// Where a bill is in its life: `open` (being edited) → `checkedOut` (frozen, awaiting payment)
/// → `paid`. A checkout can be cancelled back to `open`.
public enum BillStatus: String, Sendable, CaseIterable {
    case open
    case checkedOut = "checked_out"
    case paid
}
