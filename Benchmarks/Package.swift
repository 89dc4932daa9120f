// swift-tools-version: 6.0
import PackageDescription

// Benchmarks for Wiring, next to hand-written code, Swinject and swift-dependencies. A separate
// package so that the library itself never depends on either peer. Run from the repository root:
//
//     swift run -c release --package-path Benchmarks wiring-benchmarks
let package = Package(
    name: "WiringBenchmarks",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .macCatalyst(.v17), .visionOS(.v1)],
    products: [
        .executable(name: "wiring-benchmarks", targets: ["WiringBenchmarks"]),
    ],
    dependencies: [
        .package(name: "Wiring", path: ".."),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
        .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
    ],
    targets: [
        .executableTarget(
            name: "WiringBenchmarks",
            dependencies: [
                .product(name: "Wiring", package: "Wiring"),
                .product(name: "WiringTestSupport", package: "Wiring"),
                .product(name: "Swinject", package: "Swinject"),
                .product(name: "Dependencies", package: "swift-dependencies"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
