import Foundation
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON
import RoutemapTestSupport
import Synchronization
import Testing

/// Managing the menu through the API: every till sees a change at once; bills keep their prices.
@Suite("Live menu")
struct LiveMenuTests {
    /// The API and a manager's `Authorization` header.
    static func setUp() async throws -> (InProcessAPI, [(String, String)]) {
        let api = try await InProcessAPI()
        return (api, DeviceRoleTests.bearer(try await DeviceRoleTests.manager(api)))
    }

    static func menuIds(_ response: TestResponse) -> [String] {
        response.json["items"]?.array.map { $0["id"]?.string ?? "" } ?? []
    }

    /// The menu screen's items in a launch answer.
    static func launchMenuItems(_ api: InProcessAPI) async -> [JSON] {
        let launch = await api.get("/v1/launch")
        let menuStep = launch.json["navigation"]?.array.first { $0["route"]?.stringValue == "menu" }
        return menuStep?["screen"]?["payload"]?["items"]?.array ?? []
    }

    @Test("where reads are round trips, the menu's once-a-second check of another process's changes runs in the app's background work, and the change shows")
    func recheckOffTheServingThread() async throws {
        let api = try await InProcessAPI(readsAreImmediate: false)
        let background = Task { [app = api.app] in await app.runInBackground() }
        defer { background.cancel() }
        let outside = api.store.readsOutsideReading  // start-up's
        #expect(!Self.menuIds(await api.get("/v1/menu/items")).contains("scone"))
        // Another process adds an item: straight into the store, which the API does not hear of.
        let scone = MenuItem(id: "scone", name: "Scone", category: "bakery", priceMinor: 325, currency: .usd, available: true)
        try await api.store.write { try $0.insertMenuItem(scone) }
        let readings = api.store.readingCount
        var listed: [String] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while !listed.contains("scone"), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            listed = Self.menuIds(await api.get("/v1/menu/items"))
        }
        #expect(listed.contains("scone"), "the other process's item never showed")
        #expect(api.store.readingCount > readings)
        #expect(api.store.readsOutsideReading == outside, "a store read held the thread serving a request")
    }

    @Test("where reads are round trips, the check runs while no request comes: the first request after a quiet spell shows a change made in it")
    func recheckWithoutRequests() async throws {
        let api = try await InProcessAPI(readsAreImmediate: false)
        let background = Task { [app = api.app] in await app.runInBackground() }
        defer { background.cancel() }
        #expect(!Self.menuIds(await api.get("/v1/menu/items")).contains("scone"))
        let scone = MenuItem(id: "scone", name: "Scone", category: "bakery", priceMinor: 325, currency: .usd, available: true)
        try await api.store.write { try $0.insertMenuItem(scone) }
        // No request while the menu checks twice (a round trip each, counted by the store).
        let readings = api.store.readingCount
        let deadline = ContinuousClock.now + .seconds(20)
        while api.store.readingCount < readings + 2, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(api.store.readingCount >= readings + 2, "the menu was not checked without requests")
        // So the first request after it gets the item, not the menu from before the quiet spell.
        #expect(Self.menuIds(await api.get("/v1/menu/items")).contains("scone"))
    }

    @Test("the background work ends when cancelled (the server's stop), and returns at once where reads are answered in process")
    func backgroundWorkEnds() async throws {
        let remote = try await InProcessAPI(readsAreImmediate: false)
        let ended = Flag()
        let background = Task { [app = remote.app] in
            await app.runInBackground()
            ended.raise()
        }
        try await Task.sleep(for: .milliseconds(50))
        #expect(!ended.isRaised, "the work ended before it was cancelled")
        background.cancel()
        let deadline = ContinuousClock.now + .seconds(10)
        while !ended.isRaised, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(ended.isRaised, "cancelling did not end the background work")
        let local = try await InProcessAPI()
        await local.app.runInBackground()
    }

    @Test("a new item is on every till's menu at once: new ETag, the old one no longer 304, launch's menu screen has it")
    func createShowsAtOnce() async throws {
        let (api, manager) = try await Self.setUp()
        let before = await api.get("/v1/menu/items")
        let etag = try #require(before.header("ETag"))
        #expect(await Self.launchMenuItems(api).count == InProcessAPI.menu.count)  // launch answer cached now
        #expect(await api.send("POST", "/v1/menu/categories", json: ["id": "drinks", "name": "Hot drinks"], headers: manager).status == 201)
        let created = await api.send(
            "POST", "/v1/menu/items", json: ["id": "hot-chocolate", "name": "Hot Chocolate", "category": "drinks", "priceMinor": 400],
            headers: manager)
        #expect(created.status == 201, "\(created.text)")
        #expect(created.json["item"]?["currency"]?.stringValue == "USD")
        #expect(created.json["item"]?["available"]?.boolValue == true)
        let after = await api.get("/v1/menu/items", headers: [("If-None-Match", etag)])
        #expect(after.status == 200)
        #expect(after.header("ETag") != etag)
        #expect(Self.menuIds(after).last == "hot-chocolate")
        #expect(Self.menuIds(await api.get("/v1/menu/items?category=drinks")) == ["hot-chocolate"])
        #expect(await Self.launchMenuItems(api).contains { $0["id"]?.stringValue == "hot-chocolate" })
        #expect(try await api.add("hot-chocolate", to: try await api.newBill()["id"]!.string)["subtotalMinor"]?.int == 400)
    }

    @Test("a new price applies to new lines; a bill keeps the price its lines were rung up at")
    func billsKeepTheirPrices() async throws {
        let (api, manager) = try await Self.setUp()
        let bill = try await api.newBill()["id"]!.string
        try await api.add("latte", to: bill)
        let changed = await api.send("PATCH", "/v1/menu/items/latte", json: ["priceMinor": 500], headers: manager)
        #expect(changed.status == 200, "\(changed.text)")
        #expect(changed.json["item"]?["priceMinor"]?.int == 500)
        #expect(changed.json["item"]?["name"]?.stringValue == "Latte")
        #expect(try await api.bill(bill)["lines"]?.array.first?["unitPriceMinor"]?.int == 475)
        let other = try await api.newBill()["id"]!.string
        #expect(try await api.add("latte", to: other)["lines"]?.array.first?["unitPriceMinor"]?.int == 500)
        // Another latte on the first bill raises its line, which keeps the price it was rung up at.
        let raised = try await api.add("latte", to: bill)["lines"]?.array ?? []
        #expect(raised.map { $0["unitPriceMinor"]?.int ?? 0 } == [475] && raised.first?["quantity"]?.int == 2)
        #expect(await Self.launchMenuItems(api).first { $0["id"]?.stringValue == "latte" }?["priceMinor"]?.int == 500)
    }

    @Test("marked unavailable it stays listed and is refused; a retired item leaves the menu, is refused, its id never reused, bills keep it")
    func unavailableAndRetired() async throws {
        let (api, manager) = try await Self.setUp()
        let bill = try await api.newBill()["id"]!.string
        try await api.add("croissant", to: bill)
        #expect(await api.send("PATCH", "/v1/menu/items/espresso", json: ["available": false], headers: manager).status == 200)
        let listed = await api.get("/v1/menu/items")
        #expect(listed.json["items"]?.array.first { $0["id"]?.stringValue == "espresso" }?["available"]?.boolValue == false)
        expectProblem(await api.send("POST", "/v1/bills/\(bill)/items", json: ["menuItemId": "espresso", "quantity": 1]), 422, "menu_item_unavailable")

        let retired = await api.send("DELETE", "/v1/menu/items/croissant", headers: manager)
        #expect(retired.status == 200, "\(retired.text)")
        #expect(retired.json["retired"]?.boolValue == true)
        #expect(!Self.menuIds(await api.get("/v1/menu/items")).contains("croissant"))
        expectProblem(await api.send("POST", "/v1/bills/\(bill)/items", json: ["menuItemId": "croissant", "quantity": 1]), 422, "unknown_menu_item")
        #expect(try await api.bill(bill)["lines"]?.array.first?["menuItemId"]?.stringValue == "croissant")
        expectProblem(
            await api.send(
                "POST", "/v1/menu/items", json: ["id": "croissant", "name": "New Croissant", "category": "bakery", "priceMinor": 1],
                headers: manager), 409, "menu_item_exists")
        expectProblem(await api.send("PATCH", "/v1/menu/items/croissant", json: ["priceMinor": 1], headers: manager), 404, "not_found")
        expectProblem(await api.send("DELETE", "/v1/menu/items/croissant", headers: manager), 404, "not_found")
    }

    @Test("bad input is 400 invalid_field and changes nothing; a till gets 403")
    func validation() async throws {
        let (api, manager) = try await Self.setUp()
        let etag = await api.get("/v1/menu/items").header("ETag")
        let good: JSONObject = ["id": "tea-cake", "name": "Tea Cake", "category": "bakery", "priceMinor": 250]
        for (member, value) in [
            ("priceMinor", JSON.int(-1)), ("priceMinor", .int(10_000_001)), ("priceMinor", .string("2.50")), ("id", .string("Tea Cake")),
            ("id", .string("-cake")), ("id", .string(String(repeating: "a", count: 65))), ("category", .string("Bakery")),
            ("name", .string("")), ("name", .string("a\u{7}b")), ("name", .string("   ")), ("name", .string("\u{A0}")), ("available", .string("yes")), ("currency", .string("EUR")),
        ] {
            var body = good
            body[member] = value
            let response = await api.send("POST", "/v1/menu/items", json: .object(body), headers: manager)
            expectProblem(response, 400, "invalid_field")
            #expect(response.json["field"]?.stringValue == member)
        }
        expectProblem(await api.send("PATCH", "/v1/menu/items/latte", json: ["priceMinor": 20_000_000], headers: manager), 400, "invalid_field")
        expectProblem(await api.send("POST", "/v1/menu/items", json: .object(good)), 403, "manager_only")
        expectProblem(await api.send("PATCH", "/v1/menu/items/latte", json: ["priceMinor": 1]), 403, "manager_only")
        expectProblem(await api.send("DELETE", "/v1/menu/items/latte"), 403, "manager_only")
        #expect(await api.get("/v1/menu/items").header("ETag") == etag)
        #expect(api.store.snapshot.menu.count == InProcessAPI.menu.count)
    }

    @Test("Idempotency-Key: a retried change gets the recorded answer and changes nothing more; another body with the key is 422")
    func idempotentChanges() async throws {
        let (api, manager) = try await Self.setUp()
        let body: JSON = ["id": "scone", "name": "Scone", "category": "bakery", "priceMinor": 300]
        let first = await api.send("POST", "/v1/menu/items", json: body, headers: manager + [("Idempotency-Key", "scone-1")])
        #expect(first.status == 201)
        let retry = await api.send("POST", "/v1/menu/items", json: body, headers: manager + [("Idempotency-Key", "scone-1")])
        #expect(retry.status == 201)
        #expect(retry.header("Idempotent-Replayed") == "true")
        #expect(retry.body == first.body)
        #expect(api.store.snapshot.menu.filter { $0.id == "scone" }.count == 1)
        let other = await api.send(
            "POST", "/v1/menu/items", json: ["id": "scone", "name": "Scone", "category": "bakery", "priceMinor": 350],
            headers: manager + [("Idempotency-Key", "scone-1")])
        expectProblem(other, 422, "idempotency_key_reused")
        // A duplicate id under a new key is a state conflict: recorded, so its retry answers the same.
        let duplicate = await api.send("POST", "/v1/menu/items", json: body, headers: manager + [("Idempotency-Key", "scone-2")])
        expectProblem(duplicate, 409, "menu_item_exists")
        #expect(duplicate.header("Idempotent-Replayed") == nil)
        let duplicateAgain = await api.send("POST", "/v1/menu/items", json: body, headers: manager + [("Idempotency-Key", "scone-2")])
        expectProblem(duplicateAgain, 409, "menu_item_exists")
        #expect(duplicateAgain.header("Idempotent-Replayed") == "true")
        #expect(duplicateAgain.body == duplicate.body)
        let revision = api.store.snapshot.menuRevision
        let patch: JSON = ["priceMinor": 325]
        #expect(await api.send("PATCH", "/v1/menu/items/scone", json: patch, headers: manager + [("Idempotency-Key", "p-1")]).status == 200)
        let patchedAgain = await api.send("PATCH", "/v1/menu/items/scone", json: patch, headers: manager + [("Idempotency-Key", "p-1")])
        #expect(patchedAgain.header("Idempotent-Replayed") == "true")
        #expect(api.store.snapshot.menuRevision == revision + 1)
    }

    @Test("a retirement retried with its key replays (what it retired is off the menu by then); so does a change retried after one")
    func retriedRetirement() async throws {
        let (api, manager) = try await Self.setUp()
        #expect(await api.send("POST", "/v1/menu/categories", json: ["id": "teatime", "name": "Tea time"], headers: manager).status == 201)
        let scone: JSON = ["id": "scone", "name": "Scone", "category": "teatime", "priceMinor": 300]
        #expect(await api.send("POST", "/v1/menu/items", json: scone, headers: manager).status == 201)
        let patch: JSON = ["priceMinor": 320]
        let patched = await api.send("PATCH", "/v1/menu/items/scone", json: patch, headers: manager + [("Idempotency-Key", "price")])
        #expect(patched.status == 200, "\(patched.text)")

        for (path, key) in [("/v1/menu/items/scone", "retire-item"), ("/v1/menu/categories/teatime", "retire-category")] {
            let retired = await api.send("DELETE", path, headers: manager + [("Idempotency-Key", key)])
            #expect(retired.status == 200, "\(retired.text)")
            let retry = await api.send("DELETE", path, headers: manager + [("Idempotency-Key", key)])
            #expect(retry.status == 200, "\(path): \(retry.text)")
            #expect(retry.header("Idempotent-Replayed") == "true")
            #expect(retry.body == retired.body)
            // The key with another request is refused as reused, not answered 404.
            expectProblem(await api.send("DELETE", "/v1/menu/items/nope", headers: manager + [("Idempotency-Key", key)]), 422, "idempotency_key_reused")
            // Without a key, the retirement is not found.
            expectProblem(await api.send("DELETE", path, headers: manager), 404, "not_found")
        }
        let patchedAgain = await api.send("PATCH", "/v1/menu/items/scone", json: patch, headers: manager + [("Idempotency-Key", "price")])
        #expect(patchedAgain.status == 200 && patchedAgain.header("Idempotent-Replayed") == "true", "\(patchedAgain.text)")
        #expect(patchedAgain.body == patched.body)
    }

    @Test("an unknown category is not recorded under the key: once the category exists, the same request with the same key creates the item")
    func unknownCategoryNotRecorded() async throws {
        let (api, manager) = try await Self.setUp()
        let item: JSON = ["id": "cocoa", "name": "Hot chocolate", "category": "winter", "priceMinor": 400]
        let refused = await api.send("POST", "/v1/menu/items", json: item, headers: manager + [("Idempotency-Key", "cocoa")])
        expectProblem(refused, 422, "unknown_category")
        #expect(await api.send("POST", "/v1/menu/categories", json: ["id": "winter", "name": "Winter"], headers: manager).status == 201)
        let created = await api.send("POST", "/v1/menu/items", json: item, headers: manager + [("Idempotency-Key", "cocoa")])
        #expect(created.status == 201, "\(created.text)")
        #expect(created.header("Idempotent-Replayed") == nil)
        #expect(api.store.snapshot.menu.contains { $0.id == "cocoa" })
    }

    @Test("categories: created, renamed (the menu's sections say so at once), retired only when empty, ids never reused; items only into one on the menu")
    func categories() async throws {
        let (api, manager) = try await Self.setUp()
        let initial = await api.get("/v1/menu/categories")
        #expect(initial.json["categories"]?.array.map { $0["id"]?.string ?? "" } == ["coffee", "bakery", "food"])
        let item: JSON = ["id": "scone", "name": "Scone", "category": "teatime", "priceMinor": 300]
        expectProblem(await api.send("POST", "/v1/menu/items", json: item, headers: manager), 422, "unknown_category")
        expectProblem(await api.send("PATCH", "/v1/menu/items/latte", json: ["category": "teatime"], headers: manager), 422, "unknown_category")
        let created = await api.send("POST", "/v1/menu/categories", json: ["id": "teatime", "name": "Tea time"], headers: manager)
        #expect(created.status == 201, "\(created.text)")
        #expect(await api.send("POST", "/v1/menu/items", json: item, headers: manager).status == 201)
        #expect(await api.get("/v1/menu/categories").json["categories"]?.array.last?["name"]?.stringValue == "Tea time")

        let renamed = await api.send("PATCH", "/v1/menu/categories/teatime", json: ["name": "Afternoon tea"], headers: manager)
        #expect(renamed.json["category"]?["name"]?.stringValue == "Afternoon tea")
        // A client without a native menu gets the menu's components: the section has the new name.
        let launch = await api.get("/v1/launch", headers: [("Navigation-Screens", "tabBar,splitView,bill")])
        let menuStep = launch.json["navigation"]?.array.first { $0["route"]?.stringValue == "menu" }
        let titles = menuStep?["screen"]?["payload"]?["components"]?.array.compactMap { $0["title"]?.stringValue } ?? []
        #expect(titles.contains("Afternoon tea"), "\(titles)")

        // A conflict under a key is recorded: its retry gets the same answer, replayed.
        let notEmpty = await api.send("DELETE", "/v1/menu/categories/teatime", headers: manager + [("Idempotency-Key", "tea-1")])
        expectProblem(notEmpty, 409, "category_not_empty")
        let notEmptyAgain = await api.send("DELETE", "/v1/menu/categories/teatime", headers: manager + [("Idempotency-Key", "tea-1")])
        expectProblem(notEmptyAgain, 409, "category_not_empty")
        #expect(notEmptyAgain.header("Idempotent-Replayed") == "true")
        #expect(await api.send("DELETE", "/v1/menu/items/scone", headers: manager).status == 200)
        let retired = await api.send("DELETE", "/v1/menu/categories/teatime", headers: manager)
        #expect(retired.status == 200, "\(retired.text)")
        #expect(retired.json["retired"]?.boolValue == true)
        #expect(await api.get("/v1/menu/categories").json["categories"]?.array.count == 3)
        expectProblem(await api.send("POST", "/v1/menu/categories", json: ["id": "teatime", "name": "Again"], headers: manager), 409, "menu_category_exists")
        expectProblem(await api.send("PATCH", "/v1/menu/categories/teatime", json: ["name": "x"], headers: manager), 404, "not_found")
        expectProblem(await api.send("POST", "/v1/menu/categories", json: ["id": "Tea Time", "name": "x"], headers: manager), 400, "invalid_field")
        expectProblem(await api.send("POST", "/v1/menu/categories", json: ["id": "x", "name": "x"]), 403, "manager_only")
    }
}

/// Raised once, read from any task.
private final class Flag: Sendable {
    private let raised = Atomic<Bool>(false)
    var isRaised: Bool { raised.load(ordering: .sequentiallyConsistent) }
    func raise() { raised.store(true, ordering: .sequentiallyConsistent) }
}
