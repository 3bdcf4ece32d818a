import Foundation
import RoutemapAPI
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON

/// Reports for a manager: `GET /v1/reports/sales?from=…&to=…`, the end-of-day ("Z") report of
/// what the tills took in a period and what is still unsettled now. The period is half-open,
/// given as RFC 3339 instants with their offset, so the client decides where the shop's day
/// starts and ends. Read-only: it changes nothing and takes no idempotency key.
struct ReportsController {
    let app: POSApp

    func register(on router: inout Router<APIContext>) {
        router.manager(.GET, "/v1/reports/sales", reading: app.till, salesReport)
    }

    @Sendable func salesReport(_ request: Request, _ device: AuthenticatedDevice) throws -> Response {
        let from = try Self.instant(request, "from")
        let to = try Self.instant(request, "to")
        let period: SalesPeriod
        do throws(SalesPeriod.Refusal) {
            period = try SalesPeriod(from: from, to: to)
        } catch {
            switch error {
            case .empty:
                throw Problem.invalidField("to", "'to' must be after 'from': the period is from 'from' (included) to 'to' (excluded).")
            case .tooLong:
                throw Problem.invalidField("to", "The period may be at most \(SalesPeriod.maxDays) days long.")
            }
        }
        let report = try app.till.salesReport(period, caller: device.caller)
        // Takings are not for caches to keep, and are out of date at the next sale.
        return .json(report.json, headers: ["Cache-Control": "no-store"])
    }

    /// The query parameter `name` as an RFC 3339 instant with its offset; 400 `invalid_field`
    /// naming it when missing or not one.
    private static func instant(_ request: Request, _ name: String) throws -> Date {
        guard let text = request.query[name] else {
            throw Problem.invalidField(name, "'\(name)' is required: an RFC 3339 instant with its offset, such as 2026-11-25T00:00:00+01:00.")
        }
        guard let date = Timestamp.instant(rfc3339: text) else {
            // A '+' the client did not encode reaches the server as a space.
            let hint = text.contains(" ") ? " A '+' in a query must be sent as %2B." : ""
            throw Problem.invalidField(
                name,
                "'\(name)' must be an RFC 3339 instant with its offset (Z or ±HH:MM) and at most millisecond precision, "
                    + "between the years 0000 and 9999, such as 2026-11-25T00:00:00+01:00.\(hint)")
        }
        return date
    }
}

extension SalesReport {
    /// The `SalesReport` schema of openapi.yaml.
    var json: JSON {
        let card: JSON = ["count": .int(Int64(payments.card.count)), "amountMinor": .int(payments.card.amountMinor)]
        let cash: JSON = [
            "count": .int(Int64(payments.cash.count)), "amountMinor": .int(payments.cash.amountMinor),
            "tenderedMinor": .int(payments.cash.tenderedMinor), "changeMinor": .int(payments.cash.changeMinor),
        ]
        let paymentsJSON: JSON = [
            "count": .int(Int64(payments.count)), "amountMinor": .int(payments.amountMinor), "byMethod": ["card": card, "cash": cash],
        ]
        let items: [JSON] = sales.items.map { item in
            [
                "menuItemId": .string(item.menuItemId), "name": .string(item.name), "quantity": .int(Int64(item.quantity)),
                "amountMinor": .int(item.amountMinor),
            ]
        }
        let salesJSON: JSON = [
            "bills": .int(Int64(sales.bills)), "subtotalMinor": .int(sales.subtotalMinor), "discounts": sales.discounts.json,
            "discountedSubtotalMinor": .int(sales.discountedSubtotalMinor), "taxMinor": .int(sales.taxMinor),
            "totalMinor": .int(sales.totalMinor), "items": .array(items),
        ]
        let voidsJSON: JSON = ["count": .int(Int64(voids.count)), "totalMinor": .int(voids.totalMinor)]
        let unsettled: JSON = [
            "open": .int(Int64(unsettledNow.open)), "checkedOut": .int(Int64(unsettledNow.checkedOut)),
            "checkedOutTotalMinor": .int(unsettledNow.checkedOutTotalMinor),
        ]
        return [
            "from": .string(period.from.wireText), "to": .string(period.to.wireText), "currency": .string(currency.rawValue),
            "payments": paymentsJSON, "sales": salesJSON, "voids": voidsJSON, "refunds": refunds.json,
            "tips": tips.json, "unsettledNow": unsettled,
        ]
    }
}

extension SalesReport.ByMethod {
    /// The refunds or tips in all and by method: `{count, amountMinor, card, cash}`.
    var json: JSON { ["count": .int(Int64(count)), "amountMinor": .int(amountMinor), "card": card.json, "cash": cash.json] }
}

extension SalesReport.MethodTotals {
    /// The refunds or tips by one method, or the discounts given: `{count, amountMinor}`.
    var json: JSON { ["count": .int(Int64(count)), "amountMinor": .int(amountMinor)] }
}
