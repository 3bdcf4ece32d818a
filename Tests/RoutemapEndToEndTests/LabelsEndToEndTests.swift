import Foundation
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// Bill labels over HTTP against the real binary (SQLite, or PostgreSQL when
/// `ROUTEMAP_TEST_DATABASE_URL` is set): a bill opened with a label (and without, as before),
/// named, renamed, cleared; bad labels refused (problem+json, nothing changed); replays under a
/// key; another device's bill 404, a manager's too; a paid bill's label 409; the label on the
/// bill list, a manager's device list, the bill screen and the order summary; a restart.
@Suite("Bill labels, end to end")
struct LabelsEndToEndTests {
    static func key(_ value: String) -> [(String, String)] { [("Idempotency-Key", value)] }

    @Test("create with a label or none, set, rename, clear; bad labels refused; replays; 404 for others; 409 when paid; lists and screens; a restart")
    func labels() throws {
        let managerCode = "e2e-labels-manager"
        let process = try RoutemapProcess(arguments: ["--manager-enrollment-code", managerCode])
        defer { process.cleanUp() }
        let till = try process.client()

        // No body, an empty object, a null or blank label: a bill without a label, as before.
        for body: JSON? in [nil, [:], ["label": .null], ["label": "  "]] {
            let created = try body.map { try till.json("POST", "/v1/bills", $0) } ?? till.request("POST", "/v1/bills")
            #expect(created.status == 201 && created.json["bill"]?["id"] != nil && created.json["bill"]?["label"] == nil, "\(created.text)")
        }
        // With a label, trimmed; replayed under its key (a blank-free spelling of it is the same request).
        let created = try till.json("POST", "/v1/bills", ["label": " Table 4 "], headers: Self.key("open-table-4"))
        try #require(created.status == 201, "\(created.text)")
        #expect(created.json["bill"]?["label"] == "Table 4" && created.json["navigation"]?.arrayValue?.first?["op"] == "replace")
        let bill = try #require(created.json["bill"]?["id"]?.stringValue)
        let replayed = try till.json("POST", "/v1/bills", ["label": "Table 4"], headers: Self.key("open-table-4"))
        #expect(replayed.header("Idempotent-Replayed") == "true" && replayed.json["bill"] == created.json["bill"], "\(replayed.text)")
        expectProblem(try till.json("POST", "/v1/bills", ["label": "Table 5"], headers: Self.key("open-table-4")), 422, "idempotency_key_reused")
        // Labels are not unique.
        let twin = try till.json("POST", "/v1/bills", ["label": "Table 4"])
        #expect(twin.status == 201 && twin.json["bill"]?["label"] == "Table 4" && twin.json["bill"]?["id"] != created.json["bill"]?["id"])
        let path = "/v1/bills/\(bill)/label"
        _ = try till.json("POST", "/v1/bills/\(bill)/items", ["menuItemId": "latte", "quantity": 1])
        let before = try till.request("GET", "/v1/bills/\(bill)").json

        // Refused: too long (41 characters, by Unicode scalars), U+0000, not a string, no member,
        // an unknown member; on create too. Each problem+json names `label`; none changes anything.
        let long = String(repeating: "é", count: 41)
        let refusals: [(String, String, JSON)] = [
            ("PUT", path, ["label": .string(long)]),
            ("PUT", path, ["label": "a\u{0}b"]),
            ("PUT", path, ["label": 4]),
            ("PUT", path, [:]),
            ("POST", "/v1/bills", ["label": .string(long)]),
            ("POST", "/v1/bills", ["label": ["Table 4"]]),
        ]
        let billsBefore = try till.request("GET", "/v1/bills").json
        for (index, (method, target, body)) in refusals.enumerated() {
            let refused = try till.json(method, target, body, headers: Self.key("refused-\(index)"))
            expectProblem(refused, 400, "invalid_field")
            #expect(refused.json["field"] == "label", "\(refused.text)")
        }
        expectProblem(try till.json("PUT", path, ["label": "Table 4", "name": "x"]), 400, "invalid_field")
        #expect(try till.request("GET", "/v1/bills/\(bill)").json == before)
        #expect(try till.request("GET", "/v1/bills").json == billsBefore, "no bill opened by a refused create")
        // 40 characters are allowed.
        let longest = String(repeating: "é", count: 40)
        let longPut = try till.json("PUT", path, ["label": .string(longest)])
        #expect(longPut.status == 200 && longPut.json["bill"]?["label"] == .string(longest), "\(longPut.text)")

        // Renamed under a key, replayed; the answer replaces the bill screen.
        let renamed = try till.json("PUT", path, ["label": "Sam's tab"], headers: Self.key("rename"))
        try #require(renamed.status == 200, "\(renamed.text)")
        #expect(renamed.json["bill"]?["label"] == "Sam's tab" && renamed.json["bill"]?["lines"]?.arrayValue?.count == 1)
        let step = try #require(renamed.json["navigation"]?.arrayValue?.first)
        #expect(step["op"] == "replace" && step["screen"]?["payload"]?["label"] == "Sam's tab", "\(step)")
        let renameReplay = try till.json("PUT", path, ["label": "Sam's tab"], headers: Self.key("rename"))
        #expect(renameReplay.header("Idempotent-Replayed") == "true" && renameReplay.json["bill"] == renamed.json["bill"])
        // Naming it as it is named changes nothing.
        let same = try till.json("PUT", path, ["label": " Sam's tab"])
        #expect(same.json["bill"]?["version"] == renamed.json["bill"]?["version"])

        // Another till's view: 404, as every bill of another device; a manager's too.
        let other = try process.client(authorized: false)
        other.defaultHeaders = [("Authorization", "Bearer \(try process.enroll(name: "Other till"))")]
        expectProblem(try other.json("PUT", path, ["label": "Mine"]), 404, "not_found")
        expectProblem(try other.request("DELETE", path), 404, "not_found")
        let manager = try process.client(authorized: false)
        let enrolled = try manager.json(
            "POST", "/v1/devices", ["name": "Owner", "enrollmentCode": .string(managerCode), "role": "manager"])
        try #require(enrolled.status == 201, "\(enrolled.text)")
        manager.defaultHeaders = [("Authorization", "Bearer \(enrolled.json["token"]!.string)")]
        expectProblem(try manager.json("PUT", path, ["label": "Mine"]), 404, "not_found")
        #expect(try till.request("GET", "/v1/bills/\(bill)").json["label"] == "Sam's tab")

        // The bill list leads each row with the label; a manager's list of the device shows it too.
        let list = try till.request("GET", "/v1/bills").json["bills"]?.arrayValue ?? []
        #expect(list.first { $0["id"] == .string(bill) }?["label"] == "Sam's tab" && list.filter { $0["label"] == "Table 4" }.count == 1)
        let devices = try manager.request("GET", "/v1/devices").json["devices"]?.arrayValue ?? []
        let tillId = try #require(devices.first { $0["name"] == "e2e till" }?["deviceId"]?.stringValue)
        let managed = try manager.request("GET", "/v1/devices/\(tillId)/bills").json["bills"]?.arrayValue ?? []
        #expect(managed.first { $0["id"] == .string(bill) }?["label"] == "Sam's tab")
        // A client drawing the list from components: the label is the row's title.
        let declarative = [("Navigation-Screens", "tabBar,splitView,menu")]
        let shown = try till.json(
            "POST", "/v1/apps/pos/navigate", ["from": ["tabBar", "splitContainer"], "to": "billList", "input": ["billId": .string(bill)]],
            headers: declarative)
        let listScreen = try #require(shown.json["navigation"]?.arrayValue?.last?["screen"], "\(shown.text)")
        let titles = listScreen["payload"]?["components"]?.arrayValue?.compactMap { $0["children"]?.arrayValue?.first?["title"]?.stringValue } ?? []
        #expect(titles.contains("Sam's tab") && titles.filter { $0 == "Table 4" }.count == 1, "\(titles)")

        // The bill screen as components: the label as headline, the name buttons and actions.
        let drawn = try till.json("PUT", path, ["label": "Sam's tab, window"], headers: declarative)
        let screen = try #require(drawn.json["navigation"]?.arrayValue?.first?["screen"], "\(drawn.text)")
        let components = screen["payload"]?["components"]?.arrayValue ?? []
        #expect(components.first == ["type": "text", "text": "Sam's tab, window", "style": "headline"], "\(components)")
        let actions = screen["actions"]?.arrayValue ?? []
        let setLabel = try #require(actions.first { $0["name"] == "setLabel" }, "\(actions)")
        #expect(setLabel["method"] == "PUT" && setLabel["path"] == "/v1/bills/{billId}/label" && setLabel["body"] == ["label": "{value.label}"])
        #expect(actions.contains { $0["name"] == "removeLabel" && $0["method"] == "DELETE" })
        #expect(components.contains { $0["action"] == "setLabel" } && components.contains { $0["action"] == "removeLabel" })

        // Cleared: `null`, `""` and DELETE; `null` and `""` are one request to a key.
        let cleared = try till.json("PUT", path, ["label": .null], headers: Self.key("clear"))
        #expect(cleared.status == 200 && cleared.json["bill"]?["label"] == nil, "\(cleared.text)")
        #expect(!(cleared.json["navigation"]?.arrayValue?.first?["screen"]?["actions"]?.arrayValue ?? []).contains { $0["name"] == "removeLabel" })
        #expect(try till.json("PUT", path, ["label": ""], headers: Self.key("clear")).header("Idempotent-Replayed") == "true")
        _ = try till.json("PUT", path, ["label": "Table 9"])
        let deleted = try till.request("DELETE", path, headers: Self.key("delete"))
        #expect(deleted.status == 200 && deleted.json["bill"]?["label"] == nil, "\(deleted.text)")
        #expect(try till.request("DELETE", path, headers: Self.key("delete")).header("Idempotent-Replayed") == "true")

        // Checked out: still named, shown on the summary; paid: 409, the label stays.
        _ = try till.json("PUT", path, ["label": "Table 9"])
        let checkedOut = try till.request("POST", "/v1/bills/\(bill)/checkout")
        let summary = try #require(checkedOut.json["navigation"]?.arrayValue?.last?["screen"]?["payload"], "\(checkedOut.text)")
        #expect(summary["label"] == "Table 9", "\(summary)")
        let late = try till.json("PUT", path, ["label": "Table 10"])
        #expect(late.status == 200 && late.json["bill"]?["status"] == "checked_out" && late.json["bill"]?["label"] == "Table 10", "\(late.text)")
        let total = try #require(late.json["bill"]?["totalMinor"])
        let paid = try till.json("POST", "/v1/bills/\(bill)/pay", ["method": "card", "amountMinor": total], headers: Self.key("pay"))
        try #require(paid.status == 200, "\(paid.text)")
        expectProblem(try till.json("PUT", path, ["label": "Table 11"]), 409, "bill_settled")
        expectProblem(try till.request("DELETE", path), 409, "bill_settled")
        let settled = try till.request("GET", "/v1/bills/\(bill)").json
        #expect(settled["label"] == "Table 10")

        #expect(process.stop() == 0)
        let restarted = try RoutemapProcess(arguments: [], databasePath: process.databasePath)
        defer { restarted.cleanUp() }
        let reader = try restarted.client(authorized: false)
        reader.defaultHeaders = till.defaultHeaders
        #expect(try reader.request("GET", "/v1/bills/\(bill)").json == settled)
    }
}
