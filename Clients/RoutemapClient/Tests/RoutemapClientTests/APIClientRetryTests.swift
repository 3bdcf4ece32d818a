import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@testable import RoutemapClient

/// Which screen actions `APIClient.send(_:)` repeats after a lost connection (README: a request
/// that is safe to repeat, GET or one with an `Idempotency-Key`), over a transport that loses the
/// first answer.
@Suite("API client: retrying screen actions")
struct APIClientRetryTests {
    /// A client whose transport loses the first request's answer and answers the others `{"ok": true}`.
    private func client() -> (APIClient, StubTransport) {
        let transport = StubTransport { _, attempt in
            if attempt == 0 { throw URLError(.networkConnectionLost) }
            return (200, ["ok": true])
        }
        let client = APIClient(
            baseURL: URL(string: "http://stub.invalid")!, token: "token", transport: transport, retry: .init(maxAttempts: 3, delay: .milliseconds(1)))
        return (client, transport)
    }

    @Test("A GET action is sent again after a lost connection")
    func getIsRetried() async throws {
        let (client, transport) = client()
        let action = try ActionRequest(action: ScreenAction(name: "showBills", method: .get, path: "/v1/bills"), values: .init())
        let answer = try await client.send(action)
        #expect(answer.body == ["ok": true])
        let requests = await transport.log.requests
        #expect(requests.map(\.httpMethod) == ["GET", "GET"])
        #expect(requests.allSatisfy { $0.value(forHTTPHeaderField: "Idempotency-Key") == nil })
    }

    @Test("A keyed action is sent again with the same key; an unkeyed POST is not repeated")
    func keyedIsRetriedUnkeyedIsNot() async throws {
        let (keyedClient, keyedTransport) = client()
        let keyed = try ActionRequest(
            action: ScreenAction(name: "checkout", method: .post, path: "/v1/bills/b/checkout", headers: ["Idempotency-Key": "{idempotencyKey}"]),
            values: .init(), intent: UserIntent(idempotencyKey: "key-1"))
        _ = try await keyedClient.send(keyed)
        #expect(await keyedTransport.log.requests.map { $0.value(forHTTPHeaderField: "Idempotency-Key") } == ["key-1", "key-1"])

        let (unkeyedClient, unkeyedTransport) = client()
        let unkeyed = try ActionRequest(action: ScreenAction(name: "cancelCheckout", method: .post, path: "/v1/bills/b/checkout/cancel"), values: .init())
        await #expect(throws: URLError.self) { try await unkeyedClient.send(unkeyed) }
        #expect(await unkeyedTransport.log.requests.count == 1, "a POST without a key may not be repeated")
    }
}
