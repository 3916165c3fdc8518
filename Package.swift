// swift-tools-version:6.0
//
// A gesture and input-recognition engine for Linux. The module map (each
// module's job, what it depends on, where C is, and the seams at the system)
// is kept in one place, Docs/Architecture.md; ArchitectureMapTests fails when
// its list of modules and dependencies differs from the targets below.
import PackageDescription

let package = Package(
    name: "Gestures",
    products: [
        .library(name: "InputChecks", targets: ["InputChecks"]),
        .library(name: "GestureRecognition", targets: ["GestureRecognition"]),
        .library(name: "TouchInput", targets: ["TouchInput"]),
        .library(name: "StructuredDocuments", targets: ["StructuredDocuments"]),
        .library(name: "GestureTraces", targets: ["GestureTraces"]),
        .library(name: "GestureEvaluation", targets: ["GestureEvaluation"]),
        .library(name: "Validation", targets: ["Validation"]),
        .library(name: "DesktopDaemon", targets: ["DesktopDaemon"]),
        .library(name: "InputInterception", targets: ["InputInterception"]),
        .library(name: "EvdevInput", targets: ["EvdevInput"]),
        .library(name: "GesturePictures", targets: ["GesturePictures"]),
        .library(name: "GestureBenchmarks", targets: ["GestureBenchmarks"]),
        .library(name: "GesturePage", targets: ["GesturePage"]),
        // Preloaded by `gestures bench` into itself to count allocations; nothing links it.
        .library(name: "GesturesAllocationCounter", type: .dynamic, targets: ["CAllocationCounter"]),
        .executable(name: "gestures", targets: ["gestures"]),
    ],
    targets: [
        // What every reader of untrusted input shares: Excerpt, the JSON syntax check
        // (JSONText), NumberRange and InvalidValue. Pure Swift and Foundation; no I/O.
        .target(name: "InputChecks"),
        // The one seam at the C library's system calls: FileDescriptor, Errno thrown, EINTR retried in one place.
        .target(name: "SystemCalls"),
        // Pure Swift value types: geometry, strokes, recognizers, gesture engine. No I/O.
        .target(name: "GestureRecognition", dependencies: ["InputChecks"]),
        // Kernel-event model and the multitouch decoder (events -> touch frames in mm).
        .target(name: "TouchInput", dependencies: ["GestureRecognition", "InputChecks"]),
        // libyaml, for reading YAML (`libinput record`, the daemon's configuration).
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        // JSON and YAML documents as trees (DocumentNode, YAMLNode); imports CYAML internally.
        .target(name: "StructuredDocuments", dependencies: ["CYAML", "InputChecks"]),
        // The JSON trace format, importers and exporters (libinput record, evemu, $1 XML).
        .target(name: "GestureTraces", dependencies: ["TouchInput", "GestureRecognition", "StructuredDocuments", "InputChecks", "SystemCalls"]),
        // The $1 study's evaluation protocols over labelled strokes ($1 XML logs).
        .target(name: "GestureEvaluation", dependencies: ["GestureRecognition", "GestureTraces"]),
        // Validator, PatternMatcher, FormSchema: untrusted patterns under hard limits.
        .target(name: "Validation"),
        // libevdev and libevdev-uinput, with a shim for what Swift cannot import.
        .systemLibrary(
            name: "CLibevdev",
            pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]
        ),
        // Pure: one live device's pipeline, hand-over filter and pacer (InterceptedDevice), the
        // device-I/O seam (DeviceIO) and the loop over it (DeviceLoop). No C, no system call.
        .target(name: "InputInterception", dependencies: ["TouchInput", "GestureRecognition"]),
        // ScriptedDevices: the one fake of the DeviceIO seam (scripted frames on a clock of its own,
        // the kernel's rules for the loop kept once), which the host tests and `gestures bench` run
        // DeviceLoop over. No test framework, so the benchmark can ship it; in no product of its own.
        .target(name: "DeviceScripts", dependencies: ["InputInterception", "TouchInput"]),
        // Live input: devices, the poll-based reader, uinput virtual devices; EvdevDevices is the
        // DeviceIO that LiveGestures runs DeviceLoop over. Imports CLibevdev internally: nothing
        // outside it sees a C type.
        .target(name: "EvdevInput", dependencies: ["CLibevdev", "InputInterception", "TouchInput", "GestureRecognition", "SystemCalls"]),
        // The daemon's configuration (DaemonConfiguration): the checked file, read in one
        // pass through Decodable over a DocumentNode (JSON or YAML). Links no libevdev, so
        // `check-config` and the configuration fuzz target do not either.
        .target(name: "DesktopConfiguration", dependencies: ["GestureRecognition", "TouchInput", "GestureTraces", "StructuredDocuments", "Validation", "InputChecks"]),
        // libwayland-client, for the focus source of wlroots compositors (wlr-foreign-toplevel-management).
        .systemLibrary(
            name: "CWaylandClient",
            pkgConfig: "wayland-client",
            providers: [.apt(["libwayland-dev"])]
        ),
        // libsystemd's sd-bus, for the KWin focus source (KWin's scripting interface on the session bus).
        .systemLibrary(
            name: "CSystemdBus",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // The desktop daemon (its type is GestureDaemon): Configuration/ (reloading, warnings,
        // the interception policy; it re-exports DesktopConfiguration), Input/ (gesture sources:
        // live, replay), Actions/ (binding matcher, action runner, process launcher), Focus/ (the
        // focused window, one connection per window-server protocol), Doctor/ (gestures doctor).
        .target(name: "DesktopDaemon", dependencies: ["CWaylandClient", "CSystemdBus", "DesktopConfiguration", "GestureRecognition", "TouchInput", "GestureTraces", "StructuredDocuments", "Validation", "EvdevInput", "InputInterception", "InputChecks", "SystemCalls"]),
        // libmicrohttpd, the web server of `gestures ui` (an embedded HTTP server, widely used).
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // `gestures ui`: the page (plain HTML, CSS and JavaScript modules built into the
        // binary) and its server on the loopback address, which watches the daemon's socket.
        // Imports CMicroHTTPD internally.
        .target(
            name: "GesturePage",
            dependencies: ["CMicroHTTPD", "DesktopDaemon", "DesktopConfiguration", "StructuredDocuments", "InputChecks"],
            resources: [
                .embedInCode("Page/index.html"), .embedInCode("Page/style.css"), .embedInCode("Page/app.js"),
                .embedInCode("Page/api.js"), .embedInCode("Page/live.js"), .embedInCode("Page/bindings.js"), .embedInCode("Page/shapes.js"),
                .embedInCode("Page/recordings.js"),
                .embedInCode("Page/favicon.svg"),
            ]
        ),
        // SVG pictures of recordings, template libraries, recognitions and confusion matrices.
        .target(name: "GesturePictures", dependencies: ["GestureRecognition", "TouchInput", "GestureTraces", "InputChecks"]),
        // Throughput, allocations and memory of the decoder, engine, trace formats and recognizer, each beside a baseline.
        .target(
            name: "GestureBenchmarks",
            dependencies: ["GestureRecognition", "TouchInput", "GestureTraces", "GestureEvaluation", "InputInterception", "DeviceScripts"]),
        // malloc and friends, counted: the LD_PRELOAD library `gestures bench` counts allocations with.
        .target(name: "CAllocationCounter", path: "Tools/allocation-counter"),
        // Typed, table-driven command-line options: the same tables drive parsing, errors and help.
        .target(name: "CommandLineKit", dependencies: ["InputChecks"]),
        .executableTarget(
            name: "gestures",
            dependencies: ["CommandLineKit", "InputChecks", "GestureRecognition", "TouchInput", "GestureTraces", "GestureEvaluation", "Validation", "DesktopDaemon", "EvdevInput", "InputInterception", "GesturePictures", "GestureBenchmarks", "GesturePage"],
            path: "Tools/gestures"
        ),
        // The real-kernel checks Tools/vm-test runs in a VM beside `gestures`; in no product.
        .executableTarget(
            name: "gestures-vm-suite",
            dependencies: ["GestureRecognition", "TouchInput", "GestureTraces", "EvdevInput", "InputInterception", "TestSupport", "SystemCalls"],
            path: "Tools/gestures-vm-suite"
        ),
        // The libFuzzer targets Tools/fuzz builds with the sanitizers (one executable,
        // GESTURES_FUZZ_TARGET picks the reader); built plainly it replays inputs. In no product.
        .executableTarget(
            name: "gestures-fuzz",
            dependencies: [
                "GestureRecognition", "TouchInput", "GestureTraces", "DesktopConfiguration", "DesktopDaemon", "Validation", "GesturePictures",
                "GesturePage", "InputChecks",
            ],
            path: "Tools/gestures-fuzz"
        ),
        // Test helpers shared by the test targets and the real-kernel suite (the devices of Recordings/devices,
        // TouchScript, SVG and PNG readers,
        // SharedData: the one place the tests find ../shared/data); in no product.
        .target(name: "TestSupport", dependencies: ["GestureTraces", "TouchInput", "GestureRecognition", "InputInterception"], path: "Tests/TestSupport"),
        .testTarget(name: "InputChecksTests", dependencies: ["InputChecks"]),
        .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls"]),
        // GestureEvaluation only for SplitMix64, the seeded generator of the random frame streams.
        .testTarget(name: "GestureRecognitionTests", dependencies: ["GestureRecognition", "InputChecks", "GestureEvaluation", "GestureBenchmarks", "TestSupport"]),
        // GestureTraces to read the recordings that GesturePipelineTests feed event by event.
        .testTarget(name: "TouchInputTests", dependencies: ["TouchInput", "GestureTraces", "TestSupport"]),
        .testTarget(name: "GestureTracesTests", dependencies: ["GestureTraces", "GestureEvaluation", "InputChecks", "StructuredDocuments", "TestSupport"], exclude: ["Malformed"]),
        .testTarget(name: "GestureEvaluationTests", dependencies: ["GestureEvaluation", "GestureTraces", "TestSupport"]),
        .testTarget(name: "StructuredDocumentsTests", dependencies: ["StructuredDocuments"]),
        .testTarget(name: "ValidationTests", dependencies: ["Validation", "TestSupport"]),
        // CLibevdev for the reference KeyNames is checked against, and for the C forwarding rule
        // ForwardingRuleTests holds to the Swift one over the recordings (GestureTraces reads them,
        // TestSupport lists them).
        .testTarget(
            name: "EvdevInputTests",
            dependencies: ["EvdevInput", "CLibevdev", "InputInterception", "TouchInput", "GestureRecognition", "GestureTraces", "TestSupport"]),
        // TestSupport and GestureTraces for the devices of Recordings/devices and the synthetic
        // recordings; the interception runs through DeviceLoop over ScriptedDevices (DeviceScripts).
        .testTarget(
            name: "InputInterceptionTests",
            dependencies: ["InputInterception", "DeviceScripts", "TouchInput", "GestureRecognition", "GestureTraces", "GestureEvaluation", "TestSupport"]),
        .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit"]),
        // TestSupport to read the pictures back (SVGInspector, PNGImage).
        .testTarget(name: "GesturesToolTests", dependencies: ["gestures", "TestSupport"]),
        .testTarget(name: "DesktopDaemonTests", dependencies: ["DesktopDaemon", "EvdevInput", "InputInterception", "TouchInput", "TestSupport"]),
        .testTarget(name: "GestureBenchmarksTests", dependencies: ["GestureBenchmarks", "TestSupport", "GestureTraces", "TouchInput", "GestureRecognition"]),
        // Tests/FuzzRegressions (seeds and fixed findings of Tools/fuzz) through the fuzz targets.
        .testTarget(name: "FuzzRegressionsTests", dependencies: ["gestures-fuzz"]),
        .testTarget(name: "GesturePageTests", dependencies: ["GesturePage", "DesktopDaemon", "GestureTraces", "InputChecks", "TestSupport", "DesktopConfiguration"]),
        .testTarget(name: "GesturePicturesTests", dependencies: ["GesturePictures", "TestSupport", "GestureTraces", "TouchInput", "GestureRecognition"]),
    ],
    swiftLanguageModes: [.v6]
)
