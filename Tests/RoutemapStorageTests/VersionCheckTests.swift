import Foundation
import Logging
import NIOPosix
@testable import RoutemapPostgres
import RoutemapTestSupport
import Testing

/// The bill cache's version check has one timer, its batch's deadline: a connection that arrives
/// after its batch gave up is closed, so the check keeps one connection whatever the network did.
@Suite("The version check's deadline on PostgreSQL", .enabled(if: TestDatabase.onPostgres, "about the PostgreSQL store"))
struct VersionCheckTests {
    @Test("a connection the check made after its batch's deadline, once the network heals, is closed: the check never keeps two")
    func lateConnectionIsClosed() async throws {
        let (proxy, database, proxied) = try FreezableProxy.inFrontOfNewTestDatabase()
        defer {
            proxy.close()
            TestPostgres.dropDatabase(database)
        }
        try PostgresStore(url: #require(DatabaseURL(database)), migrations: StorageFixtures.postgresMigrations(), connections: 1).close()
        // A deadline under the connection's own connect timeout (5 s), so the connection the
        // first batch waits on can still be made after that batch gave up.
        let check = VersionCheck(
            configuration: try #require(DatabaseURL(proxied)).connectionConfiguration(), eventLoops: MultiThreadedEventLoopGroup.singleton,
            logger: Logger(label: "test"), deadline: .seconds(1), reconnected: {})
        defer { check.close() }
        let used = UsedVersions(bills: ["bill_none": 1])

        proxy.freeze()
        #expect(await check.latest(for: used) == nil)

        // The next batch connects while the first batch's connection is still held; both reach
        // the server once the proxy passes them on. Before, both were kept in turn, and the one
        // replaced was freed unclosed (postgres-nio's assertion stops the process). Whether the
        // second batch answers in its second depends on the machine's load, so it is not asserted.
        async let second = check.latest(for: used)
        try await Task.sleep(for: .milliseconds(500))
        proxy.thaw()
        _ = await second
        _ = await check.latest(for: used)
        #expect(try await connections(to: database, atMost: 1) <= 1)

        check.close()
        #expect(try await connections(to: database, atMost: 0) == 0)
    }

    /// The connections to `database` from others, once at most `limit` or 10 s passed (a close
    /// takes a moment to reach the server).
    private func connections(to database: String, atMost limit: Int) async throws -> Int {
        let name = TestPostgres.databaseName(database)
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let count = try #require(Int(try TestPostgres.psql(database, """
                SELECT count(*) FROM pg_stat_activity WHERE datname = '\(name)' AND pid <> pg_backend_pid()
                """).trimmingCharacters(in: .whitespacesAndNewlines)))
            if count <= limit || ContinuousClock.now > deadline { return count }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
