import Foundation
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// Line notes over HTTP against the real binary (SQLite, or PostgreSQL when
/// `ROUTEMAP_TEST_DATABASE_URL` is set): added with an item, changed, cleared, refused when bad
/// (problem+json, nothing changed), replayed under a key, shown on the bill screen, the order
/// summary and the receipt, and kept across a restart.
@Suite("Line notes, end to end")
struct NotesEndToEndTests {
    private static func lines(_ response: TestResponse) -> [JSON] { response.json["bill"]?["lines"]?.arrayValue ?? [] }

    @Test("add with a note, merge only with the same note, patch it, clear it; bad notes refused and nothing changed; replays; every screen and the receipt; a restart")
    func notes() throws {
        let process = try RoutemapProcess(arguments: [])
        defer { process.cleanUp() }
        let till = try process.client()
        let bill = try #require(till.request("POST", "/v1/bills").json["bill"]?["id"]?.stringValue)
        let items = "/v1/bills/\(bill)/items"

        let plain = try till.json("POST", items, ["menuItemId": "latte", "quantity": 1])
        #expect(plain.status == 200 && Self.lines(plain).first?["note"] == nil, "\(plain.text)")
        let hot: JSON = ["menuItemId": "latte", "quantity": 1, "note": "  extra hot "]
        let added = try till.json("POST", items, hot, headers: [("Idempotency-Key", "add-hot")])
        try #require(added.status == 200, "\(added.text)")
        #expect(Self.lines(added).map { $0["note"] } == [nil, "extra hot"] && Self.lines(added).map { $0["quantity"] } == [1, 1])
        // The same key and body again: the recorded answer, nothing added twice.
        let replayed = try till.json("POST", items, hot, headers: [("Idempotency-Key", "add-hot")])
        #expect(replayed.header("Idempotent-Replayed") == "true" && replayed.json["bill"] == added.json["bill"], "\(replayed.text)")
        // The same note without the spaces merges into its line; a null note into the plain one.
        let merged = try till.json("POST", items, ["menuItemId": "latte", "quantity": 2, "note": "extra hot"])
        let mergedPlain = try till.json("POST", items, ["menuItemId": "latte", "quantity": 1, "note": .null])
        #expect(Self.lines(merged).map { $0["quantity"] } == [1, 3])
        #expect(Self.lines(mergedPlain).map { $0["quantity"] } == [2, 3], "\(mergedPlain.text)")
        let before = try till.request("GET", "/v1/bills/\(bill)").json

        // Refused: too long (141 characters, by Unicode scalars), U+0000, not a string, an empty
        // change; each problem+json naming the member, none changes the bill.
        let long = String(repeating: "é", count: 141)
        let refusals: [(String, String, JSON)] = [
            ("POST", items, ["menuItemId": "latte", "quantity": 1, "note": .string(long)]),
            ("POST", items, ["menuItemId": "latte", "quantity": 1, "note": 7]),
            ("PATCH", "\(items)/\(Self.lines(merged)[1]["lineId"]!.string)", ["note": .string(long)]),
            ("PATCH", "\(items)/\(Self.lines(merged)[1]["lineId"]!.string)", ["note": "a\u{0}b"]),
            ("PATCH", "\(items)/\(Self.lines(merged)[1]["lineId"]!.string)", ["note": ["extra hot"]]),
        ]
        for (method, path, body) in refusals {
            let refused = try till.json(method, path, body, headers: [("Idempotency-Key", "refused-\(method)-\(body.encodedString.count)")])
            expectProblem(refused, 400, "invalid_field")
            #expect(refused.json["field"] == "note", "\(refused.text)")
        }
        let empty = try till.json("PATCH", "\(items)/\(Self.lines(merged)[1]["lineId"]!.string)", [:])
        expectProblem(empty, 400, "invalid_field")
        #expect(try till.request("GET", "/v1/bills/\(bill)").json == before)
        // 140 characters are allowed.
        let longest = String(repeating: "é", count: 140)
        let lineId = Self.lines(merged)[0]["lineId"]!.string
        let longPatch = try till.json("PATCH", "\(items)/\(lineId)", ["note": .string(longest)])
        #expect(longPatch.status == 200 && Self.lines(longPatch)[0]["note"] == .string(longest), "\(longPatch.text)")

        // Patch the plain line's note: it stays its own line even though it now matches the other.
        let patch: JSON = ["note": "extra hot", "quantity": 4]
        let patched = try till.json("PATCH", "\(items)/\(lineId)", patch, headers: [("Idempotency-Key", "patch-note")])
        try #require(patched.status == 200, "\(patched.text)")
        #expect(Self.lines(patched).map { $0["note"] } == ["extra hot", "extra hot"] && Self.lines(patched).map { $0["quantity"] } == [4, 3])
        #expect(patched.json["navigation"]?.arrayValue?.first?["op"] == "replace")
        let patchReplay = try till.json("PATCH", "\(items)/\(lineId)", patch, headers: [("Idempotency-Key", "patch-note")])
        #expect(patchReplay.header("Idempotent-Replayed") == "true" && patchReplay.json["bill"] == patched.json["bill"])
        // Clearing: `null` under a key is the request `""` is, not one without a note.
        let cleared = try till.json("PATCH", "\(items)/\(lineId)", ["note": .null], headers: [("Idempotency-Key", "clear-note")])
        #expect(cleared.status == 200 && Self.lines(cleared)[0]["note"] == nil && Self.lines(cleared)[0]["quantity"] == 4, "\(cleared.text)")
        let clearedAgain = try till.json("PATCH", "\(items)/\(lineId)", ["note": ""], headers: [("Idempotency-Key", "clear-note")])
        #expect(clearedAgain.header("Idempotent-Replayed") == "true")
        // ...and a quantity with a null note (clear it) is not the quantity alone (keep it).
        let withNull = try till.json("PATCH", "\(items)/\(lineId)", ["quantity": 4, "note": .null], headers: [("Idempotency-Key", "four")])
        #expect(withNull.status == 200, "\(withNull.text)")
        let keyReused = try till.json("PATCH", "\(items)/\(lineId)", ["quantity": 4], headers: [("Idempotency-Key", "four")])
        expectProblem(keyReused, 422, "idempotency_key_reused")
        let noted = try till.json("PATCH", "\(items)/\(lineId)", ["note": "no foam"])
        try #require(noted.status == 200)

        // A client without a native bill screen: the note under its line, a note button, setNote.
        let declarative = try till.json(
            "PATCH", "\(items)/\(lineId)", ["note": "no foam, oat"], headers: [("Navigation-Screens", "tabBar,splitView,menu")])
        let screen = try #require(declarative.json["navigation"]?.arrayValue?.first?["screen"], "\(declarative.text)")
        let action = try #require(screen["actions"]?.arrayValue?.first { $0["name"] == "setNote" }, "\(screen)")
        #expect(action["method"] == "PATCH" && action["body"] == ["note": "{value.note}"] && action["row"] == "lines", "\(action)")
        let rows = screen["payload"]?["components"]?.arrayValue?.compactMap { $0["children"]?.arrayValue }.joined().map { $0 } ?? []
        let index = try #require(rows.firstIndex { $0["type"] == "row" && $0["title"] == "4 × Latte" }, "\(rows)")
        #expect(rows[index + 1] == ["type": "text", "text": "no foam, oat", "style": "caption"])
        #expect(rows.contains { $0["type"] == "button" && $0["action"] == "setNote" && $0["item"] == ["lineId": .string(lineId)] })

        // Checked out: no more changes, the summary shows the notes; paid: the receipt.
        let checkedOut = try till.request("POST", "/v1/bills/\(bill)/checkout")
        let summary = try #require(checkedOut.json["navigation"]?.arrayValue?.last?["screen"]?["payload"], "\(checkedOut.text)")
        #expect(summary["lines"]?.arrayValue?.map { $0["note"] } == ["no foam, oat", "extra hot"])
        expectProblem(try till.json("PATCH", "\(items)/\(lineId)", ["note": "later"]), 409, "bill_not_open")
        let total = try #require(checkedOut.json["bill"]?["totalMinor"])
        let paid = try till.json("POST", "/v1/bills/\(bill)/pay", ["method": "card", "amountMinor": total], headers: [("Idempotency-Key", "pay")])
        try #require(paid.status == 200, "\(paid.text)")
        let receipt = try till.request("GET", "/v1/bills/\(bill)/receipt")
        #expect(receipt.json["lines"]?.arrayValue?.map { $0["note"] } == ["no foam, oat", "extra hot"], "\(receipt.text)")

        #expect(process.stop() == 0)
        let restarted = try RoutemapProcess(arguments: [], databasePath: process.databasePath)
        defer { restarted.cleanUp() }
        let reader = try restarted.client(authorized: false)
        reader.defaultHeaders = till.defaultHeaders
        #expect(try reader.request("GET", "/v1/bills/\(bill)/receipt").json == receipt.json)
    }
}
