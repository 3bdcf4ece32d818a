import Foundation
import RoutemapDomain
import RoutemapJSON

// The wire shapes of the domain's values (openapi.yaml's schemas of the same names).

extension MenuCategory {
    var json: JSON { ["id": .string(id), "name": .string(name)] }
}

extension MenuItem {
    var json: JSON {
        var object: JSONObject = [
            "id": .string(id),
            "name": .string(name),
            "category": .string(category),
            "priceMinor": .int(priceMinor),
            "currency": .string(currency.rawValue),
            "available": .bool(available),
        ]
        // Absent when there are none: an item without modifiers encodes as before they existed.
        if !modifierGroups.isEmpty { object.append("modifierGroups", .array(modifierGroups.map(\.json))) }
        // Absent when not counted, as before counts existed; 0 or below is sold out.
        if let stock { object.append("stock", .int(Int64(stock))) }
        return .object(object)
    }
}

extension BillLine {
    var json: JSON {
        var object: JSONObject = [
            "lineId": .string(lineId),
            "menuItemId": .string(menuItemId),
            "name": .string(name),
            "quantity": .int(Int64(quantity)),
            "unitPriceMinor": .int(unitPriceMinor),
            "lineTotalMinor": .int(lineTotalMinor),
        ]
        // Each option's id, name and price as added; absent on a line without any.
        if !modifiers.isEmpty { object.append("modifiers", .array(modifiers.map(\.json))) }
        // The cashier's instruction; absent on a line without one (as from a server before notes).
        if let note { object.append("note", .string(note)) }
        return .object(object)
    }
}

extension Bill {
    var json: JSON {
        var object: JSONObject = ["id": .string(id), "status": .string(status.rawValue), "lines": .array(lines.map(\.json))]
        object.appendTotals(of: self)
        object.append("currency", .string(currency.rawValue))
        object.append("version", .int(Int64(version)))
        // Split tender: what the payments paid and what is left, and the payments, oldest first.
        object.appendSettlement(of: self)
        object.append("payments", .array(payments.map(\.json)))
        if let discount { object.append("discount", discount.json) }
        // The cashier's name for the bill; absent on a bill without one (as from a server before labels).
        if let label { object.append("label", .string(label)) }
        if let voiding { object.append("void", ["reason": .string(voiding.reason), "voidedAt": .string(voiding.voidedAt.wireText)]) }
        return .object(object)
    }
}

/// A bill's money as every schema that shows it writes it (openapi.yaml's `Bill`,
/// `BillListEntry`, `OrderSummaryPayload` and `Receipt`): one builder, so that none of them can
/// drift from the others (the bill list once showed a discounted bill's total without its
/// discount).
extension JSONObject {
    /// How a schema writes a bill's tax.
    enum BillTax {
        /// `taxMinor`: the amount.
        case minor
        /// `tax: {rateBps, amountMinor}` (`Receipt`): the bill's rate and the amount.
        case withRate
    }

    /// Appends `subtotalMinor`, `discountMinor` (0 without a discount), the tax as `tax` says
    /// and `totalMinor`, in that order: subtotal − discount + tax = total.
    mutating func appendTotals(of bill: Bill, tax: BillTax = .minor) {
        append("subtotalMinor", .int(bill.subtotalMinor))
        append("discountMinor", .int(bill.discountMinor))
        switch tax {
        case .minor: append("taxMinor", .int(bill.taxMinor))
        case .withRate: append("tax", ["rateBps": .int(Int64(bill.taxRate.basisPoints)), "amountMinor": .int(bill.taxMinor)])
        }
        append("totalMinor", .int(bill.totalMinor))
    }

    /// Appends `paidMinor` and `dueMinor` (split tender): what the bill's payments paid and what
    /// is still due, the total less that while it is unsettled.
    mutating func appendSettlement(of bill: Bill) {
        append("paidMinor", .int(bill.paidMinor))
        append("dueMinor", .int(bill.dueMinor))
    }
}

extension BillDiscount {
    /// The `Discount` schema: the discount as given (`percentBps` or `amountMinor`) and its reason.
    var json: JSON {
        switch kind {
        case .percent(let rate): ["percentBps": .int(Int64(rate.basisPoints)), "reason": .string(reason)]
        case .amount(let amount): ["amountMinor": .int(amount), "reason": .string(reason)]
        }
    }
}

extension Payment {
    var json: JSON {
        [
            "id": .string(id),
            "billId": .string(billId),
            "receiptNumber": .int(receiptNumber),
            "method": .string(method.rawValue),
            "amountMinor": .int(amountMinor),
            "tipMinor": .int(tipMinor),
            "chargedMinor": .int(chargedMinor),
            "tenderedMinor": .int(tenderedMinor),
            "changeMinor": .int(changeMinor),
            "createdAt": .string(createdAt.wireText),
        ]
    }
}
