// swift-tools-version:6.0
//
// A gesture and input-recognition engine for Linux.
// Dependencies point one way, toward the pure core:
//   gestures (Tools/) -> GestureTraces -> TouchInput -> GestureRecognition
//   gestures (Tools/) -> EvdevInput -> TouchInput (devices, events, GesturePipeline)
//                        EvdevInput -> CLibevdev (the only C-touching module; an internal import)
//   Validation and CommandLineKit (the tool's typed, table-driven argument parser) stand alone.
//   GestureDaemon -> EvdevInput (the live source), GestureTraces, Validation.
//   GesturePictures -> GestureTraces, TouchInput, GestureRecognition (SVG only, no C).
//   In no product: gestures-vm-suite (Tools/, the real-kernel checks Tools/vm-test
//   runs) and TestSupport (Tests/, the devices of Recordings/devices for the tests).
import PackageDescription

let package = Package(
    name: "Gestures",
    products: [
        .library(name: "GestureRecognition", targets: ["GestureRecognition"]),
        .library(name: "TouchInput", targets: ["TouchInput"]),
        .library(name: "GestureTraces", targets: ["GestureTraces"]),
        .library(name: "Validation", targets: ["Validation"]),
        .library(name: "GestureDaemon", targets: ["GestureDaemon"]),
        .library(name: "EvdevInput", targets: ["EvdevInput"]),
        .library(name: "GesturePictures", targets: ["GesturePictures"]),
        .executable(name: "gestures", targets: ["gestures"]),
    ],
    targets: [
        // Pure Swift value types: geometry, strokes, recognizers, gesture engine. No I/O.
        .target(name: "GestureRecognition"),
        // Kernel-event model and the multitouch decoder (events -> touch frames in mm).
        .target(name: "TouchInput", dependencies: ["GestureRecognition"]),
        // libyaml, for reading `libinput record` YAML.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        // The JSON trace format, importers and exporters (libinput record, evemu, $1 XML).
        .target(name: "GestureTraces", dependencies: ["TouchInput", "GestureRecognition", "CYAML"]),
        // Validator, PatternMatcher, FormSchema: untrusted patterns under hard limits.
        .target(name: "Validation"),
        // libevdev and libevdev-uinput, with a shim for what Swift cannot import.
        .systemLibrary(
            name: "CLibevdev",
            pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]
        ),
        // Live input: devices, the poll-based reader, uinput virtual devices, LiveGestures.
        // The only module that touches C; nothing outside it sees a C type.
        .target(name: "EvdevInput", dependencies: ["CLibevdev", "TouchInput", "GestureRecognition"]),
        // The desktop daemon: validated configuration, binding matcher, action runner, reload.
        .target(name: "GestureDaemon", dependencies: ["GestureRecognition", "TouchInput", "GestureTraces", "Validation", "EvdevInput"]),
        // SVG pictures of recordings, template libraries, recognitions and confusion matrices.
        .target(name: "GesturePictures", dependencies: ["GestureRecognition", "TouchInput", "GestureTraces"]),
        // Typed, table-driven command-line options: the same tables drive parsing, errors and help.
        .target(name: "CommandLineKit"),
        .executableTarget(
            name: "gestures",
            dependencies: ["CommandLineKit", "GestureRecognition", "TouchInput", "GestureTraces", "Validation", "GestureDaemon", "EvdevInput"],
            path: "Tools/gestures"
        ),
        // The real-kernel checks Tools/vm-test runs in a VM beside `gestures`; in no product.
        .executableTarget(
            name: "gestures-vm-suite",
            dependencies: ["GestureRecognition", "TouchInput", "GestureTraces", "EvdevInput"],
            path: "Tools/gestures-vm-suite"
        ),
        // Test helpers shared by the test targets (the devices of Recordings/devices); in no product.
        .target(name: "TestSupport", dependencies: ["GestureTraces", "TouchInput"], path: "Tests/TestSupport"),
        .testTarget(name: "GestureRecognitionTests", dependencies: ["GestureRecognition"]),
        .testTarget(name: "TouchInputTests", dependencies: ["TouchInput", "TestSupport"]),
        .testTarget(name: "GestureTracesTests", dependencies: ["GestureTraces", "TestSupport"], exclude: ["Malformed"]),
        .testTarget(name: "ValidationTests", dependencies: ["Validation"]),
        .testTarget(name: "EvdevInputTests", dependencies: ["EvdevInput", "TouchInput", "GestureRecognition"]),
        .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit"]),
        .testTarget(name: "GesturesToolTests", dependencies: ["gestures"]),
        .testTarget(name: "GestureDaemonTests", dependencies: ["GestureDaemon"]),
        .testTarget(name: "GesturePicturesTests", dependencies: ["GesturePictures", "TestSupport", "GestureTraces", "TouchInput", "GestureRecognition"]),
    ],
    swiftLanguageModes: [.v6]
)
