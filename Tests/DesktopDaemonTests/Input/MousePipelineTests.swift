import DesktopDaemon
import Foundation
import GestureRecognition
import Synchronization
import Testing
import TouchInput

@Suite("A mouse's pipeline: strokes to bindings, built from the mouse settings")
struct MousePipelineTests {
    static let mouse = InputDevice(id: -1, name: "Logitech USB Optical Mouse")

    /// The mouse of Recordings/devices/mouse.jsonl: REL_X, REL_Y, REL_WHEEL, three buttons.
    static let description: DeviceDescription = {
        var mouse = DeviceDescription(name: "Logitech USB Optical Mouse")
        for code in [REL.X, REL.Y, REL.WHEEL] { mouse.enable(EV.REL, code) }
        for code in [BTN.LEFT, BTN.RIGHT, BTN.MIDDLE] { mouse.enable(EV.KEY, code) }
        return mouse
    }()

    /// The events of a bundled shape drawn with the right button held, from
    /// `start` (µs), a frame every 10 ms, scaled up `scale` times.
    static func drawn(_ name: String, scale: Double = 3, transform: (Point) -> Point = { $0 }, start: Int64 = 1_000_000) -> [InputEvent] {
        let points = TemplateLibrary.dollarShapes.samples(named: name)[0].map { transform(Point(x: $0.x * scale, y: $0.y * scale)) }
        var time = start
        func frame(_ events: [(UInt16, UInt16, Int32)]) -> [InputEvent] {
            defer { time += 10_000 }
            return events.map { InputEvent(type: $0.0, code: $0.1, value: $0.2, microseconds: time) }
                + [InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: time)]
        }
        var events = frame([(EV.KEY, BTN.RIGHT, 1)])
        var last = points[0]
        for point in points.dropFirst() {
            let dx = (point.x - last.x).rounded(), dy = (point.y - last.y).rounded()
            last = Point(x: last.x + dx, y: last.y + dy)
            events += frame([(EV.REL, REL.X, Int32(dx)), (EV.REL, REL.Y, Int32(dy))])
        }
        return events + frame([(EV.KEY, BTN.RIGHT, 0)])
    }

    /// What a mouse's pipeline built from `settings` gives for `events`.
    static func run(_ events: [InputEvent], settings: DaemonConfiguration.MouseSettings = .init(), intercept: Bool = true)
        -> (gestures: [GestureEvent], decisions: [MouseDecision])
    {
        let setup = EngineSetup(configuration: .init(), templates: .dollarShapes, mouse: settings, intercept: intercept)
        var pipeline = GesturePipeline(device: description, originMicroseconds: 0, setup: setup.pipeline)!
        var gestures: [GestureEvent] = []
        for event in events { pipeline.process(event, into: &gestures) }
        gestures += pipeline.finish()
        return (gestures, pipeline.takeDecisions())
    }

    /// A launcher that keeps each command's environment.
    final class EnvironmentLauncher: ProcessLauncher {
        private let launches = Mutex<[(command: [String], environment: [String: String])]>([])
        var all: [(command: [String], environment: [String: String])] { launches.withLock { $0 } }
        func launch(
            _ command: [String], environment: [String: String], timeout: Duration,
            completion: @escaping @Sendable (CommandOutcome) -> Void
        ) {
            launches.withLock { $0.append((command, environment)) }
            completion(.exited(0))
        }
    }

    @Test("a drawn circle is a stroke event from a mouse, with no fingers, the template, its score and the events' time")
    func circleIsAStrokeEvent() throws {
        let events = Self.drawn("circle")
        let (gestures, decisions) = Self.run(events)
        let event = try #require(gestures.first, "\(decisions)")
        #expect(gestures.count == 1)
        #expect(event.type == .stroke && event.phase == nil && event.source == .mouse && event.fingers == 0)
        #expect(event.template == "circle" && (event.score ?? 0) >= 0.75)
        // Recognised when the unplug grace after the release is over, in the events' clock.
        #expect(event.time == .microseconds(events.last!.microseconds) + MouseStrokeEngine.unplugGrace)
        #expect(decisions.map(\.kind) == [.stroke] && decisions[0].template == "circle")
    }

    @Test("a stroke below the threshold is rejected with its best template, score and the threshold")
    func noMatchIsRejectedWithItsFigures() throws {
        var settings = DaemonConfiguration.MouseSettings()
        settings.threshold = 0.99
        let turned = Self.drawn("arrow") { Point(x: -$0.x, y: -$0.y) }
        let (gestures, decisions) = Self.run(turned, settings: settings)
        #expect(gestures.isEmpty)
        let rejected = try #require(decisions.first)
        #expect(decisions.count == 1 && rejected.kind == .rejected && rejected.template != nil && (rejected.score ?? 1) < 0.99)
        #expect(rejected.reason.hasPrefix("below the threshold: ") && rejected.reason.contains(" of 0.99"), "\(rejected.reason)")
        #expect(!rejected.points.isEmpty)
    }

    @Test("a stroke smaller than minimumSizeCounts is rejected by the stroke rule as too short, in counts, as touch strokes are in mm")
    func smallStrokeIsTooShort() throws {
        let small = Self.drawn("circle", scale: 0.25)
        let (gestures, decisions) = Self.run(small)
        #expect(gestures.isEmpty)
        let rejected = try #require(decisions.first)
        #expect(decisions.count == 1 && rejected.kind == .rejected && rejected.template == nil && rejected.score == nil)
        // The same rule and wording as a touch stroke's rejection (`DrawnStroke.rejectionLine`), in counts.
        let length = StrokeRule.shape(of: rejected.points).length
        #expect(length > 20 && length < 50)
        let rule = StrokeVerdict.Rejection.tooShort(length: length, minimum: 50, unit: .counts)
        #expect(rejected.reason == "\(rule); its button was kept from the desktop")
        let line = try #require(DaemonLog.line(for: rejected, on: "Logitech USB Optical Mouse, /dev/input/event7"))
        #expect(line.contains(": too short: ") && line.contains(" of 50 counts; "), "\(line)")
        // A smaller minimum lets it through to the templates.
        var settings = DaemonConfiguration.MouseSettings()
        settings.minimumSizeCounts = 10
        let loose = Self.run(small, settings: settings).decisions
        #expect(loose.count == 1 && loose[0].reason.hasPrefix("too short") == false, "\(loose)")
    }

    @Test("a mouse stroke too close to two names is rejected by the engine's margin, as a touch stroke is")
    func marginComesFromTheEngine() throws {
        let circle = Self.drawn("circle")
        var engine = GestureEngine.Configuration()
        engine.strokeMinimumMargin = 1
        let setup = EngineSetup(configuration: engine, templates: .dollarShapes, mouse: .init(), intercept: true)
        var pipeline = try #require(GesturePipeline(device: Self.description, originMicroseconds: 0, setup: setup.pipeline))
        var gestures: [GestureEvent] = []
        for event in circle { pipeline.process(event, into: &gestures) }
        gestures += pipeline.finish()
        let decisions = pipeline.takeDecisions()
        #expect(gestures.isEmpty)
        #expect(decisions.count == 1 && decisions[0].kind == .rejected && decisions[0].template == "circle")
        #expect(decisions[0].reason.hasPrefix("too close to ") && decisions[0].reason.contains(" of the 1 margin"), "\(decisions)")
    }

    @Test("orientation-sensitive by default: an arrow turned upside down is no arrow unless orientation is invariant")
    func orientationMatters() {
        let turned = Self.drawn("arrow") { Point(x: -$0.x, y: -$0.y) }
        var invariant = DaemonConfiguration.MouseSettings()
        invariant.orientation = .invariant
        #expect(Self.run(Self.drawn("arrow")).gestures.first?.template == "arrow")
        #expect(Self.run(turned).gestures.first?.template != "arrow")
        #expect(Self.run(turned, settings: invariant).gestures.first?.template == "arrow")
    }

    @Test("the middle button draws when the settings say so; the right one then clicks")
    func settingsChooseTheButton() {
        var middle = DaemonConfiguration.MouseSettings()
        middle.button = .middle
        let (gestures, decisions) = Self.run(Self.drawn("circle"), settings: middle)
        #expect(gestures.isEmpty && decisions.isEmpty)
    }

    @Test("through the daemon: a mouse circle fires the circle binding with GESTURE_TEMPLATE and GESTURE_SCORE; a triangle fires nothing")
    func daemonPath() throws {
        let configuration = try DaemonConfiguration.decode(
            Data(
                #"""
                {"version": 1, "mouse": {},
                 "bindings": [{"gesture": "stroke", "template": "circle", "action": {"command": ["circle-action"]}},
                              {"gesture": "stroke", "fingers": 1, "action": {"command": ["one-finger-action"]}}]}
                """#.utf8), format: .json)
        let launcher = EnvironmentLauncher()
        let daemon = GestureDaemon(configuration: configuration, launcher: launcher, log: LogLines().log)
        try daemon.run(
            ClosureGestureSource { sink in
                let setup = sink.engineSetup()
                var pipeline = try #require(GesturePipeline(device: Self.description, originMicroseconds: 0, setup: setup.pipeline))
                for name in ["circle", "triangle"] {
                    for event in Self.drawn(name) {
                        for gesture in pipeline.process(event) { sink.deliver(gesture, Self.mouse) }
                    }
                }
                for gesture in pipeline.finish() { sink.deliver(gesture, Self.mouse) }
            })
        #expect(launcher.all.map(\.command) == [["circle-action"]])
        let environment = try #require(launcher.all.first?.environment)
        #expect(environment["GESTURE_TYPE"] == "stroke")
        #expect(environment["GESTURE_TEMPLATE"] == "circle")
        #expect(environment["GESTURE_SCORE"] != nil)
        #expect(environment["GESTURE_PHASE"] == nil)
        #expect(environment["GESTURE_SOURCE"] == "mouse" && environment["GESTURE_FINGERS"] == nil)
    }

    @Test("a mouse decision logs one line, the same live and replayed but for the bracket")
    func decisionsAreLogLines() throws {
        var settings = DaemonConfiguration.MouseSettings()
        settings.threshold = 0.99
        let turned = Self.drawn("arrow") { Point(x: -$0.x, y: -$0.y) }
        let rejected = try #require(Self.run(turned, settings: settings).decisions.first)
        let line = try #require(DaemonLog.line(for: rejected, on: "Logitech USB Optical Mouse, /dev/input/event7"))
        #expect(line.hasPrefix("mouse rejected, "))
        #expect(line.contains(": below the threshold: ") && line.contains(" of 0.99"))
        #expect(
            line.hasSuffix(
                "[Logitech USB Optical Mouse, /dev/input/event7, at \(GestureEvent.decimalText(MouseDecision.milliseconds(rejected.time))) ms]"
            ))
    }
}
