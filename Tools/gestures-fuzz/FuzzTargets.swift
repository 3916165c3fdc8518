// The coverage-guided fuzz targets of issue 16: one executable, the target chosen by
// GESTURES_FUZZ_TARGET. Built by Tools/fuzz with `-sanitize=fuzzer,address` and
// `-D GESTURES_LIBFUZZER`, `main` hands the command line to libFuzzer's driver;
// built plainly (as `swift build` does), `gestures-fuzz TARGET FILE...` runs each file
// through the target once, to reproduce a finding without the sanitizers.
// Every target feeds the bytes to a library entry point: a thrown error is a pass,
// a trap (overflow, precondition, out-of-bounds) a finding.
import DesktopConfiguration
import DesktopDaemon
import Foundation
import GesturePage
import GesturePictures
import GestureRecognition
import GestureTraces
import InputChecks
import Synchronization
import TouchInput
import Validation

/// The fuzz targets, by the name Tools/fuzz and GESTURES_FUZZ_TARGET use.
enum FuzzTarget: String, CaseIterable {
    case trace, libinput, evemu, dollar, strokes, templates
    case configJSON = "config-json"
    case
        configYAML = "config-yaml"
    case events, schema, pattern
    /// A trace drawn over a window: the first 16 bytes are the window's ends
    /// in milliseconds (two doubles, any bits), the rest a trace.
    case render
    /// Template libraries and stroke files with limits small enough for the
    /// fuzzer's inputs to pass them: 8 templates, 64 points a template or stroke.
    case templatesAtLimits = "templates-limits"
    case strokesAtLimits = "strokes-limits"
    /// The path list `run --replay -` reads, one path a line.
    case replayPaths = "replay-paths"
    /// The bodies of the page's changes (`gestures ui`): the first byte picks the route.
    case pageBodies = "page-bodies"
    /// What a focus source's server sends (issue 37), as the other end of
    /// the source's socket: an X server, sway or i3, Hyprland (its
    /// `j/activewindow` reply and its event lines), a wlroots compositor
    /// through libwayland, the session bus through sd-bus.
    case focusX11 = "focus-x11"
    case focusSway = "focus-sway"
    case focusHyprland = "focus-hyprland"
    case focusWayland = "focus-wayland"
    case focusDBus = "focus-dbus"
    /// A recorded focus file (`run --replay --focus FILE`).
    case focusFile = "focus-file"

    /// Feeds `data` to the reader or engine this target covers.
    func run(_ data: Data) {
        switch self {
        case .trace: _ = try? Trace.decode(data)
        case .libinput: _ = try? Trace.decode(data, format: .libinput)
        case .evemu: _ = try? Trace.decode(data, format: .evemu)
        case .dollar: _ = try? DollarGestureLog(data: data)
        case .strokes: _ = try? StrokeFile.load(data: data, source: "fuzz")
        case .templates: _ = try? TemplateLibrary(jsonData: data)
        case .configJSON: _ = try? DaemonConfiguration.decode(data, format: .json, baseDirectory: "/nonexistent")
        case .configYAML: _ = try? DaemonConfiguration.decode(data, format: .yaml, baseDirectory: "/nonexistent")
        case .events: EventStream.run(data)
        case .schema: _ = try? FormSchema.decode(from: data)
        case .pattern: PatternInput.run(data)
        case .render: RenderInput.run(data)
        case .templatesAtLimits:
            _ = try? TemplateLibrary(
                jsonData: data, limits: .init(maximumBytes: 1 << 16, maximumTemplates: 8, maximumPointsPerTemplate: 64))
        case .strokesAtLimits: _ = try? StrokeFile.load(data: data, source: "fuzz", maximumPoints: 64)
        case .replayPaths: ReplayPaths.run(data)
        case .pageBodies: PageBodies.run(data)
        case .focusX11: FocusInput.run(.x11, data)
        case .focusSway: FocusInput.run(.sway, data)
        case .focusHyprland: FocusInput.run(.hyprland, data)
        case .focusWayland: FocusInput.run(.wayland, data)
        case .focusDBus: FocusInput.run(.dbus, data)
        case .focusFile:
            guard let focus = try? RecordedFocus.parse(data, file: "fuzz") else { return }
            for change in focus.changes { FocusInput.check(change.window) }
        }
    }
}

