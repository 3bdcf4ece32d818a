// swift-tools-version:6.0
import PackageDescription

// Module map. Each module depends only on modules listed below it:
//
//   routemap (executable)  ─ the command line (serve, migrate, routes, healthcheck, settings,
//                            backup, devices, menu); lists the apps it serves (Apps.swift)
//   RoutemapPOS            ─ the point-of-sale app: registry, screens, bills and menu endpoints
//   RoutemapTrivia         ─ the trivia app: registry, screens, games endpoints, and its store
//                            (the protocol, with SQLite and PostgreSQL implementations)
//   RoutemapAPI            ─ the engine the apps share: devices, admission, idempotency, each
//                            app's navigation endpoints, health, metrics, the web client's files
//   RoutemapNavigation     ─ route registry, steps, walks (knows no app's data)
//   RoutemapPostgres       ─ PostgreSQL (postgres-nio) implementation of the domain's store, for
//                            several nodes on one database (with RoutemapStorage's migration types)
//   RoutemapStorage        ─ SQLite (GRDB) implementation of the domain's store, migrations
//   RoutemapDomain         ─ menu, bills, money, payments, devices, the store protocol (knows no HTTP)
//   RoutemapHTTP           ─ Request/Response/Router over libmicrohttpd (knows no app)
//   RoutemapJSON           ─ a strict JSON value, parser and writer
//   CMicroHTTPD, CGnuTLS,  ─ system-library shims: libmicrohttpd; GnuTLS (the health check's
//   CMalloc                  HTTPS probe); glibc's malloc.h (the executable's arena limit)
let package = Package(
    name: "routemap",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "routemap", targets: ["routemap"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // GnuTLS, which libmicrohttpd already links: the health check's HTTPS probe.
        .systemLibrary(
            name: "CGnuTLS",
            pkgConfig: "gnutls",
            providers: [.apt(["libgnutls28-dev"])]
        ),
        // glibc's malloc.h: the executable limits the allocator's arenas (MallocArenas).
        .systemLibrary(name: "CMalloc"),
        .target(name: "RoutemapJSON"),
        .target(
            name: "RoutemapHTTP",
            dependencies: [
                "CMicroHTTPD",
                "RoutemapJSON",
                .product(name: "Logging", package: "swift-log"),
            ],
            // The router's pipeline is generic over the application's context: this lets the
            // API module specialize it (see RoutemapAPI's APIResponder) instead of calling
            // unspecialized code that looks generic metadata up on every request.
            swiftSettings: [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]
        ),
        .target(
            name: "RoutemapDomain",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(
            name: "RoutemapStorage",
            dependencies: [
                "RoutemapDomain",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for the WAL hook GRDB does not wrap (LogCheckpointer).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        .target(
            name: "RoutemapPostgres",
            dependencies: [
                "RoutemapDomain",
                "RoutemapStorage",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        .target(name: "RoutemapNavigation", dependencies: ["RoutemapJSON"]),
        .target(
            name: "RoutemapAPI",
            dependencies: [
                "RoutemapHTTP",
                "RoutemapJSON",
                "RoutemapDomain",
                "RoutemapNavigation",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        .target(
            name: "RoutemapPOS",
            dependencies: [
                "RoutemapAPI",
                "RoutemapHTTP",
                "RoutemapJSON",
                "RoutemapDomain",
                "RoutemapNavigation",
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        .target(
            name: "RoutemapTrivia",
            dependencies: [
                "RoutemapAPI",
                "RoutemapHTTP",
                "RoutemapJSON",
                "RoutemapDomain",
                "RoutemapNavigation",
                "RoutemapStorage",
                "RoutemapPostgres",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .executableTarget(
            name: "routemap",
            dependencies: [
                "RoutemapAPI",
                "RoutemapPOS",
                "RoutemapTrivia",
                "RoutemapHTTP",
                "RoutemapStorage",
                "RoutemapPostgres",
                "RoutemapDomain",
                "CGnuTLS",
                "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Shared by the test targets only: a blocking raw-socket HTTP client and a launcher for
        // the routemap binary. Not part of any product.
        .target(
            name: "RoutemapTestSupport",
            dependencies: ["RoutemapJSON", "RoutemapDomain"],
            path: "Tests/RoutemapTestSupport"
        ),
        .testTarget(name: "RoutemapJSONTests", dependencies: ["RoutemapJSON"]),
        .testTarget(name: "RoutemapHTTPTests", dependencies: ["RoutemapHTTP", "RoutemapJSON", "RoutemapTestSupport"]),
        .testTarget(name: "RoutemapDomainTests", dependencies: ["RoutemapDomain", "RoutemapTestSupport"]),
        // Run on SQLite, and on PostgreSQL when ROUTEMAP_TEST_DATABASE_URL is set (scripts/test).
        .testTarget(name: "RoutemapStorageTests", dependencies: ["RoutemapStorage", "RoutemapPostgres", "RoutemapDomain", "RoutemapTestSupport"]),
        // The API's handlers through its one request pipeline, in process, over the in-memory store.
        .testTarget(
            name: "RoutemapAPITests",
            dependencies: [
                "RoutemapAPI", "RoutemapPOS", "RoutemapHTTP", "RoutemapDomain", "RoutemapJSON", "RoutemapTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Also walks the shipped apps' trees (their registries, with echoing builders).
        .testTarget(
            name: "RoutemapNavigationTests",
            dependencies: ["RoutemapNavigation", "RoutemapJSON", "RoutemapTestSupport", "RoutemapPOS", "RoutemapTrivia"]
        ),
        // The trivia app through the whole pipeline, in process, over a real SQLite file; with
        // it, every app's screen actions against the router that serves both.
        .testTarget(
            name: "RoutemapTriviaTests",
            dependencies: [
                "RoutemapTrivia", "RoutemapPOS", "RoutemapAPI", "RoutemapHTTP", "RoutemapDomain", "RoutemapJSON", "RoutemapStorage",
                "RoutemapTestSupport", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "RoutemapEndToEndTests",
            dependencies: ["routemap", "RoutemapJSON", "RoutemapTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
    ]
)
