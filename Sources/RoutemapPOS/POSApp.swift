import RoutemapAPI
import RoutemapDomain
import RoutemapHTTP
import RoutemapNavigation

/// The point-of-sale app: a till's menu, bills, checkout and payment, each device's cash drawer
/// shifts, and the manager's menu and sales report.
/// Its registry is ``POSNavigation/registry``; its data is the domain's `Till`.
package struct POSApp: App {
    package static let name = "pos"
    package static var registry: RouteRegistry<ScreenContext> { POSNavigation.registry }

    let till: Till
    let menu: LiveMenu
    package let navigator: Navigator<ScreenContext>
    let idempotency: Idempotency
    let launcher: LaunchController

    /// Reads the menu (kept current by `LiveMenu`). `idempotency` is the server's one, shared by
    /// every app: a key is one device's, whichever endpoint it is sent to.
    package init(till: Till, idempotency: Idempotency) throws {
        self.till = till
        self.idempotency = idempotency
        let menu = try LiveMenu(till: till)
        self.menu = menu
        let navigator = POSNavigation.makeNavigator()
        self.navigator = navigator
        self.launcher = LaunchController(till: till, menu: menu, navigator: navigator)
    }

    /// Keeps the menu current where reads are round trips (``LiveMenu/keepCurrent()``).
    package func runInBackground() async {
        await menu.keepCurrent()
    }

    package func register(on router: inout Router<APIContext>) {
        MenuController(menu: menu).register(on: &router)
        MenuManagementController(app: self).register(on: &router)
        BillsController(app: self).register(on: &router)
        ReportsController(app: self).register(on: &router)
        ShiftsController(app: self).register(on: &router)
    }

    package func screenContext(for device: AuthenticatedDevice) throws -> ScreenContext {
        screenContext(device)
    }

    package func launch(_ request: Request, _ device: AuthenticatedDevice) throws -> Router<APIContext>.Reply {
        try launcher.launch(request, device)
    }

    /// A walk that needs the current bill when the device has none yet opens one, as launch
    /// would, and walks again.
    package func contextAfterWriting(
        for error: NavigationError, device: AuthenticatedDevice
    ) throws -> (@Sendable () async throws -> ScreenContext)? {
        guard case .missingInput(name: POSInput.billId, _) = error, try till.reader(for: device.id).currentBill() == nil else {
            return nil
        }
        return { [self] in screenContext(device, try await till.currentBill(device: device.id)) }
    }

    package func checkHealth() throws {
        try till.checkHealth()
    }

    package var readsAreImmediate: Bool { till.readsAreImmediate }

    package func reading<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await till.reading(body)
    }

    /// The payload builders' context for one request of `device`, holding the bills it already loaded.
    func screenContext(_ device: AuthenticatedDevice, _ bills: Bill...) -> ScreenContext {
        ScreenContext(till: till, device: device.id, menu: menu.current, known: bills)
    }
}

