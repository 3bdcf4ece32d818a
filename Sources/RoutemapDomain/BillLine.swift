/// One line of a bill: a menu item, its name and unit price captured when it was added (later
/// menu changes do not alter the bill), the modifiers chosen with it (captured likewise), a
/// quantity, and maybe a note ("extra hot").
///
/// A line always has a quantity of at least 1, a unit price of at least 0, a total that fits in
/// `Int64`, and a note that is `nil` or follows ``LineNote``'s rule (trimmed, 1 to 140
/// characters): the initializer checks, so reading ``lineTotalMinor`` never traps.
///
/// A line is its item, its options (as a set) and its note: adding the same item with the same
/// options and the same note raises the line; "latte" and "latte, extra hot" are two lines.
public struct BillLine: Sendable, Hashable {
    /// `line_` followed by 22 random base62 characters.
    public let lineId: String
    public let menuItemId: String
    public let name: String
    public let quantity: Int
    /// The item's price plus its modifiers' prices, when it was added.
    public let unitPriceMinor: Int64
    /// `quantity × unitPriceMinor`.
    public let lineTotalMinor: Int64
    /// The options chosen with the item, in menu order; empty for most lines. Part of the line's
    /// identity: adding the same item with the same options raises this line.
    public let modifiers: [BillLineModifier]
    /// The cashier's instruction on the line ("no onions"); `nil` for none. Part of the line's
    /// identity, as its options are.
    public let lineNote: LineNote?
    /// ``lineNote``'s text.
    public var note: String? { lineNote?.text }

    /// A line as stored; throws if the quantity is below 1, the price negative, the total would
    /// overflow, or the note is not one ``LineNote`` would keep (empty, untrimmed, too long).
    public init(
        lineId: String, menuItemId: String, name: String, quantity: Int, unitPriceMinor: Int64, modifiers: [BillLineModifier] = [],
        note: String? = nil
    ) throws(InvariantViolation) {
        let lineNote = note.flatMap { LineNote(stored: $0) }
        guard (note == nil) == (lineNote == nil) else {
            throw InvariantViolation("bill line \(lineId): its note is not a note (empty, untrimmed, over 140 characters or with U+0000)")
        }
        guard
            let line = BillLine(
                checkedLineId: lineId, menuItemId: menuItemId, name: name, quantity: quantity, unitPriceMinor: unitPriceMinor,
                modifiers: modifiers, note: lineNote)
        else {
            throw InvariantViolation(
                "bill line \(lineId): quantity \(quantity) × unit price \(unitPriceMinor) is not a valid line")
        }
        self = line
    }

    /// `nil` unless quantity ≥ 1, price ≥ 0 and the total fits in `Int64`.
    init?(
        checkedLineId lineId: String, menuItemId: String, name: String, quantity: Int, unitPriceMinor: Int64,
        modifiers: [BillLineModifier] = [], note: LineNote? = nil
    ) {
        guard quantity >= 1, unitPriceMinor >= 0 else { return nil }
        let (total, overflow) = Int64(quantity).multipliedReportingOverflow(by: unitPriceMinor)
        guard !overflow else { return nil }
        self.lineId = lineId
        self.menuItemId = menuItemId
        self.name = name
        self.quantity = quantity
        self.unitPriceMinor = unitPriceMinor
        self.lineTotalMinor = total
        self.modifiers = modifiers
        self.lineNote = note
    }

    /// The same line with another quantity and note, or `nil` if that line would not be valid.
    func with(quantity newQuantity: Int, note newNote: LineNote?) -> BillLine? {
        BillLine(
            checkedLineId: lineId, menuItemId: menuItemId, name: name, quantity: newQuantity, unitPriceMinor: unitPriceMinor,
            modifiers: modifiers, note: newNote)
    }

    /// Whether this line is `menuItemId` with exactly the options `optionIds` (in any order) and
    /// the note `note`: the line an add of them raises.
    func holds(_ menuItemId: String, optionIds: Set<String>, note: LineNote?) -> Bool {
        self.menuItemId == menuItemId && lineNote == note && modifiers.count == optionIds.count
            && modifiers.allSatisfy { optionIds.contains($0.optionId) }
    }
}
