import Foundation
import RoutemapDomain
import RoutemapJSON

// The wire shapes of the domain's values (openapi.yaml's schemas of the same names).

extension MenuCategory {
    var json: JSON { ["id": .string(id), "name": .string(name)] }
}

extension MenuItem {
    var json: JSON {
        [
            "id": .string(id),
            "name": .string(name),
            "category": .string(category),
            "priceMinor": .int(priceMinor),
            "currency": .string(currency.rawValue),
            "available": .bool(available),
        ]
    }
}

extension BillLine {
    var json: JSON {
        [
            "lineId": .string(lineId),
            "menuItemId": .string(menuItemId),
            "name": .string(name),
            "quantity": .int(Int64(quantity)),
            "unitPriceMinor": .int(unitPriceMinor),
            "lineTotalMinor": .int(lineTotalMinor),
        ]
    }
}

extension Bill {
    var json: JSON {
        let json: JSON = [
            "id": .string(id),
            "status": .string(status.rawValue),
            "lines": .array(lines.map(\.json)),
            "subtotalMinor": .int(subtotalMinor),
            "taxMinor": .int(taxMinor),
            "totalMinor": .int(totalMinor),
            "currency": .string(currency.rawValue),
            "version": .int(Int64(version)),
        ]
        guard let voiding, case .object(var object) = json else { return json }
        object.append("void", ["reason": .string(voiding.reason), "voidedAt": .string(voiding.voidedAt.wireText)])
        return .object(object)
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
