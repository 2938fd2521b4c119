// swift-tools-version: 6.1
import PackageDescription

let upcoming: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Hearth",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LevelDB", targets: ["LevelDB"]),
        .library(name: "DocumentModel", targets: ["DocumentModel"]),
        .library(name: "DocumentStore", targets: ["DocumentStore"]),
        .executable(name: "hearth", targets: ["HearthCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CLevelDB",
            pkgConfig: nil,
            providers: [.apt(["libleveldb-dev"])]
        ),
        .target(name: "LevelDB", dependencies: ["CLevelDB"], swiftSettings: upcoming),
        .target(name: "DocumentModel", swiftSettings: upcoming),
        .target(name: "DocumentStore", dependencies: ["DocumentModel", "LevelDB"], swiftSettings: upcoming),
        .executableTarget(
            name: "HearthCLI",
            dependencies: [
                "DocumentModel",
                "DocumentStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: upcoming
        ),
        .executableTarget(
            name: "CrashWriter",
            dependencies: ["DocumentModel", "DocumentStore"],
            swiftSettings: upcoming
        ),
        .executableTarget(
            name: "QueryProbe",
            dependencies: ["DocumentModel", "DocumentStore"],
            swiftSettings: upcoming
        ),
        .executableTarget(
            name: "HearthBenchmarks",
            dependencies: ["DocumentModel", "DocumentStore", "LevelDB"],
            swiftSettings: upcoming
        ),
        .testTarget(name: "LevelDBTests", dependencies: ["LevelDB"], swiftSettings: upcoming),
        .testTarget(name: "DocumentModelTests", dependencies: ["DocumentModel"], swiftSettings: upcoming),
        .testTarget(name: "DocumentStoreTests", dependencies: ["DocumentModel", "DocumentStore", "LevelDB"], swiftSettings: upcoming),
        .testTarget(name: "HearthCLITests", dependencies: ["HearthCLI", "DocumentModel", "DocumentStore"], swiftSettings: upcoming),
    ],
    swiftLanguageModes: [.v6]
)
