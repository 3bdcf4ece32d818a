import Foundation
import RoutemapAPI
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON
import RoutemapNavigation
import RoutemapPOS
import RoutemapTestSupport
import RoutemapTrivia
import Testing

/// The screen actions of every app, checked against the router that serves them. The templates
/// (in each app's navigation file) and the routes (in its controllers and the engine) are
/// written apart: an action whose method and path no route serves, or that reaches its app only
/// through the `/v1` alias of whichever app is listed first, would otherwise be found by a user
/// tapping it.
///
/// The actions are those of the screens the server renders, collected from the answers of walks
/// that show every route of each registry, the bill in each of its states and a game both played
/// and finished: an action added to any screen is checked without being listed here.
@Suite("Screen actions reach their app's routes")
struct ScreenActionRouteTests {
    /// One action as a screen carried it.
    struct Shown: Hashable {
        let route: String
        let name: String
        let method: String
        let path: String

        var description: String { "\(route).\(name) (\(method) \(path))" }
    }

    /// What the answers of one app's walks showed.
    struct Rendered {
        var routes: Set<String> = []
        var actions: Set<Shown> = []
        /// The `status` of every bill screen shown.
        var billStatuses: Set<String> = []

        /// Notes the screens of `response`'s steps, expecting it to be a success.
        mutating func note(_ response: TestResponse, _ what: String) {
            #expect((200..<300).contains(response.status), "\(what): \(response.text)")
            for step in response.json["navigation"]?.array ?? [] {
                guard let route = step["route"]?.stringValue, let screen = step["screen"], screen != .null else { continue }
                routes.insert(route)
                if route == POSRoute.bill.rawValue, let status = screen["payload"]?["status"]?.stringValue { billStatuses.insert(status) }
                for action in screen["actions"]?.array ?? [] {
                    actions.insert(Shown(route: route, name: action["name"]!.string, method: action["method"]!.string, path: action["path"]!.string))
                }
            }
        }
    }

    /// Walks that render every screen of each app: keyed by app name, one for every app served.
    static let walks: [String: @Sendable (TriviaServer) async throws -> Rendered] = [
        POSApp.name: renderPOS, TriviaApp.name: renderTrivia,
    ]

