// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Wiring",
    // Generic types with parameter packs need the Swift 5.9 runtime on Apple platforms.
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .macCatalyst(.v17), .visionOS(.v1)],
    products: [
        .library(name: "Wiring", targets: ["Wiring"]),
        .library(name: "WiringTestSupport", targets: ["WiringTestSupport"]),
        .library(name: "WiringXCTest", targets: ["WiringXCTest"]),
        .library(name: "WiringSwiftTesting", targets: ["WiringSwiftTesting"]),
        .executable(name: "wiring-demo", targets: ["WiringDemo"]),
        .executable(name: "wiring-mutants", targets: ["WiringMutants"]),
    ],
    targets: [
        .target(name: "Wiring"),
        // The demo's app graph and output live in a library, so tests can snapshot them.
        .target(name: "WiringDemoKit", dependencies: ["Wiring", "WiringTestSupport"]),
        .executableTarget(name: "WiringDemo", dependencies: ["WiringDemoKit"]),
        .target(name: "WiringTestSupport", dependencies: ["Wiring"], path: "TestSupport/WiringTestSupport"),
        // `swift run wiring-mutants`: runs a package's tests against mutants of its wiring. It
        // reads the coverage JSON and runs the test binary, so it needs Foundation only; its
        // logic is a library, which its tests reach.
        .target(name: "WiringMutantsCore"),
        .executableTarget(name: "WiringMutants", dependencies: ["WiringMutantsCore"]),
        // The assertions, written once and re-exported by both WiringXCTest and WiringSwiftTesting.
        .target(
            name: "WiringAssertions", dependencies: ["Wiring", "WiringTestSupport"], path: "TestSupport/WiringAssertions"),
        .target(name: "WiringXCTest", dependencies: ["WiringAssertions"], path: "TestSupport/WiringXCTest"),
        .target(name: "WiringSwiftTesting", dependencies: ["WiringAssertions"], path: "TestSupport/WiringSwiftTesting"),
        // What the test targets share: the app graph they test, and running a case that could
        // crash in a child process.
        .target(name: "WiringTestHelpers", dependencies: ["Wiring"], path: "Tests/WiringTestHelpers"),
        // The kept-instance races the README promises are made once: run by a test and by the
        // `wiring-stress` executable that CI runs in debug and in release.
        .target(
            name: "WiringStress", dependencies: ["Wiring", "WiringTestSupport", "WiringTestHelpers"],
            path: "Tests/WiringStress"),
        .executableTarget(name: "wiring-stress", dependencies: ["WiringStress"], path: "Tests/WiringStressRunner"),
        // A case per path through the engine (success, each error, back-off and retry, waits,
        // kept resolvers, a test container), each freeing all it made: run by a test for their
        // outcomes and by the `wiring-leaks` executable that CI runs under LeakSanitizer.
        .target(
            name: "WiringLeakCases", dependencies: ["Wiring", "WiringTestSupport", "WiringTestHelpers"],
            path: "Tests/WiringLeakCases"),
        .executableTarget(name: "wiring-leaks", dependencies: ["WiringLeakCases"], path: "Tests/WiringLeaksRunner"),
        .testTarget(name: "WiringTests", dependencies: ["Wiring", "WiringTestHelpers"]),
        .testTarget(
            name: "WiringTestSupportTests",
            dependencies: ["Wiring", "WiringTestSupport", "WiringTestHelpers", "WiringStress", "WiringLeakCases"]),
        .testTarget(
            name: "WiringXCTestTests", dependencies: ["WiringXCTest", "WiringTestHelpers"], exclude: ["__Snapshots__"]),
        .testTarget(
            name: "WiringSwiftTestingTests", dependencies: ["WiringSwiftTesting", "WiringXCTest", "WiringTestHelpers"],
            exclude: ["__Snapshots__"]),
        .testTarget(name: "WiringDemoTests", dependencies: ["WiringDemoKit", "WiringAssertions"], exclude: ["Snapshots"]),
        .testTarget(name: "ReadmeTests", dependencies: ["Wiring", "WiringTestSupport", "WiringSwiftTesting"]),
        // A small app whose tests wiring-mutants runs (in WiringMutantsTests and in CI): written
        // so that a mutant is killed, one survives, one is caught by verification only, one
        // registration is not covered and one mutant hangs. Its tests pass unmutated.
        .testTarget(name: "MutantsFixtureTests", dependencies: ["Wiring", "WiringXCTest"]),
        .testTarget(name: "WiringMutantsTests", dependencies: ["WiringMutantsCore", "WiringTestHelpers"]),
    ],
    swiftLanguageModes: [.v6]
)
