import RoutemapJSON
import RoutemapNavigation
import Testing

@Suite("Screen actions")
struct ScreenActionTests {
    @Test("a screen encodes its actions as they are now, after changes to them")
    func changedActionsEncodeAnew() {
        var action = ScreenAction(name: "pay", method: "POST", path: "/p")
        action.name = "checkout"
        action.row = "lines"
        action.body = ["q": 1]
        action.headers = ["Idempotency-Key": "{idempotencyKey}", "A": "b"]
        let screen = Screen(type: "t", renderer: .native, title: "T", payload: [:], actions: [action])
        #expect(
            screen.json.encodedString
                == #"{"type":"t","renderer":"native","title":"T","payload":{},"actions":[{"name":"checkout","method":"POST","path":"/p","row":"lines","body":{"q":1},"headers":{"A":"b","Idempotency-Key":"{idempotencyKey}"}}]}"#
        )
        #expect(action.json["name"] == "checkout")
        #expect(action == ScreenAction(name: "checkout", method: "POST", path: "/p", row: "lines", body: ["q": 1], headers: ["A": "b", "Idempotency-Key": "{idempotencyKey}"]))
    }
}