    @Test("every action of every app's screens is a route of the router, in its own app, never the first app's /v1 alias")
    func everyActionIsRouted() async throws {
        let server = try await TriviaServer()
        #expect(Set(Self.walks.keys) == Set(TriviaServer.appNames), "a walk for every app served")
        for name in TriviaServer.appNames {
            let walk = try #require(Self.walks[name])
            let rendered = try await walk(server)
            #expect(rendered.routes == Self.routeIDs(of: name), "\(name): the walks render every route of the registry")
            #expect(!rendered.actions.isEmpty)
            let alone = try server.responder(serving: [name])
            let prefix = "/v1/apps/\(name)"
            for action in rendered.actions.sorted(by: { $0.description < $1.description }) {
                let path = Self.filled(action.path)
                let served = await Self.probe(server.responder, action.method, path, server.token)
                #expect(served == 415, "\(name): \(action.description) is answered \(served) by the server: no route serves it")
                let own = await Self.probe(alone, action.method, path, server.token)
                #expect(own == 415, "\(name): \(action.description) is answered \(own) by a server of \(name) alone: not \(name)'s route")
                #expect(action.path.hasPrefix("/v1/"), "\(name): \(action.description) is outside /v1")
                if action.path.hasPrefix("/v1/apps/") {
                    #expect(action.path.hasPrefix(prefix + "/"), "\(name): \(action.description) names another app")
                } else {
                    // Under the app's prefix, the same path is one of the engine's navigation
                    // endpoints exactly when the path given is its `/v1` alias.
                    let prefixed = prefix + String(path.dropFirst("/v1".count))
                    let alias = await Self.probe(alone, action.method, prefixed, server.token)
                    #expect(
                        alias == 404,
                        "\(name): \(action.description) is the /v1 alias of \(prefixed), served to whichever app is listed first")
                }
            }
        }
    }

    // MARK: Probing the router

    /// `path` with every `{placeholder}` replaced by a sample value.
    static func filled(_ path: String) -> String {
        path.replacing(#/\{[^}]*\}/#, with: "sample")
    }

    /// What `responder` answers `method path` from the enrolled device with a body it refuses
    /// (`text/plain`): 415 when a route serves the method on the path, since the router checks
    /// the media type after finding the route (404 when no pattern matches, 405 when none has the
    /// method) and before any handler runs, so the probe changes nothing.
    static func probe(_ responder: any HTTPResponder, _ method: String, _ path: String, _ token: String) async -> Int {
        let request = Request(
            method: HTTPMethod(rawValue: method), path: path, query: [:],
            headers: ["Authorization": "Bearer \(token)", "Content-Type": "text/plain"], body: Array("probe".utf8))
        return await responder.respond(to: request, maxBodyBytes: 65_536).status.code
    }

    static func routeIDs(of app: String) -> Set<String> {
        switch app {
        case POSApp.name: Set(POSApp.registry.routes.map(\.id.rawValue))
        case TriviaApp.name: Set(TriviaApp.registry.routes.map(\.id.rawValue))
        default: []
        }
    }

    // MARK: The walks

    /// Launch (an open bill, its menu), the bill list, a checked-out bill and its summary, then a
    /// paid bill and a voided one, each walked to; the drawer without a shift and with one.
    @Sendable static func renderPOS(_ server: TriviaServer) async throws -> Rendered {
        let navigate = POSApp.navigationPrefix + "/navigate"
        var rendered = Rendered()
        func keyed() -> [(String, String)] { [("Idempotency-Key", UUID().uuidString)] }
        func showBill(_ id: String) async {
            let response = await server.send(
                "POST", navigate, json: ["from": ["tabBar", "splitContainer"], "to": "bill", "input": ["billId": .string(id)]])
            rendered.note(response, "the bill \(id)")
        }

        let launch = await server.get(POSApp.navigationPrefix + "/launch")
        rendered.note(launch, "launch")
        let bill = try #require(launch.json["navigation"]?.array.last { $0["route"] == "bill" }?["screen"]?["payload"]?["id"]?.stringValue)
        rendered.note(await server.send("POST", "/v1/bills/\(bill)/items", json: ["menuItemId": "latte", "quantity": 1], headers: keyed()), "add")
        rendered.note(
            await server.send("POST", navigate, json: ["from": ["tabBar", "splitContainer"], "to": "billList", "input": ["billId": .string(bill)]]),
            "the bill list")
        let checkedOut = await server.send("POST", "/v1/bills/\(bill)/checkout", headers: keyed())
        rendered.note(checkedOut, "checkout")
        let total = try #require(checkedOut.json["bill"]?["totalMinor"])
        rendered.note(await server.send("POST", "/v1/bills/\(bill)/pay", json: ["method": "cash", "amountMinor": total], headers: keyed()), "pay")
        await showBill(bill)

        let created = await server.send("POST", "/v1/bills", headers: keyed())
        rendered.note(created, "a new bill")
        let voided = try #require(created.json["bill"]?["id"]?.stringValue)
        rendered.note(await server.send("POST", "/v1/bills/\(voided)/void", json: ["reason": "a test"], headers: keyed()), "void")
        await showBill(voided)

        // An item with modifier groups (given by the store, then served again so the menu is
        // read at once): its sheet, walked to as the menu's chooseModifiers does, and its add.
        let milk = ModifierGroup(id: "milk", name: "Milk", minChoices: 0, maxChoices: 1, options: [ModifierOption(id: "oat", name: "Oat", priceMinor: 50)])
        _ = try await Till(store: server.store, taxRate: TaxRate(basisPoints: 875)!, currency: .usd)
            .changeMenuItem(id: "latte", MenuItemPatch(modifierGroups: [milk]), device: "dev_tests", idempotency: nil)
        try server.reopen()
        let sheetBill = try #require(await server.send("POST", "/v1/bills", headers: keyed()).json["bill"]?["id"]?.stringValue)
        rendered.note(
            await server.send(
                "POST", navigate,
                json: ["from": ["tabBar", "splitContainer", "menu"], "to": "modifierSheet", "input": ["billId": .string(sheetBill), "menuItemId": "latte"]]),
            "the modifier sheet")
        rendered.note(
            await server.send("POST", "/v1/bills/\(sheetBill)/items", json: ["menuItemId": "latte", "quantity": 1, "modifiers": ["oat"]], headers: keyed()),
            "an add with modifiers")

        // The drawer tab with no shift open (its action opens one), then the open shift's, shown by
        // the open's answer (pay in, pay out, close).
        rendered.note(await server.send("POST", navigate, json: ["from": ["tabBar", "splitContainer"], "to": "drawer"]), "the drawer")
        rendered.note(await server.send("POST", "/v1/shifts", json: ["openingFloatMinor": 1000], headers: keyed()), "open a shift")
        #expect(rendered.actions.filter { $0.route == "drawer" }.map(\.name).sorted() == ["closeShift", "openShift", "payIn", "payOut"])

        #expect(rendered.billStatuses == Set(BillStatus.allCases.map(\.rawValue)), "a bill screen in every state")
        return rendered
    }

    /// Launch (the options), the difficulty menu and the category picker, a game from its first
    /// question to its results, and the no-data screen of a filter nothing matches.
    @Sendable static func renderTrivia(_ server: TriviaServer) async throws -> Rendered {
        var rendered = Rendered()
        let launch = await server.get(TriviaApp.navigationPrefix + "/launch")
        rendered.note(launch, "launch")
        let stack = try #require(launch.json["stack"])
        rendered.note(await server.navigate(["from": stack, "to": "difficultyMenu"]), "the difficulty menu")
        rendered.note(await server.navigate(["from": stack, "to": "categoryPicker"]), "the category picker")

        let started = await server.send("POST", "/v1/trivia/games", json: ["difficulty": "easy"], headers: [("Idempotency-Key", UUID().uuidString)])
        rendered.note(started, "a game")
        let gameId = try #require(started.json["game"]?["id"]?.stringValue)
        var shown = try #require(started.json["navigation"]?.array.first?["screen"]?["payload"])
        // One answer a question (the first choice) until the game is finished.
        for _ in 0..<100 where shown["finished"] == false {
            let answered = await server.send(
                "POST", "/v1/trivia/games/\(gameId)/answers",
                json: ["questionId": shown["questionId"]!, "answer": shown["choices"]!.array[0]["text"]!])
            rendered.note(answered, "an answer")
            shown = try #require(answered.json["navigation"]?.array.first?["screen"]?["payload"])
        }
        #expect(shown["finished"] == true, "the game ends")

        rendered.note(await server.send("POST", "/v1/trivia/games", json: ["difficulty": "hard", "category": "music"]), "no data")
        return rendered
    }
}
