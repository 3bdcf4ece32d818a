extension Bill {
    /// Adds `quantity` of `item` with the options `modifiers` (``MenuItem/chosenModifiers(_:)``)
    /// and the note `note`: a new line at the end, at the item's price plus the options', or, if
    /// a line of the same item with the same options (in any order) and the same note (or none,
    /// as none) is on the bill, that line's quantity raised (keeping the prices captured when it
    /// was first added).
    ///
    /// Throws `billNotOpen`, `menuItemUnavailable` (unavailable, another currency or a negative
    /// price), `quantityOutOfRange` (for `quantity`), `lineQuantityLimit` (the merged quantity),
    /// `tooManyLines` or `amountOutOfRange`.
    /// - Parameter newLineId: the id a new line gets; unused when the item merges into a line.
    public mutating func add(
        _ item: MenuItem, quantity: Int, modifiers: [BillLineModifier] = [], note: LineNote? = nil, limits: BillLimits = BillLimits(),
        newLineId: String = Identifier.make(prefix: "line_")
    ) throws(POSError) {
        try requireOpen()
        try requireSellable(item)
        guard limits.quantityRange.contains(quantity) else {
            throw .quantityOutOfRange(quantity: quantity, limit: limits.maxQuantityPerLine)
        }
        var newLines = lines
        let optionIds = Set(modifiers.map(\.optionId))
        if let index = lines.firstIndex(where: { $0.holds(item.id, optionIds: optionIds, note: note) }) {
            let (merged, overflow) = lines[index].quantity.addingReportingOverflow(quantity)
            guard !overflow, limits.quantityRange.contains(merged) else {
                throw .lineQuantityLimit(quantity: overflow ? Int.max : merged, limit: limits.maxQuantityPerLine)
            }
            guard let line = lines[index].with(quantity: merged, note: note) else { throw .amountOutOfRange(quantity: merged) }
            newLines[index] = line
            try replaceLines(newLines, blamingQuantity: merged)
        } else {
            guard lines.count < limits.maxLines else { throw .tooManyLines(limit: limits.maxLines) }
            guard let unitPrice = item.unitPriceMinor(with: modifiers), let line = BillLine(
                checkedLineId: newLineId, menuItemId: item.id, name: item.name, quantity: quantity,
                unitPriceMinor: unitPrice, modifiers: modifiers, note: note)
            else { throw .amountOutOfRange(quantity: quantity) }
            newLines.append(line)
            try replaceLines(newLines, blamingQuantity: quantity)
        }
    }

    /// Sets a line's quantity. Setting the quantity it already has changes nothing (no new version).
    ///
    /// Raising it sells more of the line's item, so the item must still be sold, as ``add(_:quantity:modifiers:note:limits:newLineId:)``
    /// requires: no longer on the menu (retired) is `unknownMenuItem`, unavailable is
    /// `menuItemUnavailable`. Lowering it never looks at the item: a sold-out or retired item can
    /// always be taken down. The line keeps its price either way.
    ///
    /// Throws `billNotOpen`, `lineNotFound`, `quantityOutOfRange`, then when raising
    /// `unknownMenuItem` or `menuItemUnavailable`, then `amountOutOfRange`.
    /// - Parameter item: the line's menu item as the menu has it now, `nil` when it is not on the
    ///   menu; only raising reads it.
    public mutating func setQuantity(lineId: String, quantity: Int, item: MenuItem?, limits: BillLimits = BillLimits()) throws(POSError) {
        try changeLine(lineId: lineId, quantity: quantity, item: item, limits: limits)
    }

    /// Changes a line's quantity (as ``setQuantity(lineId:quantity:item:limits:)``, when
    /// `quantity` is given) and its note (when `note` is given: `.some(nil)` removes it), as one
    /// change (one new version). A change that leaves the line as it was changes nothing (no new
    /// version).
    ///
    /// A note changes what the line is, not what it sells: it needs neither the item nor its
    /// price. A line whose new note makes it look like another line (same item, options and
    /// note) stays a line of its own: lines merge only when added, never when changed, so a line's
    /// id stays the line a client is showing.
    ///
    /// Throws `billNotOpen`, `lineNotFound`, `quantityOutOfRange`, then when raising
    /// `unknownMenuItem` or `menuItemUnavailable`, then `amountOutOfRange`.
    public mutating func changeLine(
        lineId: String, quantity: Int? = nil, note: LineNote?? = nil, item: MenuItem? = nil, limits: BillLimits = BillLimits()
    ) throws(POSError) {
        try requireOpen()
        guard let index = lines.firstIndex(where: { $0.lineId == lineId }) else { throw .lineNotFound(lineId) }
        let old = lines[index]
        // Only a quantity given is checked: a note changes on a line whatever its quantity.
        let newQuantity = quantity ?? old.quantity
        if quantity != nil, !limits.quantityRange.contains(newQuantity) {
            throw .quantityOutOfRange(quantity: newQuantity, limit: limits.maxQuantityPerLine)
        }
        if newQuantity > old.quantity {
            guard let item, item.id == old.menuItemId else { throw .unknownMenuItem(old.menuItemId) }
            try requireSellable(item)
        }
        guard let line = old.with(quantity: newQuantity, note: note ?? old.lineNote) else {
            throw .amountOutOfRange(quantity: newQuantity)
        }
        guard line != old else { return }
        var newLines = lines
        newLines[index] = line
        try replaceLines(newLines, blamingQuantity: newQuantity)
    }

    /// Removes a line; the others keep their order. Throws `billNotOpen` or `lineNotFound`.
    public mutating func removeLine(lineId: String) throws(POSError) {
        try requireOpen()
        guard let index = lines.firstIndex(where: { $0.lineId == lineId }) else { throw .lineNotFound(lineId) }
        var newLines = lines
        let removed = newLines.remove(at: index)
        // Fewer lines cannot overflow: the totals only shrink.
        try replaceLines(newLines, blamingQuantity: removed.quantity)
    }

    /// Throws `menuItemUnavailable` unless `item` can be sold on this bill: available, priced in
    /// the bill's currency, and not at a negative price; then `menuItemSoldOut` when the shop
    /// counts it and none is left. The count is not reserved: open bills may hold more than it.
    func requireSellable(_ item: MenuItem) throws(POSError) {
        guard item.available, item.currency == currency, item.priceMinor >= 0 else { throw .menuItemUnavailable(item.id) }
        guard !item.isSoldOut else { throw .menuItemSoldOut(item.id) }
    }

    /// Throws `billNotOpen(status)` unless the bill is open.
    func requireOpen() throws(POSError) {
        guard status == .open else { throw .billNotOpen(status) }
    }

    /// Throws `billNotCheckedOut(status)` unless the bill is checked out.
    func requireCheckedOut() throws(POSError) {
        guard status == .checkedOut else { throw .billNotCheckedOut(status) }
    }
}
