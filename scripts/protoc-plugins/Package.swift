// swift-tools-version: 6.1
// Builds the two protoc plugins that scripts/generate-proto uses. Not part of the Hearth package:
// normal builds never need it, because the generated code under Sources/FirestoreProto is committed.
import PackageDescription

let package = Package(
    name: "HearthProtocPlugins",
    dependencies: [
        .package(url: "https://github.com/apple/swift-protobuf", exact: "1.39.0"),
        .package(url: "https://github.com/grpc/grpc-swift-protobuf", exact: "2.4.1"),
    ],
    targets: []
)
