import Foundation
import Logging
import NIOPosix
@testable import RoutemapPostgres
import RoutemapTestSupport
import Testing

/// The bill cache's version check has one timer, its batch's deadline: a check whose database
/// does not answer gives up in time, and a connection that arrives after its batch gave up is
/// closed, so the check keeps one connection whatever the network did.
@Suite("The version check's deadline on PostgreSQL", .enabled(if: TestDatabase.onPostgres, "about the PostgreSQL store"))
struct VersionCheckTests {
    @Test("a check whose connection hangs answers nil; the connection made after its deadline, once the network heals, is closed, and the check keeps one")
    func lateConnectionIsClosed() async throws {
        let (proxy, database, proxied) = try FreezableProxy.inFrontOfNewTestDatabase()
        defer {
            proxy.close()
            TestPostgres.dropDatabase(database)
        }
        try PostgresStore(url: #require(DatabaseURL(database)), migrations: StorageFixtures.postgresMigrations(), connections: 1).close()
        // A deadline under the connection's own connect timeout (5 s), so the connection the
        // first batch waits on can still be made after that batch gave up.
        let deadline = Duration.seconds(1)
        let check = VersionCheck(
            configuration: try #require(DatabaseURL(proxied)).connectionConfiguration(), eventLoops: MultiThreadedEventLoopGroup.singleton,
            logger: Logger(label: "test"), deadline: deadline, reconnected: {})
        defer { check.close() }
        let used = UsedVersions(bills: ["bill_none": 1])

        proxy.freeze()
        #expect(await check.latest(for: used) == nil)

        // The next batch connects while the first batch's connection is still held; both reach
        // the server once the proxy passes them on. Only the second batch's is kept.
        async let second = check.latest(for: used)
        try await Task.sleep(for: .milliseconds(500))
        proxy.thaw()
        #expect(await second?.bills == [:])
        #expect(await check.latest(for: used)?.bills == [:])
        #expect(try await connections(to: database, settleTo: 1) == 1)

        check.close()
        #expect(try await connections(to: database, settleTo: 0) == 0)
    }

    /// The connections to `database` from others, once their count is `expected` or 5 s passed.
    private func connections(to database: String, settleTo expected: Int) async throws -> Int {
        let name = TestPostgres.databaseName(database)
        let deadline = ContinuousClock.now + .seconds(5)
        while true {
            let count = try #require(Int(try TestPostgres.psql(database, """
                SELECT count(*) FROM pg_stat_activity WHERE datname = '\(name)' AND pid <> pg_backend_pid()
                """).trimmingCharacters(in: .whitespacesAndNewlines)))
            if count == expected || ContinuousClock.now > deadline { return count }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
