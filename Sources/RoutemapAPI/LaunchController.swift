import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON

/// `GET /v1/launch`: the whole initial UI for the current bill, with the order summary on top
/// when that bill is checked out.
struct LaunchController {
    let api: API

    func register(on router: inout Router) {
        router.get("/v1/launch", use: launch)
    }

    @Sendable func launch(_ request: Request) throws -> Response {
        let bill = try api.till.currentBill()
        let context = api.screenContext(bill)
        let inputs = [POSInput.billId: bill.id]
        var steps = try api.navigator.launch(inputs: inputs, context: context)
        if bill.status == .checkedOut {
            steps.append(try api.navigator.show(POSRoute.orderSummary, inputs: inputs, context: context, animated: false))
        }
        return .json(["navigation": steps.json])
    }
}
