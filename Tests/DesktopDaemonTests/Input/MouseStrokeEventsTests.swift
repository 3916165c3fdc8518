import Foundation
import DesktopDaemon
import GestureRecognition
import Synchronization
import Testing

@Suite("MouseStrokeEvents: mouse strokes to bindings")
struct MouseStrokeEventsTests {
    /// A bundled shape drawn in mouse counts: the template's first sample, scaled up.
    static func drawn(_ name: String, scale: Double = 3) -> [Point] {
        TemplateLibrary.dollarShapes.samples(named: name)[0].map { Point(x: $0.x * scale, y: $0.y * scale) }
    }

    static let mouse = InputDevice(id: -1, name: "Logitech USB Optical Mouse")

    /// A launcher that keeps each command's environment.
    final class EnvironmentLauncher: ProcessLauncher {
        private let launches = Mutex<[(command: [String], environment: [String: String])]>([])
        var all: [(command: [String], environment: [String: String])] { launches.withLock { $0 } }
        func launch(_ command: [String], environment: [String: String], timeout: Duration,
                    completion: @escaping @Sendable (CommandOutcome) -> Void) {
            launches.withLock { $0.append((command, environment)) }
            completion(.exited(0))
        }
    }

    @Test("a drawn circle becomes a stroke event with 0 fingers, the template and its score")
    func circleIsAStrokeEvent() throws {
        let recognised = MouseStrokeEvents.recognize(Self.drawn("circle"), at: .milliseconds(1500),
                                                     settings: .init(), templates: .dollarShapes)
        let event = try #require(recognised.event, "\(recognised.outcome)")
        #expect(event.type == .stroke && event.phase == nil && event.fingers == 0)
        #expect(event.template == "circle" && event.time == .milliseconds(1500))
        #expect((event.score ?? 0) >= 0.75)
    }

    @Test("a scribble that matches no template gives no event")
    func noMatchGivesNoEvent() {
        let scribble: [Point] = (0..<40).map { (index: Int) -> Point in
            let x = Double((index * 7) % 13), y = Double((index * 5) % 11)
            return Point(x: x * 10, y: y * 10)
        }
        var settings = DaemonConfiguration.MouseSettings()
        settings.threshold = 0.99
        let recognised = MouseStrokeEvents.recognize(scribble, at: .zero, settings: settings, templates: .dollarShapes)
        #expect(recognised.event == nil)
        #expect(recognised.outcome.match == nil)
    }

    @Test("orientation-sensitive by default: an arrow turned upside down is no arrow unless orientation is invariant")
    func orientationMatters() {
        let arrow = Self.drawn("arrow")
        let turned = arrow.map { Point(x: -$0.x, y: -$0.y) }
        var invariant = DaemonConfiguration.MouseSettings()
        invariant.orientation = .invariant
        #expect(MouseStrokeEvents.recognize(arrow, at: .zero, settings: .init(), templates: .dollarShapes).event?.template == "arrow")
        let sensitive = MouseStrokeEvents.recognize(turned, at: .zero, settings: .init(), templates: .dollarShapes)
        #expect(sensitive.event?.template != "arrow", "\(sensitive.outcome)")
        let anyWay = MouseStrokeEvents.recognize(turned, at: .zero, settings: invariant, templates: .dollarShapes)
        #expect(anyWay.event?.template == "arrow", "\(anyWay.outcome)")
    }

    @Test("through the daemon: a mouse circle fires the circle binding with GESTURE_TEMPLATE and GESTURE_SCORE; a triangle fires nothing")
    func daemonPath() throws {
        let configuration = try DaemonConfiguration.decode(Data(#"""
            {"version": 1, "mouse": {},
             "bindings": [{"gesture": "stroke", "template": "circle", "action": {"command": ["circle-action"]}}]}
            """#.utf8), format: .json)
        let launcher = EnvironmentLauncher()
        let daemon = GestureDaemon(configuration: configuration, launcher: launcher, log: LogLines().log)
        try daemon.run(ClosureGestureSource { sink in
            let setup = sink.engineSetup()
            let settings = try #require(setup.mouse)
            for name in ["circle", "triangle"] {
                let event = try #require(MouseStrokeEvents.recognize(Self.drawn(name), at: .zero, settings: settings,
                                                                     templates: setup.templates).event)
                #expect(event.template == name)
                sink.deliver(event, Self.mouse)
            }
        })
        #expect(launcher.all.map(\.command) == [["circle-action"]])
        let environment = try #require(launcher.all.first?.environment)
        #expect(environment["GESTURE_TYPE"] == "stroke")
        #expect(environment["GESTURE_TEMPLATE"] == "circle")
        #expect(environment["GESTURE_SCORE"] != nil)
        #expect(environment["GESTURE_PHASE"] == nil)
    }
}
