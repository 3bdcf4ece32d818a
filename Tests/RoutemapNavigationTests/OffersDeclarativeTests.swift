import RoutemapJSON
import RoutemapNavigation
import Testing

@Suite("offersDeclarative")
struct OffersDeclarativeTests {
    @Test("a declarative route offers a declarative rendering whatever it was declared with; a native one only when it says so")
    func declarativeRoutesOfferIt() {
        let summary = Route("summary", parent: "bill", presentation: .push, screenType: "summary", title: "S", renderer: .declarative)
        #expect(summary.offersDeclarative)
        #expect(summary.json["offersDeclarative"]?.boolValue == true)
        let bill = Route("bill", parent: nil, presentation: .root, screenType: "bill", title: "B")
        #expect(!bill.offersDeclarative)
        #expect(Route("menu", parent: nil, presentation: .root, screenType: "menu", title: "M", offersDeclarative: true).offersDeclarative)
    }
}
