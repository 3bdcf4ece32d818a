import Foundation
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// A node whose database went back in time under it: a failover to a standby that had not
/// received the last commits (or a restore). The next change then makes a bill's version again,
/// with other content, and a node that answers from what it cached by version must not show
/// the content that was lost.
@Suite("A node whose PostgreSQL database went back in time", .enabled(if: TestPostgres.isEnabled, "about PostgreSQL failovers"))
struct PostgresHistoryTests {
    /// The bill screen's lines in a launch answer, by menu item.
    private func launchItems(_ server: Server) throws -> [String] {
        let launch = try server.get("/v1/launch")
        try #require(launch.status == 200, "\(launch.text)")
        let bill = launch.json["navigation"]?.arrayValue?.last { $0["route"] == "bill" }?["screen"]?["payload"]
        return bill?["lines"]?.arrayValue?.compactMap { $0["menuItemId"]?.stringValue } ?? []
    }

    @Test("after a commit is lost and another node makes the same version again, this node's bill and launch show what the database holds")
    func lostCommit() throws {
        let server = try Server()
        let url = server.process.databasePath
        let bill = try #require(try server.newBill()["id"]?.stringValue)
        try server.add("latte", to: bill)
        try TestPostgres.keepBill(url, id: bill)
        let lost = try server.add("cappuccino", to: bill)
        for _ in 1...2 {
            #expect(try launchItems(server) == ["latte", "cappuccino"])
            #expect(try server.bill(bill) == lost)
        }

        // The cappuccino's commit is lost, as on a standby promoted without it.
        try TestPostgres.loseCommitsSinceKept(url)
        // Another node, the same device, makes the bill's next version: this node's own write
        // would put the new bill in its cache whatever it had forgotten.
        let other = try RoutemapProcess(databasePath: url, token: try server.process.token())
        defer { other.cleanUp() }
        let made = try #require(
            try other.client().json("POST", "/v1/bills/\(bill)/items", ["menuItemId": "espresso", "quantity": 1]).json["bill"])
        #expect(made["version"] == lost["version"])
        for _ in 1...2 {
            #expect(try launchItems(server) == ["latte", "espresso"])
            #expect(try server.bill(bill) == made)
        }
    }
}
