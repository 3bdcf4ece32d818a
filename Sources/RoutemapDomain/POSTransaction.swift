import Foundation

/// Reads and writes inside one ``POSStore/write(durability:_:)`` transaction.
public protocol POSTransaction: RecordedAnswers {
    /// The menu item with `id` on the menu, or `nil` (also when retired).
    func menuItem(id: String) throws -> MenuItem?
    /// Whether a menu item with `id` exists, retired or not.
    func menuItemExists(id: String) throws -> Bool
    /// Adds `item` at the end of the menu, with its modifier groups.
    func insertMenuItem(_ item: MenuItem) throws
    /// Saves an existing item's name, category, price and availability (not its modifier groups).
    func updateMenuItem(_ item: MenuItem) throws
    /// Replaces the modifier groups (and their options) of menu item `menuItemId`, on the menu,
    /// with `groups` (`[]`: none). Bill lines keep the options they were added with.
    func replaceModifierGroups(menuItemId: String, with groups: [ModifierGroup]) throws
    /// Takes `sold` (quantities by menu item id) off those items' shelf counts
    /// (``MenuItem/stock``), in this transaction: an item not counted (any more) is left alone,
    /// and a count may go below 0. Called only with counted items, never with none.
    func takeFromStock(_ sold: [String: Int]) throws
    /// Takes item `id` off the menu at `date`, keeping its row for the bills that hold it.
    func retireMenuItem(id: String, at date: Date) throws
    /// The category with `id` on the menu, or `nil` (also when retired).
    func menuCategory(id: String) throws -> MenuCategory?
    /// Whether a category with `id` exists, retired or not.
    func menuCategoryExists(id: String) throws -> Bool
    /// Adds `category` at the end of the menu.
    func insertMenuCategory(_ category: MenuCategory) throws
    /// Saves an existing category's name.
    func updateMenuCategory(_ category: MenuCategory) throws
    /// Takes category `id` off the menu at `date`.
    func retireMenuCategory(id: String, at date: Date) throws
    /// How many items on the menu are in category `id`.
    func menuItemCount(category id: String) throws -> Int
    /// The bill with `id`, or `nil`.
    func bill(id: String) throws -> Bill?
    /// The current bill of `deviceId` (see ``POSStore/currentBill(deviceId:)``), or `nil`.
    func currentBill(deviceId: String) throws -> Bill?
    /// Of `deviceId`'s open bills with no lines, the one selected last (as the current bill is
    /// chosen), or `nil`: the bill a use case that needs a next bill for the device takes up
    /// instead of opening another empty one.
    func emptyOpenBill(deviceId: String) throws -> Bill?
    /// Saves a new bill with its lines.
    func insert(_ bill: Bill) throws
    /// Saves an existing bill's status, totals, version, lines, selection and device (a
    /// transfer). Throws if the bill is
    /// missing or its stored version is not older than `bill.version` (a stale write).
    func update(_ bill: Bill) throws
    /// Records a payment (its receipt number at most once; a bill's payments together at most
    /// its total, which the store refuses to exceed). Write the bill with it in
    /// ``Bill/payments`` in the same transaction.
    func insert(_ payment: Payment) throws
    /// The receipt number of the payment this transaction records next: one more than the
    /// last one committed (1 for the first), so that numbers run without gaps. Call it once
    /// per payment, after every check that may refuse it and just before inserting it: on
    /// PostgreSQL it takes a counter that every other paying transaction then waits for until
    /// this one ends (a rollback gives the number back).
    func nextReceiptNumber() throws -> Int64
    /// Records a refund of a paid bill.
    func insert(_ refund: Refund) throws
    /// The refunds of bill `billId`, oldest first (by creation, then as recorded).
    func refunds(billId: String) throws -> [Refund]
    /// The open shift of `deviceId`, or `nil`. On PostgreSQL it first locks the device's row
    /// (not against payments' foreign key checks): a device's shift changes, which all read this
    /// first, run one at a time, and the device cannot open two.
    func openShift(deviceId: String) throws -> DrawerShift?
    /// Records a new, open shift (the store refuses a second open shift of one device).
    func insert(_ shift: DrawerShift) throws
    /// Saves the close of an open shift (``DrawerShift/closing``).
    func close(_ shift: DrawerShift) throws
    /// Records cash paid into or out of an open shift's drawer.
    func insert(_ movement: DrawerMovement) throws
    /// ``POSStore/drawerFigures(of:)`` in this transaction: its own movements included.
    func drawerFigures(of shift: DrawerShift) throws -> DrawerFigures
    /// Saves a new device with the digest of its token.
    func insert(_ device: Device, tokenDigest: [UInt8]) throws
    /// The device with `id`, or `nil`.
    func device(id: String) throws -> Device?
    /// Marks device `id` revoked at `date`.
    func revokeDevice(id: String, at date: Date) throws
    /// Sets the digest of device `deviceId`'s next token (replacing any earlier one not used yet).
    func setNextToken(deviceId: String, tokenDigest: [UInt8]) throws
    /// Makes the next token, if its digest is `tokenDigest`, device `deviceId`'s only token.
    func promoteNextToken(deviceId: String, tokenDigest: [UInt8]) throws
    /// Forgets answers recorded before `date`.
    func deleteRecordedAnswers(before date: Date) throws
}
