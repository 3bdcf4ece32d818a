import ArgumentParser
import Foundation
import RoutemapDomain
import RoutemapStorage

/// `routemap menu`: the menu of a database file, for an operator on the machine — list it, add
/// an item, change one (price, name, category, availability), retire one, and the same for the
/// categories items are in (`routemap menu category …`). A running server on
/// the same file serves the changed menu within a second (it compares the menu's revision that
/// often); through the API (`POST`/`PATCH`/`DELETE /v1/menu/items`) a change shows at once.
struct MenuCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "menu",
        abstract: "List, add, change or retire the menu items and categories of a database.",
        subcommands: [List.self, Add.self, Set.self, Retire.self, Category.self])

    /// A till on the store of `options`, which must be at this binary's latest migration.
    /// New items are priced in the currency given (`--currency`, else `ROUTEMAP_CURRENCY`),
    /// else in the menu's, else in USD; one given that differs from the menu's stops the
    /// command (exit 65): the server sells in one currency, and start-up refuses a mixed menu.
    static func open(_ options: StoreOptions, currency flag: String? = nil) throws -> (OpenedStore, Till) {
        let isGiven = flag != nil || Environment.value(Settings.currency.environment) != nil
        let given = isGiven ? try Settings.currency.resolve(flag) : nil
        let store = try options.openExisting(connections: 1)
        let onMenu = try store.store.menuItems()
        let menuCurrency = onMenu.first?.currency
        if let given, let menuCurrency, given != menuCurrency {
            try? store.close()
            throw refusal(
                "--currency (ROUTEMAP_CURRENCY) is \(given.rawValue), but the \(onMenu.count) items on the menu are priced in "
                    + "\(menuCurrency.rawValue): the server sells in one currency (retire them first to change it)",
                exitStatus: 65)  // EX_DATAERR
        }
        let currency = given ?? menuCurrency ?? Settings.currency.defaultValue()
        return (store, Till(store: store.store, taxRate: Settings.taxRate.defaultValue(), currency: currency))
    }

    /// A refusal (exit 65) of a change the menu does not allow: an id taken, an item or
    /// category not on it, a category still in use.
    static func run<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as POSError {
            let message: String
            switch error {
            case .menuItemExists(let id): message = "a menu item '\(id)' exists or existed"
            case .menuItemNotFound(let id): message = "no menu item '\(id)' on the menu"
            case .unknownCategory(let id): message = "no category '\(id)' on the menu (add it first: routemap menu category add)"
            case .menuCategoryExists(let id): message = "a category '\(id)' exists or existed"
            case .menuCategoryNotFound(let id): message = "no category '\(id)' on the menu"
            case .categoryNotEmpty(let id): message = "items on the menu are in category '\(id)': move or retire them first"
            default: throw error
            }
            throw refusal(message, exitStatus: 65)  // EX_DATAERR
        }
    }

    /// What `routemap menu` acts as in the till's use cases (no idempotency key is recorded).
    static let operatorDevice = "operator"

    /// An item's line; a counted item's ends with its count (`12 left`), an uncounted one's as
    /// before counts existed.
    static func line(_ item: MenuItem) -> String {
        "\(item.id)\t\(item.category)\t\(item.name)\t\(item.priceMinor)\t\(item.currency.rawValue)\t\(item.available ? "available" : "unavailable")"
            + (item.stock.map { "\t\($0) left" } ?? "")
    }

    /// `--stock`: a count in ``MenuItem/stockRange``, or `none` (not counted: `nil`).
    static func stock(_ text: String) throws -> Int? {
        if text == "none" { return nil }
        guard let count = Int(text), MenuItem.stockRange.contains(count) else {
            throw refusal(
                "--stock must be \(MenuItem.stockRange.lowerBound) to \(MenuItem.stockRange.upperBound), or none",
                exitStatus: ExitCode.validationFailure.rawValue)
        }
        return count
    }

    static func checkSlug(_ text: String, _ flag: String) throws {
        guard MenuSlug.isValid(text) else {
            throw refusal("\(flag) must be \(MenuSlug.rule)", exitStatus: ExitCode.validationFailure.rawValue)
        }
    }

    static func checkName(_ text: String) throws {
        guard DisplayName.isValid(text) else {
            throw refusal("--name must be \(DisplayName.rule)", exitStatus: ExitCode.validationFailure.rawValue)
        }
    }

    static func checkPrice(_ price: Int64) throws {
        guard MenuItem.priceRange.contains(price) else {
            throw refusal("--price-minor must be \(MenuItem.priceRange.lowerBound) to \(MenuItem.priceRange.upperBound)", exitStatus: ExitCode.validationFailure.rawValue)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the menu: id, category, name, price, currency, availability, and how many are left of a counted item.")
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let (database, till) = try MenuCommand.open(store)
            defer { try? database.close() }
            for item in try till.menu() { print(MenuCommand.line(item)) }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add an item at the end of the menu.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The new item's id (a-z, 0-9, '-').") var id: String
        @Option(help: "Its name.") var name: String
        @Option(help: "Its category (a-z, 0-9, '-').") var category: String
        @Option(help: "Its price in minor units (cents).") var priceMinor: Int64
        @Flag(help: "Add it marked unavailable.") var unavailable = false
        @Option(help: "How many are on the shelf (0 to 100000), for an item the shop counts. Default: not counted.")
        var stock: String?
        @Option(help: "Its currency, an ISO 4217 code: the menu's. Env: ROUTEMAP_CURRENCY. Default: the menu's items', else USD.")
        var currency: String?

        func run() async throws {
            try MenuCommand.checkSlug(id, "the id")
            try MenuCommand.checkSlug(category, "--category")
            try MenuCommand.checkName(name)
            try MenuCommand.checkPrice(priceMinor)
            let count = try stock.flatMap { try MenuCommand.stock($0) }
            let (database, till) = try MenuCommand.open(store, currency: currency)
            defer { try? database.close() }
            let draft = MenuItemDraft(id: id, name: name, category: category, priceMinor: priceMinor, available: !unavailable, stock: count)
            let outcome = try await MenuCommand.run {
                try await till.createMenuItem(draft, device: MenuCommand.operatorDevice, idempotency: nil)
            }
            if case .performed(let item, _) = outcome { print("added \(MenuCommand.line(item))") }
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change an item's price, name, category, availability or stock count.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The item's id.") var id: String
        @Option(help: "New name.") var name: String?
        @Option(help: "New category.") var category: String?
        @Option(help: "New price in minor units.") var priceMinor: Int64?
        @Option(help: "true or false.") var available: Bool?
        @Option(help: "How many are on the shelf (0 to 100000), or none to stop counting.") var stock: String?

        func run() async throws {
            if let name { try MenuCommand.checkName(name) }
            if let category { try MenuCommand.checkSlug(category, "--category") }
            if let priceMinor { try MenuCommand.checkPrice(priceMinor) }
            let count: Int?? = try stock.map { try MenuCommand.stock($0) }
            let (database, till) = try MenuCommand.open(store)
            defer { try? database.close() }
            let patch = MenuItemPatch(name: name, category: category, priceMinor: priceMinor, available: available, stock: count)
            let outcome = try await MenuCommand.run {
                try await till.changeMenuItem(id: id, patch, device: MenuCommand.operatorDevice, idempotency: nil)
            }
            if case .performed(let item, _) = outcome { print("changed \(MenuCommand.line(item))") }
        }
    }

    struct Retire: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take an item off the menu (bills that hold it keep it).")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The item's id.") var id: String

        func run() async throws {
            let (database, till) = try MenuCommand.open(store)
            defer { try? database.close() }
            _ = try await MenuCommand.run { try await till.retireMenuItem(id: id, device: MenuCommand.operatorDevice, idempotency: nil) }
            print("retired \(id)")
        }
    }

    /// `routemap menu category`: the categories items are in, as `/v1/menu/categories` manages them.
    struct Category: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List, add, rename or retire the menu's categories.",
            subcommands: [List.self, Add.self, Rename.self, Retire.self])

        static func line(_ category: MenuCategory) -> String { "\(category.id)\t\(category.name)" }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List the categories in menu order: id, name.")
            @OptionGroup var store: StoreOptions

            func run() async throws {
                let (database, till) = try MenuCommand.open(store)
                defer { try? database.close() }
                for category in try till.menuCategories() { print(Category.line(category)) }
            }
        }

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Add a category at the end of the menu.")
            @OptionGroup var store: StoreOptions
            @Argument(help: "The new category's id (a-z, 0-9, '-'), what items name as their category.") var id: String
            @Option(help: "Its name (the menu section's title).") var name: String

            func run() async throws {
                try MenuCommand.checkSlug(id, "the id")
                try MenuCommand.checkName(name)
                let (database, till) = try MenuCommand.open(store)
                defer { try? database.close() }
                let outcome = try await MenuCommand.run {
                    try await till.createMenuCategory(
                        MenuCategory(id: id, name: name), device: MenuCommand.operatorDevice, idempotency: nil)
                }
                if case .performed(let category, _) = outcome { print("added \(Category.line(category))") }
            }
        }

        struct Rename: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Rename a category (its id stays).")
            @OptionGroup var store: StoreOptions
            @Argument(help: "The category's id.") var id: String
            @Option(help: "Its new name.") var name: String

            func run() async throws {
                try MenuCommand.checkName(name)
                let (database, till) = try MenuCommand.open(store)
                defer { try? database.close() }
                let outcome = try await MenuCommand.run {
                    try await till.renameMenuCategory(id: id, name: name, device: MenuCommand.operatorDevice, idempotency: nil)
                }
                if case .performed(let category, _) = outcome { print("renamed \(Category.line(category))") }
            }
        }

        struct Retire: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Take an empty category off the menu (its id is never reused).")
            @OptionGroup var store: StoreOptions
            @Argument(help: "The category's id.") var id: String

            func run() async throws {
                let (database, till) = try MenuCommand.open(store)
                defer { try? database.close() }
                _ = try await MenuCommand.run {
                    try await till.retireMenuCategory(id: id, device: MenuCommand.operatorDevice, idempotency: nil)
                }
                print("retired \(id)")
            }
        }
    }
}
