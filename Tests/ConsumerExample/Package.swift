// swift-tools-version:6.0
//
// An example of another Swift package using gestures as a library, the way
// Docs/Architecture.md's "Using the modules from your own Swift package" says: a dependency by path
// (here the repository two folders up; by URL and tag in your own package),
// and only the products this package's jobs need:
//   GestureTraces       replaying a recording in a test (reads the trace formats; needs libyaml)
//   GestureRecognition  training and recognising strokes (pure Swift; no C library)
// Neither needs libevdev. Tools/test-all builds it and runs its `swift test`.
import PackageDescription

let package = Package(
    name: "ConsumerExample",
    dependencies: [
        .package(name: "Gestures", path: "../..")
    ],
    targets: [
        .testTarget(
            name: "ConsumerExampleTests",
            dependencies: [
                .product(name: "GestureTraces", package: "Gestures"),
                .product(name: "GestureRecognition", package: "Gestures"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
