import RoutemapAPI
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON
import RoutemapNavigation

/// One version of the menu, encoded once: the bodies and `ETag`s of `GET /v1/menu/items` (whole
/// and per category) and the menu screen's payload. `LiveMenu` builds a new one when the menu
/// changes.
///
/// A class, not a struct: every menu answer, launch and menu screen takes the current one, and
/// handing out one reference costs one reference count where copying a struct of eleven shared
/// fields cost one each, contended between the server's threads (measured: BENCHMARKS.md).
final class MenuCatalog: Sendable {
    /// One encoded answer to `GET /v1/menu/items`.
    struct Listing: Sendable {
        let etag: String
        /// The whole 200 answer, prepared once: sent without copying per request.
        let ok: PreparedResponse
    }

    let items: [MenuItem]
    /// `items` by id (the modifier sheet's item).
    private let itemsById: [String: MenuItem]
    /// The categories on the menu, in menu order.
    let categories: [MenuCategory]
    /// `GET /v1/menu/categories`.
    let categoryListing: Listing
    /// The ids of the counted items (``MenuItem/isCounted``): what paying takes off the shelf,
    /// known without asking the store.
    let countedItemIds: Set<String>
    /// Which version of the menu this is, in this process: answers built from it are cached under it.
    let generation: Int
    let all: Listing
    let byCategory: [String: Listing]
    let emptyListing: Listing
    /// `{items: [...]}`, encoded once, spliced into every menu screen.
    let screenPayload: JSON
    /// The menu screen's component tree, for clients without a native menu: built once.
    let screenComponents: @Sendable () -> [Component]

    init(items: [MenuItem], categories: [MenuCategory] = [], generation: Int = 0) {
        self.items = items
        itemsById = Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.categories = categories
        countedItemIds = Set(items.filter(\.isCounted).map(\.id))
        self.generation = generation
        categoryListing = Listing(bytes: (["categories": .array(categories.map(\.json))] as JSON).encoded())
        let allPayload = JSONFragment(MenuCatalog.listingJSON(items))
        // The screen's rows name the action a tap sends when it is not the menu's `addItem`
        // (an item with modifier groups presents them first); without such items, the listing.
        screenPayload = items.contains(where: \.hasModifiers) ? .fragment(JSONFragment(MenuCatalog.screenJSON(items))) : .fragment(allPayload)
        let components = POSNavigation.menuComponents(
            items, names: Dictionary(categories.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first }))
        screenComponents = { components }
        all = Listing(bytes: allPayload.bytes)
        var byCategory: [String: Listing] = [:]
        for category in Set(items.map(\.category)) {
            byCategory[category] = Listing(bytes: MenuCatalog.listingJSON(items.filter { $0.category == category }).encoded())
        }
        self.byCategory = byCategory
        emptyListing = Listing(bytes: MenuCatalog.listingJSON([]).encoded())
    }

    /// The listing for `category`, or the whole menu for `nil`. An unknown category lists nothing.
    func listing(category: String?) -> Listing {
        guard let category else { return all }
        return byCategory[category] ?? emptyListing
    }

    /// The menu item with `id` in this version of the menu, if it is on it.
    func item(id: String) -> MenuItem? {
        itemsById[id]
    }

    private static func listingJSON(_ items: [MenuItem]) -> JSON {
        ["items": .array(items.map(\.json))]
    }

    /// ``listingJSON(_:)`` with `"action": "chooseModifiers"` on the rows of items with modifier groups.
    private static func screenJSON(_ items: [MenuItem]) -> JSON {
        [
            "items": .array(
                items.map { item in
                    guard item.hasModifiers, case .object(var object) = item.json else { return item.json }
                    object.append("action", .string(POSNavigation.chooseModifiers))
                    return .object(object)
                })
        ]
    }
}

extension MenuCatalog.Listing {
    init(bytes: [UInt8]) {
        let etag = EntityTag.strong(for: bytes)
        var headers = MenuController.headers(etag: etag)
        headers.add(name: "Content-Type", value: "application/json")
        self.init(etag: etag, ok: PreparedResponse(Response(status: .ok, headers: headers, body: bytes)))
    }
}
