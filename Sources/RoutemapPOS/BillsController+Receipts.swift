import RoutemapAPI
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON

/// A paid bill's receipt (`GET /v1/bills/{billId}/receipt`), to print or show: for the till
/// that holds the bill, or a manager, as reading the bill is (another till gets 404).
extension BillsController {
    func registerReceipts(on router: inout Router<APIContext>) {
        router.device(.GET, "/v1/bills/{billId}/receipt", reading: till, getReceipt)
    }

    /// `GET /v1/bills/{billId}/receipt`: the `Receipt` schema; 409 `bill_not_paid` for a bill
    /// that is not paid. No `ETag`, as `GET /v1/bills/{billId}` has none: a refund changes a
    /// paid bill's receipt.
    @Sendable func getReceipt(_ request: Request, _ device: AuthenticatedDevice) throws -> Response {
        .json(try till.receipt(billId: try request.parameter("billId"), caller: device.caller).json)
    }
}

extension Receipt {
    /// The `Receipt` schema of openapi.yaml: the bill's lines and totals (its discount, when it
    /// has one, with what it took off), the tips and what was
    /// charged in all (total + tips), its payments and refunds in their own schemas, and the
    /// shop's details it has (one it lacks is left out). With several payments (split tender),
    /// `receiptNumber`, `paidAt` and `payment` are the completing payment's, `tipMinor` and
    /// `chargedMinor` sum them all, and `payments` lists each.
    var json: JSON {
        var object: JSONObject = [
            "receiptNumber": .int(payment.receiptNumber),
            "shop": shop.json,
            "billId": .string(bill.id),
            "paidAt": .string(payment.createdAt.wireText),
            "lines": .array(bill.lines.map(\.json)),
        ]
        object.appendTotals(of: bill, tax: .withRate)
        object.append("tipMinor", .int(tipMinor))
        object.append("chargedMinor", .int(chargedMinor))
        object.append("currency", .string(bill.currency.rawValue))
        object.append("payment", payment.json)
        object.append("payments", .array(payments.map(\.json)))
        object.append("refunds", .array(refunds.refunds.map(\.json)))
        object.append("refundedMinor", .int(refunds.refundedMinor))
        if let discount = bill.discount { object.append("discount", discount.json) }
        return .object(object)
    }
}

extension ShopDetails {
    /// The `Shop` schema: only the details set.
    var json: JSON {
        let details: [(String, String?)] = [("name", name), ("address", address), ("taxId", taxId)]
        return .object(JSONObject(details.compactMap { key, value in value.map { (key, JSON.string($0)) } }))
    }
}
