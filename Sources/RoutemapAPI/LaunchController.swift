import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON
import RoutemapNavigation

/// `GET /v1/launch`: the whole initial UI for the current bill, with the order summary on top
/// when that bill is checked out, and the client's stack after it.
struct LaunchController {
    let api: API

    func register(on router: inout Router) {
        router.get("/v1/launch", use: launch)
    }

    @Sendable func launch(_ request: Request) throws -> Response {
        let client = try request.clientCapabilities()
        let device = try request.device()
        let bill = try api.till.currentBill(device: device)
        let context = api.screenContext(device, bill)
        let inputs = [POSInput.billId: bill.id]
        var navigation = try api.navigator.launch(inputs: inputs, context: context, client: client)
        if bill.status == .checkedOut {
            let summary = try api.navigator.navigate(
                NavigationRequest(from: .posBill, target: POSRoute.orderSummary, input: inputs), context: context,
                client: client, animated: false)
            navigation = Navigation(steps: navigation.steps + summary.steps, stack: summary.stack)
        }
        return .json(["navigation": navigation.steps.json, "stack": navigation.stack.json])
    }
}
