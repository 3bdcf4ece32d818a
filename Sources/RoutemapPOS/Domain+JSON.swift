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
        return .object(object)
    }
}

extension Bill {
    var json: JSON {
        var object: JSONObject = [
            "id": .string(id),
            "status": .string(status.rawValue),
            "lines": .array(lines.map(\.json)),
            "subtotalMinor": .int(subtotalMinor),
            "discountMinor": .int(discountMinor),
            "taxMinor": .int(taxMinor),
            "totalMinor": .int(totalMinor),
            "currency": .string(currency.rawValue),
            "version": .int(Int64(version)),
            // Split tender: what the payments paid and what is left, and the payments, oldest first.
            "paidMinor": .int(paidMinor),
            "dueMinor": .int(dueMinor),
            "payments": .array(payments.map(\.json)),
        ]
        if let discount { object.append("discount", discount.json) }
        if let voiding { object.append("void", ["reason": .string(voiding.reason), "voidedAt": .string(voiding.voidedAt.wireText)]) }
        return .object(object)
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
