import Foundation
import Testing

@testable import RoutemapClient

/// `503` answers (openapi.yaml's `Unavailable`) against the real server, with a transport that
/// turns chosen answers into the 503 the server sends when it is overloaded, slow or stopping:
/// the client knows their codes, reads `Retry-After`, and sends a keyed request again after it
/// (with the same key) for the codes the spec says to retry.
@Suite("API client: 503 unavailable, end to end")
struct UnavailableTests {
    @Test(
        "timed_out and database_unavailable after the change was made: sent again after Retry-After with the same key, and replayed",
        arguments: ["timed_out", "database_unavailable"])
    func changeMadeThenRetried(code: String) async throws {
        let transport = FaultyTransport()
        let app = try await AppFixture(transport: transport)
        defer { app.stop() }
        try await app.start()
        let add = try await app.session.prepare(action: "addItem", on: "menu", item: try await app.menuRow("latte"))
        await transport.plan.fail("POST", "/items", with: .answeredLate(status: 503, code: code, retryAfter: 1), times: 1)

        let clock = ContinuousClock()
        let started = clock.now
        let result = try await app.session.perform(add)
        #expect(clock.now - started >= .seconds(1), "it waited for Retry-After")
        #expect(result.answer.replayed, "the retry got the recorded answer of the change made")
        let sent = await transport.plan.lines("/items")
        #expect(sent.count == 2 && sent.allSatisfy { $0.contains("key=\(add.intent.idempotencyKey)") }, "\(sent)")
        #expect(try await app.client.bill(id: try await app.shownBill().id).lines.map(\.quantity) == [1], "one latte, not two")
    }

    @Test("overloaded (the server did nothing): a keyed request is sent again after Retry-After, with the same key")
    func overloadedRetried() async throws {
        let transport = FaultyTransport()
        let app = try await AppFixture(transport: transport)
        defer { app.stop() }
        try await app.start()
        let intent = UserIntent()
        await transport.plan.fail("POST", "/v1/bills", with: .refused(status: 503, code: "overloaded", retryAfter: 0), times: 1)
        let created = try await app.client.createBill(intent: intent)
        #expect(!created.replayed)
        #expect(
            await transport.plan.lines("/v1/bills") == [
                "POST /v1/bills key=\(intent.idempotencyKey) -> 503 overloaded (not sent)", "POST /v1/bills key=\(intent.idempotencyKey) -> 201",
            ])
    }

    @Test("shutting_down, a Retry-After past the bound, or a request without a key: thrown at once, with the code and retryAfterSeconds")
    func notRetried() async throws {
        let transport = FaultyTransport()
        let app = try await AppFixture(transport: transport)
        defer { app.stop() }
        try await app.start()
        let bill = try await app.shownBill().id

        await transport.plan.fail("POST", "/checkout", with: .refused(status: 503, code: "shutting_down", retryAfter: 1))
        await #expect {
            _ = try await app.client.checkout(billId: bill)
        } throws: { error in
            (error as? Problem)?.code == .shuttingDown && (error as? Problem)?.retryAfterSeconds == 1
        }
        #expect(await transport.plan.lines("/checkout").count == 1)

        await transport.plan.clear()
        await transport.plan.fail("POST", "/items", with: .refused(status: 503, code: "timed_out", retryAfter: 30))
        await #expect {
            _ = try await app.client.addItem(billId: bill, menuItemId: "latte")
        } throws: { error in
            (error as? Problem)?.code == .timedOut && (error as? Problem)?.retryAfterSeconds == 30
        }
        #expect(await transport.plan.lines("/items").count == 1, "Retry-After 30 s is past maxRetryAfter")

        await transport.plan.clear()
        await transport.plan.fail("POST", "/navigate", with: .refused(status: 503, code: "overloaded", retryAfter: 0))
        await #expect {
            try await app.session.navigate(to: "menu")
        } throws: { error in
            (error as? Problem)?.code == .overloaded && (error as? Problem)?.retryAfterSeconds == 0
        }
        #expect(await transport.plan.lines("/navigate").count == 1, "a POST without an Idempotency-Key is not repeated")
    }
}
