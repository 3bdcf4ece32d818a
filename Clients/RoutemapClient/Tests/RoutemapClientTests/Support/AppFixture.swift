import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@testable import RoutemapClient

/// One app against a real server: a session over a newly enrolled device, with a recording
/// performer, started (registry read, launch performed).
struct AppFixture {
    let server: RoutemapServer
    let client: APIClient
    let performer: RecordingPerformer
    let session: NavigationSession

    init(capabilities: AppCapabilities = .everything, transport: any HTTPTransport = URLSessionTransport()) async throws {
        server = try RoutemapServer()
        client = try await server.enrolledClient(capabilities: capabilities, transport: transport)
        performer = RecordingPerformer()
        session = NavigationSession(client: client, performer: performer)
    }

    /// Starts the session and checks the launch was performed as the server sent it.
    func start() async throws {
        let outcome = try await session.start()
        #expect(outcome.resyncReason == nil)
        #expect(
            await performer.take() == [
                "setRoot tabBar tabs=splitContainer,drawer", "selectTab splitContainer", "embed menu slot=primary", "embed bill slot=secondary",
            ])
    }

    /// The bill shown on the bill screen.
    func shownBill() async throws -> Bill {
        try #require(await session.screen(of: "bill")).screen.billPayload
    }

    /// Adds an espresso to bill `id` and checks it out elsewhere in the app (the answers' steps
    /// are not followed): the order summary's guard shows it only for a checked-out bill.
    func checkOut(_ id: String) async throws {
        _ = try await client.addItem(billId: id, menuItemId: "espresso")
        _ = try await client.checkout(billId: id)
    }

    /// The stack as `route{input=value}` texts.
    func stack() async -> [String] { await session.stack.map(\.description) }

    /// The row of the menu screen for `menuItemId`.
    func menuRow(_ menuItemId: String) async throws -> JSONValue {
        let menu = try #require(await session.screen(of: "menu")).screen
        return try #require(menu.payload["items"]?.arrayValue?.first { $0["id"] == .string(menuItemId) })
    }

    /// Taps "add" on the menu row of `menuItemId`.
    @discardableResult
    func add(_ menuItemId: String) async throws -> NavigationSession.ActionResult {
        try await session.perform(try await session.prepare(action: "addItem", on: "menu", item: try await menuRow(menuItemId)))
    }

    func stop() { server.stop() }
}

/// A transport that notes the `Idempotency-Key` of every request to paths ending with
/// `watching`, and, when armed, loses the answer to the next such request after the server
/// handled it (as a connection dropped on the way back would).
struct LossyTransport: HTTPTransport {
    actor Log {
        let watching: String
        private var loseNext = false
        private(set) var keys: [String?] = []

        init(watching: String) { self.watching = watching }

        /// Loses the answer to the next request to a watched path.
        func arm() { loseNext = true }

        /// Notes a request; whether to lose its answer.
        func note(_ request: URLRequest) -> Bool {
            guard request.url?.path.hasSuffix(watching) == true else { return false }
            keys.append(request.value(forHTTPHeaderField: "Idempotency-Key"))
            defer { loseNext = false }
            return loseNext
        }
    }

    let log: Log
    private let real = URLSessionTransport()

    init(watching: String) { log = Log(watching: watching) }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let lose = await log.note(request)
        let answer = try await real.send(request)
        if lose { throw URLError(.networkConnectionLost) }
        return answer
    }
}
