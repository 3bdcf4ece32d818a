// swift-tools-version:6.0
import PackageDescription

// The client library for apps that talk to routemap (iOS, macOS, and Linux for its tests).
//
// A package of its own, beside the server's, so that an app that adds it resolves and builds
// nothing of the server: the library needs Foundation only (FoundationNetworking on Linux).
// Yams is a dependency of the test target only (the spec check reads openapi.yaml); SwiftPM
// does not fetch a dependency package's test-only dependencies.
//
// The platforms are the first with Swift's `Duration` and `Task.sleep(for:)`, which the retry
// policy uses (iOS 16, macOS 13, tvOS 16, watchOS 9).
let package = Package(
    name: "RoutemapClient",
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "RoutemapClient", targets: ["RoutemapClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", exact: "5.0.1"),
    ],
    targets: [
        .target(name: "RoutemapClient"),
        .testTarget(
            name: "RoutemapClientTests",
            dependencies: ["RoutemapClient", .product(name: "Yams", package: "Yams")]
        ),
    ]
)