/// Arbitrary bytes as kernel events into a `GesturePipeline`: the first byte picks a device
/// of Recordings/devices, then every 8 bytes are one event (type and code drawn towards the
/// codes a touch device sends, the value and the time step as given).
enum EventStream {
    /// The devices of Recordings/devices that are touchpads or touchscreens, read once.
    static let devices: [DeviceDescription] = {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Recordings").appendingPathComponent("devices")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().compactMap { name -> DeviceDescription? in
            guard name.hasSuffix(".jsonl"),
                let trace = try? Trace.load(contentsOf: directory.appendingPathComponent(name)),
                let device = trace.devices.first, GesturePipeline.surface(for: device) != nil
            else { return nil }
            return device
        }
    }()

    /// The codes a touch device's events use, so most mutations stay meaningful.
    static let types: [UInt16] = [EV.SYN, EV.KEY, EV.ABS, EV.ABS, EV.ABS, EV.SYN, EV.MSC, 0x1f]
    static let absCodes: [UInt16] = [0, 1, 24, 47, 48, 49, 53, 54, 57, 58, 52, 55, 0x3f]
    static let keyCodes: [UInt16] = [272, 273, 325, 330, 333, 334, 335, 328, 0x2ff]

    /// The fresh pipelines already built, by the input's first byte (device and origin).
    static let fresh = Mutex<[UInt8: GesturePipeline]>([:])

    /// A fresh pipeline for the device and origin `first` picks: built once per byte and
    /// copied after that, since building one normalises every bundled template (most of an
    /// input's time) and a pipeline is a value, so the copy is the same as a new one.
    static func pipeline(for first: UInt8) -> GesturePipeline? {
        fresh.withLock { built in
            if let pipeline = built[first] { return pipeline }
            let device = devices[Int(first) % devices.count]
            guard let pipeline = GesturePipeline(device: device, originMicroseconds: Int64(first) << 20)
            else { return nil }
            built[first] = pipeline
            return pipeline
        }
    }

    /// Decodes `data` as a device choice plus events, runs them through the pipeline and
    /// returns its gestures; `rebuilding` builds the pipeline anew instead of copying it.
    @discardableResult
    static func run(_ data: Data, rebuilding: Bool = false) -> [GestureEvent] {
        guard !devices.isEmpty, let first = data.first else { return [] }
        let bytes = [UInt8](data.dropFirst())
        var time = Int64(first) << 20
        let built =
            rebuilding
            ? GesturePipeline(device: devices[Int(first) % devices.count], originMicroseconds: time)
            : pipeline(for: first)
        guard var pipeline = built else { return [] }
        var gestures: [GestureEvent] = []
        var index = 0
        while index + 8 <= bytes.count {
            let type = types[Int(bytes[index] & 7)]
            let selector = Int(bytes[index + 1])
            let code: UInt16 =
                switch type {
                case EV.ABS: absCodes[selector % absCodes.count]
                case EV.KEY: keyCodes[selector % keyCodes.count]
                case EV.SYN: selector & 1 == 0 ? 0 : UInt16(selector % 4)
                default: UInt16(selector)
                }
            var value: Int32 = 0
            for offset in 2..<6 { value = value << 8 | Int32(bytes[index + offset]) }
            // A time step: mostly small, sometimes huge, sometimes backwards.
            let step = Int64(Int16(bitPattern: UInt16(bytes[index + 6]) << 8 | UInt16(bytes[index + 7])))
            time = step == Int16.min ? Int64.max - 1 : step == Int16.max ? Int64.min + 1 : time &+ step * 977
            gestures += pipeline.process(InputEvent(type: type, code: code, value: value, microseconds: time))
            index += 8
        }
        if bytes.count % 8 == 1 { gestures += pipeline.advance(toMicroseconds: Int64.max) }
        return gestures + pipeline.finish()
    }
}

/// The first line of the input is a pattern, the rest a value to match it against.
enum PatternInput {
    /// Compiles the pattern and, when it compiles, matches the value under a short deadline.
    static func run(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        guard let matcher = try? PatternMatcher(String(parts[0])) else { return }
        let value = parts.count > 1 ? String(parts[1]) : ""
        _ = matcher.matches(value, deadline: .now + .milliseconds(200))
    }
}

/// A window and a trace: the picture `render` draws of them.
enum RenderInput {
    static func run(_ data: Data) {
        guard data.count >= 16 else { return }
        let bytes = [UInt8](data.prefix(16))
        func double(_ offset: Int) -> Double {
            Double(bitPattern: bytes[offset..<offset + 8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        }
        guard let trace = try? Trace.decode(data.dropFirst(16)) else { return }
        let ends = [EventTime.duration(milliseconds: double(0)), EventTime.duration(milliseconds: double(8))].sorted()
        let window = double(0).isNaN ? nil : ends[0]...ends[1]
        _ = try? TracePicture(trace: trace, window: window).svg
    }
}

/// A list of paths, as `run --replay -` reads it from standard input: the
/// lines through `InputLines` (the reader ReplaySource uses), each path
/// opened as a trace is, regular files only (`InputFile.open`). The daemon
/// itself stays out, so this binary links no libevdev.
enum ReplayPaths {
    static func run(_ data: Data) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gestures-fuzz-paths-\(getpid())")
        defer { try? FileManager.default.removeItem(at: file) }
        guard (try? data.write(to: file)) != nil, let handle = try? FileHandle(forReadingFrom: file) else { return }
        defer { try? handle.close() }
        let lines = InputLines(handle, maximumLineBytes: 4096)
        while let line = lines.next() {
            guard case .text(let text) = line else { continue }
            let path = text.trimmingCharacters(in: .whitespaces)
            guard !path.isEmpty, let opened = try? InputFile.open(path) else { continue }
            try? opened.handle.close()
        }
    }
}

/// The target GESTURES_FUZZ_TARGET names, read once.
let selectedTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["GESTURES_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("gestures-fuzz: set GESTURES_FUZZ_TARGET to one of \(names).\n".utf8))
        exit(2)
    }
    return target
}()

