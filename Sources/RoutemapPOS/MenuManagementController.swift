import RoutemapAPI
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON

/// The menu, for a manager: `POST /v1/menu/items` creates an item, `PATCH /v1/menu/items/{itemId}`
/// changes its name, category, price, availability or modifier groups (a list given replaces them all), `DELETE /v1/menu/items/{itemId}` retires it
/// (off the menu; bills that hold it keep it, and its id is never reused); likewise
/// `/v1/menu/categories` creates, renames and retires (empty) categories. Each takes an
/// optional `Idempotency-Key`. Once a change commits, the menu every till gets is the new one:
/// a new `ETag`, new launch and menu screens (`LiveMenu`).
struct MenuManagementController {
    let app: POSApp

    func register(on router: inout Router<APIContext>) {
        router.manager(.POST, "/v1/menu/items", create)
        router.manager(.PATCH, "/v1/menu/items/{itemId}", change)
        router.manager(.DELETE, "/v1/menu/items/{itemId}", retire)
        router.manager(.POST, "/v1/menu/categories", createCategory)
        router.manager(.PATCH, "/v1/menu/categories/{categoryId}", renameCategory)
        router.manager(.DELETE, "/v1/menu/categories/{categoryId}", retireCategory)
    }

    @Sendable func createCategory(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let body = try RequestBody(request, allowed: ["id", "name"])
        let category = MenuCategory(id: try Self.slug(body, "id"), name: try Self.name(body))
        return await changed(
            try await app.idempotency.perform(
                request, body: body, device: device,
                change: { key in try await app.till.createMenuCategory(category, device: device.id, idempotency: key) },
                answer: { category in .json(["category": category.json], status: .created) }))
    }

    @Sendable func renameCategory(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let id = try request.parameter("categoryId")
        let body = try RequestBody(request, allowed: ["name"])
        let name = try Self.name(body)
        return await changed(
            try await app.idempotency.perform(
                request, body: body, device: device,
                change: { key in try await app.till.renameMenuCategory(id: id, name: name, device: device.id, idempotency: key) },
                answer: { category in .json(["category": category.json]) }))
    }

    @Sendable func retireCategory(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let id = try request.parameter("categoryId")
        let body = try RequestBody(request, allowed: [], emptyAllowed: true)
        return await changed(
            try await app.idempotency.perform(
                request, body: body, device: device,
                change: { key in try await app.till.retireMenuCategory(id: id, device: device.id, idempotency: key) },
                answer: { category in .json(["category": category.json, "retired": true]) }))
    }

    @Sendable func create(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let body = try RequestBody(request, allowed: ["id", "name", "category", "priceMinor", "available", "modifierGroups", "stock"])
        let draft = MenuItemDraft(
            id: try Self.slug(body, "id"), name: try Self.name(body), category: try Self.slug(body, "category"),
            priceMinor: try body.integer("priceMinor", in: MenuItem.priceRange), available: try body.optionalBool("available") ?? true,
            modifierGroups: try body.modifierGroups() ?? [], stock: try Self.stock(body) ?? nil)
        return await changed(
            try await app.idempotency.perform(
                request, body: body, device: device,
                change: { key in try await app.till.createMenuItem(draft, device: device.id, idempotency: key) },
                answer: { item in .json(["item": item.json], status: .created) }))
    }

    @Sendable func change(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let id = try request.parameter("itemId")
        let body = try RequestBody(request, allowed: ["name", "category", "priceMinor", "available", "modifierGroups", "stock"])
        let patch = MenuItemPatch(
            name: body.value("name") == nil ? nil : try Self.name(body),
            category: body.value("category") == nil ? nil : try Self.slug(body, "category"),
            priceMinor: try body.optionalInteger("priceMinor", in: MenuItem.priceRange), available: try body.optionalBool("available"),
            modifierGroups: try body.modifierGroups(), stock: try Self.stock(body))
        // `"stock": null` stops counting: spelled apart from its absence, for the idempotency key.
        let keyed = body.isNull("stock") ? body.with("stock", .string("not counted")) : body
        return await changed(
            try await app.idempotency.perform(
                request, body: keyed, device: device,
                change: { key in try await app.till.changeMenuItem(id: id, patch, device: device.id, idempotency: key) },
                answer: { item in .json(["item": item.json]) }))
    }

    @Sendable func retire(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let id = try request.parameter("itemId")
        let body = try RequestBody(request, allowed: [], emptyAllowed: true)
        return await changed(
            try await app.idempotency.perform(
                request, body: body, device: device,
                change: { key in try await app.till.retireMenuItem(id: id, device: device.id, idempotency: key) },
                answer: { item in .json(["item": item.json, "retired": true]) }))
    }

    /// `response`, after the menu every till gets is rebuilt (should that fail, the periodic
    /// revision check rebuilds it within a second: the change itself has committed).
    private func changed(_ response: Response) async -> Response {
        try? await app.menu.refresh()
        return response
    }

    /// A ``MenuSlug``: ids and categories appear in paths and queries. The length first, with
    /// the message every string member gets.
    private static func slug(_ body: RequestBody, _ name: String) throws -> String {
        try MenuSlug.checked(try body.string(name, maxLength: 64), field: name)
    }

    /// `stock`: `nil` when absent, `.some(nil)` when `null` (not counted), else a count in
    /// ``MenuItem/stockRange``.
    private static func stock(_ body: RequestBody) throws -> Int?? {
        guard body.has("stock") else { return nil }
        let range = Int64(MenuItem.stockRange.lowerBound)...Int64(MenuItem.stockRange.upperBound)
        return .some(try body.optionalInteger("stock", in: range).map { Int($0) })
    }

    private static func name(_ body: RequestBody) throws -> String {
        try body.displayName("name")
    }
}
