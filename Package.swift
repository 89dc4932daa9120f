// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Wiring",
    // Generic types with parameter packs need the Swift 5.9 runtime on Apple platforms.
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .macCatalyst(.v17), .visionOS(.v1)],
    products: [
        .library(name: "Wiring", targets: ["Wiring"]),
        .library(name: "WiringTestSupport", targets: ["WiringTestSupport"]),
        .executable(name: "wiring-demo", targets: ["WiringDemo"]),
    ],
    targets: [
        .target(name: "Wiring"),
        // The demo's app graph and output live in a library, so tests can snapshot them.
        .target(name: "WiringDemoKit", dependencies: ["Wiring", "WiringTestSupport"]),
        .executableTarget(name: "WiringDemo", dependencies: ["WiringDemoKit"]),
        .target(name: "WiringTestSupport", dependencies: ["Wiring"], path: "TestSupport/WiringTestSupport"),
        .testTarget(name: "WiringTests", dependencies: ["Wiring"]),
        .testTarget(name: "WiringTestSupportTests", dependencies: ["Wiring", "WiringTestSupport"]),
        .testTarget(name: "WiringDemoTests", dependencies: ["WiringDemoKit"], exclude: ["Snapshots"]),
        .testTarget(name: "ReadmeTests", dependencies: ["Wiring", "WiringTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
