// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Wiring",
    // Generic types with parameter packs need the Swift 5.9 runtime on Apple platforms.
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .macCatalyst(.v17), .visionOS(.v1)],
    products: [
        .library(name: "Wiring", targets: ["Wiring"]),
        .executable(name: "wiring-demo", targets: ["WiringDemo"]),
    ],
    targets: [
        .target(name: "Wiring"),
        .executableTarget(name: "WiringDemo", dependencies: ["Wiring"]),
        .testTarget(name: "WiringTests", dependencies: ["Wiring"]),
    ],
    swiftLanguageModes: [.v6]
)