/// One input to the selected target, as libFuzzer calls it.
func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    selectedTarget.run(data)
    return 0
}

#if GESTURES_LIBFUZZER
    /// libFuzzer's driver (SwiftPM names the executable's entry point, so libFuzzer's own
    /// `main` is not used: ours hands the command line to the driver).
    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt
#endif

/// Without the fuzzer, runs each file named on the command line through a target once;
/// with it, hands the command line to libFuzzer.
@main
struct FuzzMain {
    static func main() {
        #if GESTURES_LIBFUZZER
            _ = selectedTarget
            var argc = CommandLine.argc
            var argv = CommandLine.unsafeArgv
            exit(runFuzzerDriver(&argc, &argv) { fuzzTestOneInput($0, $1) })
        #else
            let arguments = Array(CommandLine.arguments.dropFirst())
            guard arguments.count >= 2, let target = FuzzTarget(rawValue: arguments[0]) else {
                let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
                print("usage: gestures-fuzz TARGET FILE... (TARGET: \(names))")
                exit(2)
            }
            for path in arguments.dropFirst() {
                guard let data = FileManager.default.contents(atPath: path) else {
                    print("gestures-fuzz: cannot read \(path); check the path.")
                    exit(1)
                }
                target.run(data)
                print("\(path): no trap")
            }
        #endif
    }
}

/// Arbitrary bytes as the body of a change the page makes, through the page's
/// server as a request from the page itself (its Host, Origin, cookie and CSRF
/// token), so the guard lets it reach the route: the first byte picks the
/// route, the rest is the body. The configuration it edits is a file in a
/// folder of its own, put back after a save; an import's recordings are removed.
enum PageBodies {
    static let routes = [
        "/api/configuration/check", "/api/configuration/save", "/api/shapes/recognize", "/api/shapes/train", "/api/try", "/api/reload",
        "/api/recordings/import", "/api/recordings/replay", "/api/recordings/start", "/api/recordings/stop",
    ]
    static let configuration = """
        bindings:
          - gesture: swipe
            fingers: 3
            direction: left
            command: "true"
          - gesture: stroke
            template: circle
            command: "true"

        """

    static let folder: String = {
        let folder = NSTemporaryDirectory() + "gestures-fuzz-page-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }()
    static var configurationPath: String { folder + "/config.yaml" }

    static let server: PageServer? = {
        try? Data(configuration.utf8).write(to: URL(fileURLWithPath: configurationPath))
        return try? PageServer(
            settings: .init(socket: nil, configurationPath: configurationPath, recordingsFolder: folder + "/recordings"))
    }()

    static func run(_ data: Data) {
        guard let server, let first = data.first else { return }
        let route = routes[Int(first) % routes.count]
        let port = server.pageGuard.port
        let request = HTTPRequest(
            method: "POST", path: route,
            headers: ["host": "127.0.0.1:\(port)", "origin": "http://127.0.0.1:\(port)", PageGuard.csrfHeader: server.pageGuard.csrf],
            cookies: [PageGuard.cookieName: server.pageGuard.token], body: Array(data.dropFirst()),
            bodyTooLarge: data.count - 1 > HTTPServer.bodyLimit)
        let response = server.answer(request)
        precondition((200..<600).contains(response.status), "the page answered \(response.status)")
        if route.hasSuffix("/save") || route.hasSuffix("/train") {
            try? Data(configuration.utf8).write(to: URL(fileURLWithPath: configurationPath))
            try? FileManager.default.removeItem(atPath: folder + "/templates.json")
        }
        if route.hasSuffix("/import") { try? FileManager.default.removeItem(atPath: folder + "/recordings") }
    }
}

/// Arbitrary bytes as what a focus source's server sends (``FocusReplies``):
/// the source must end in a sentence, and every window it reports must
/// print as text only (the names a server sends reach the terminal escaped).
enum FocusInput {
    static func run(_ source: FocusReplies.Source, _ data: Data) {
        let (focus, end) = FocusReplies.follow(source, serverSends: Array(data))
        for window in focus { check(window) }
        if let end { precondition(!end.description.contains("\n"), "a focus error of more than one line: \(end)") }
    }

    /// A window prints as text only, in a line and in JSON.
    static func check(_ window: FocusedWindow?) {
        guard let window else { return }
        precondition(Excerpt.isPrintable(window.description), "a focused window prints raw: \(window.description.debugDescription)")
        precondition(!window.jsonObject.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }
}
