import DesktopDaemon
import Foundation
import GestureRecognition
import Testing

private let pad = InputDevice(id: 1, name: "SynPS/2 Synaptics TouchPad", vendor: 2, product: 7)
private let screen = InputDevice(id: 2, name: "ELAN Touchscreen", vendor: 0x04f3, product: 0x2c5a)

/// The commands' first arguments (the labels used below) fired by `events`.
private func fired(_ events: [GestureEvent], _ json: String, device: InputDevice = pad) throws -> [String] {
    var matcher = BindingMatcher(configuration: try configuration(json))
    return events.flatMap { matcher.process($0, from: device) }.map { $0.command[0] }
}

private func binding(_ body: String, label: String) -> String {
    #"{\#(body), "action": {"command": ["\#(label)"]}}"#
}

private func continuous(_ body: String, every: Double, label: String = "step") -> String {
    #"{\#(body), "action": {"command": ["\#(label)"], "phase": "continuous", "every": \#(every)}}"#
}

@Suite("BindingMatcher: gesture events to actions")
struct BindingMatcherTests {
    static let swipeCases: [(SwipeDirection, (Double, Double))] = [
        (.left, (-30, 1)), (.right, (30, -1)), (.up, (0.5, -25)), (.down, (0, 25)),
        (.upLeft, (-20, -20)), (.downRight, (20, 20)),
    ]

    @Test(
        "an end binding fires once, on the end, for its direction and finger count only",
        arguments: swipeCases, [3, 4])
    func swipeEnd(swipe: (SwipeDirection, (Double, Double)), fingers: Int) throws {
        let (direction, displacement) = swipe
        let steps = (1...5).map { (displacement.0 * Double($0) / 5, displacement.1 * Double($0) / 5) }
        let events = Stream.swipe(fingers: fingers, steps: steps, direction: direction)
        let json = withBindings(
            [
                binding(#""gesture": "swipe", "fingers": 3, "direction": "\#(direction.rawValue)""#, label: "three"),
                binding(#""gesture": "swipe", "fingers": 4, "direction": "\#(direction.rawValue)""#, label: "four"),
                binding(#""gesture": "swipe", "direction": "\#(direction.opposite.rawValue)""#, label: "opposite"),
                binding(#""gesture": "pinch""#, label: "pinch"),
            ].joined(separator: ","))
        #expect(try fired(events, json) == [fingers == 3 ? "three" : "four"])
    }

    @Test("a cancelled gesture fires no end binding", arguments: [GestureEvent.Kind.swipe, .pinch])
    func cancelled(kind: GestureEvent.Kind) throws {
        let events =
            kind == .swipe
            ? Stream.swipe(fingers: 3, steps: [(-20, 0)], direction: .left, cancelled: true)
            : Stream.pinch(fingers: 2, steps: [(1.5, 0)], cancelled: true)
        #expect(try fired(events, withBindings(binding(#""gesture": "\#(kind.rawValue)""#, label: "x"))).isEmpty)
    }

    @Test("a begin binding without conditions fires on the begin, once")
    func beginPlain() throws {
        let events = Stream.swipe(fingers: 3, steps: [(-10, 0), (-20, 0)], direction: .left)
        var matcher = BindingMatcher(
            configuration: try configuration(
                withBindings(
                    #"{"gesture": "swipe", "action": {"command": ["b"], "phase": "begin"}}"#)))
        let perEvent = events.map { matcher.process($0, from: pad).count }
        #expect(perEvent == [1, 0, 0, 0])
    }

    @Test("a begin binding with a direction fires on the first update going that way")
    func beginWithDirection() throws {
        let events = Stream.swipe(fingers: 3, steps: [(0.2, 0.1), (-8, 0), (-16, 0)], direction: .left)
        var matcher = BindingMatcher(
            configuration: try configuration(
                withBindings(
                    #"{"gesture": "swipe", "direction": "left", "action": {"command": ["b"], "phase": "begin"}}"#)))
        let perEvent = events.map { matcher.process($0, from: pad).count }
        #expect(perEvent == [0, 0, 1, 0, 0])
    }

    static let pinchCases: [(Double, Double, [String])] = [
        (1.6, 0, ["out"]), (0.6, 0, ["in"]), (1.0, 40, ["clockwise"]), (1.0, -40, ["counterclockwise"]),
        (1.05, 5, []),  // under the engine's thresholds: no direction
        (1.5, 30, ["out", "clockwise"]),
    ]

    static let undirectedPinchCases: [(Double, Double, String?)] = [
        (1.6, 0, "out"), (0.6, 0, "in"), (1.0, 40, "clockwise"), (1.0, -40, "counterclockwise"),
        (1.05, 5, nil),  // under both thresholds: no direction to report
        (1.2, 60, "clockwise"), (1.6, 20, "out"),  // both past: the one furthest past its threshold
    ]

    @Test("a pinch binding without a direction gets GESTURE_DIRECTION as the engine saw it", arguments: undirectedPinchCases)
    func undirectedPinchCarriesDirection(scale: Double, angle: Double, expected: String?) throws {
        var matcher = BindingMatcher(configuration: try configuration(withBindings(binding(#""gesture": "pinch""#, label: "any"))))
        let actions = Stream.pinch(fingers: 2, steps: [(scale, angle)]).flatMap { matcher.process($0, from: pad) }
        #expect(actions.count == 1)
        #expect(actions.first?.environment["GESTURE_DIRECTION"] == expected)
    }

    @Test("pinch directions use the engine's scale and rotation thresholds", arguments: pinchCases)
    func pinchDirections(scale: Double, angle: Double, expected: [String]) throws {
        let json = withBindings(
            ["out", "in", "clockwise", "counterclockwise"].map {
                binding(#""gesture": "pinch", "direction": "\#($0)""#, label: $0)
            }.joined(separator: ","))
        #expect(try fired(Stream.pinch(fingers: 2, steps: [(scale, angle)]), json) == expected)
    }

    static let minimumCases: [(String, [GestureEvent], Bool)] = [
        (#""gesture": "swipe", "minimumDistanceMillimeters": 20"#, Stream.swipe(fingers: 3, steps: [(-19, 0)], direction: .left), false),
        (#""gesture": "swipe", "minimumDistanceMillimeters": 20"#, Stream.swipe(fingers: 3, steps: [(-12, -16)], direction: .upLeft), true),
        (#""gesture": "pinch", "minimumScale": 1.5"#, Stream.pinch(fingers: 2, steps: [(1.4, 0)]), false),
        (#""gesture": "pinch", "minimumScale": 1.5"#, Stream.pinch(fingers: 2, steps: [(1.5, 0)]), true),
        (#""gesture": "pinch", "maximumScale": 0.5"#, Stream.pinch(fingers: 2, steps: [(0.4, 0)]), true),
        (#""gesture": "pinch", "minimumAngleDegrees": 45"#, Stream.pinch(fingers: 3, steps: [(1, -50)]), true),
        (#""gesture": "pinch", "minimumAngleDegrees": 45"#, Stream.pinch(fingers: 3, steps: [(1, 44)]), false),
        (#""gesture": "swipe", "edge": "left""#, Stream.swipe(fingers: 3, steps: [(20, 0)], direction: .right, edge: .left), true),
        (#""gesture": "swipe", "edge": "left""#, Stream.swipe(fingers: 3, steps: [(20, 0)], direction: .right), false),
    ]

    @Test("distance, scale, angle and edge conditions", arguments: minimumCases)
    func conditions(body: String, events: [GestureEvent], fires: Bool) throws {
        #expect(try fired(events, withBindings(binding(body, label: "x"))) == (fires ? ["x"] : []))
    }

    @Test("taps, strokes and sequences fire end bindings by fingers, template and name")
    func singleEvents() throws {
        let json = #"""
            {"version": 1, "sequences": [{"name": "zz", "directions": ["left", "right"]}], "bindings": [
              {"gesture": "tap", "fingers": 3, "action": {"command": ["tap3"]}},
              {"gesture": "stroke", "template": "circle", "action": {"command": ["circle"]}},
              {"gesture": "sequence", "sequence": "zz", "action": {"command": ["zz"]}}]}
            """#
        let events = [
            GestureEvent(type: .tap, time: .zero, fingers: 2),
            GestureEvent(type: .tap, time: .zero, fingers: 3),
            GestureEvent(type: .stroke, time: .zero, fingers: 1, template: "triangle", score: 0.9),
            GestureEvent(type: .stroke, time: .zero, fingers: 1, template: "circle", score: 0.9),
            GestureEvent(type: .sequence, time: .zero, fingers: 3, name: "zz"),
        ]
        #expect(try fired(events, json) == ["tap3", "circle", "zz"])
    }

    @Test("device conditions: name pattern, vendor and product")
    func devices() throws {
        let json = withBindings(
            [
                binding(#""gesture": "tap", "device": {"name": ".*Touchscreen"}"#, label: "screen"),
                binding(#""gesture": "tap", "device": {"vendor": 2, "product": 7}"#, label: "pad"),
                binding(#""gesture": "tap", "device": {"name": "SynPS/2.*", "vendor": 3}"#, label: "never"),
            ].joined(separator: ","))
        let tap = [GestureEvent(type: .tap, time: .zero, fingers: 1)]
        #expect(try fired(tap, json, device: pad) == ["pad"])
        #expect(try fired(tap, json, device: screen) == ["screen"])
    }

    // MARK: Continuous

    static let proportionalCases: [(Double, Double)] = [(5, 36.6), (5, 4.9), (2, 30), (7.5, 100), (1, 12.3)]

    @Test(
        "a continuous swipe fires floor(distance / every) times, spread over the updates",
        arguments: proportionalCases)
    func continuousProportional(every: Double, distance: Double) throws {
        let steps = (1...40).map { (-distance * Double($0) / 40, 0.3 * sin(Double($0))) }
        var matcher = BindingMatcher(
            configuration: try configuration(
                withBindings(
                    continuous(#""gesture": "swipe", "fingers": 3, "direction": "left""#, every: every))))
        let actions = Stream.swipe(fingers: 3, steps: steps, direction: .left).flatMap { matcher.process($0, from: pad) }
        let expected = Int((distance / every).rounded(.down))
        #expect(actions.count == expected)
        #expect(actions.map { $0.environment["GESTURE_STEP"] } == (0..<expected).map { String($0 + 1) })
    }

    @Test("twice the distance fires twice as often", arguments: [3.0, 5.0, 10.0])
    func continuousDoubles(every: Double) throws {
        func count(_ distance: Double) throws -> Int {
            let steps = (1...50).map { (0.0, distance * Double($0) / 50) }
            var matcher = BindingMatcher(
                configuration: try configuration(
                    withBindings(
                        continuous(#""gesture": "swipe", "direction": "down""#, every: every))))
            return Stream.swipe(fingers: 4, steps: steps, direction: .down).flatMap { matcher.process($0, from: pad) }.count
        }
        #expect(try count(60) == 2 * count(30))
    }

    @Test("scrubbing: each direction fires for its own forward travel, never for the way back")
    func continuousScrub() throws {
        // Up 20 mm, down 30 mm (10 mm past the start), up 10 mm.
        var path: [(Double, Double)] = []
        for y in stride(from: -1.0, through: -20, by: -1) { path.append((0, y)) }
        for y in stride(from: -19.0, through: 10, by: 1) { path.append((0, y)) }
        for y in stride(from: 9.0, through: 0, by: -1) { path.append((0, y)) }
        let json = withBindings(
            [
                continuous(#""gesture": "swipe", "direction": "up""#, every: 5, label: "up"),
                continuous(#""gesture": "swipe", "direction": "down""#, every: 5, label: "down"),
            ].joined(separator: ","))
        let labels = try fired(Stream.swipe(fingers: 3, steps: path, direction: nil), json)
        #expect(labels.filter { $0 == "up" }.count == 6)  // 20 mm, then 10 mm
        #expect(labels.filter { $0 == "down" }.count == 6)  // 30 mm
        #expect(labels.prefix(4) == ["up", "up", "up", "up"])
    }

    @Test("a continuous binding without a direction counts the path length")
    func continuousPathLength() throws {
        // An L: 15 mm right then 15 mm down, 30 mm of path, 21 mm of displacement.
        let path = (1...15).map { (Double($0), 0.0) } + (1...15).map { (15.0, Double($0)) }
        #expect(
            try fired(
                Stream.swipe(fingers: 3, steps: path, direction: .downRight),
                withBindings(continuous(#""gesture": "swipe""#, every: 5))
            ).count == 6)
    }

    static let pinchContinuousCases: [(String, Double, [(scale: Double, angle: Double)], Int)] = [
        ("out", 0.25, (1...10).map { (1 + 0.1 * Double($0), 0) }, 4),  // scale 1 -> 2
        ("in", 0.1, (1...10).map { (1 - 0.05 * Double($0), 0) }, 5),  // scale 1 -> 0.5
        ("clockwise", 10, (1...12).map { (1, 5 * Double($0)) }, 6),  // 0 -> 60 degrees
        ("counterclockwise", 15, (1...12).map { (1, -5 * Double($0)) }, 4),
        ("clockwise", 10, (1...12).map { (1, -5 * Double($0)) }, 0),
    ]

    @Test("continuous pinches count scale steps or degrees", arguments: pinchContinuousCases)
    func continuousPinch(direction: String, every: Double, steps: [(scale: Double, angle: Double)], expected: Int) throws {
        let json = withBindings(continuous(#""gesture": "pinch", "direction": "\#(direction)""#, every: every))
        #expect(try fired(Stream.pinch(fingers: 2, steps: steps), json).count == expected)
    }

    @Test("the environment carries the gesture's values")
    func environment() throws {
        var matcher = BindingMatcher(
            configuration: try configuration(
                withBindings(
                    #"{"name": "ws", "gesture": "swipe", "direction": "left", "action": {"command": ["x"]}}"#)))
        let actions = Stream.swipe(fingers: 3, steps: [(-30, 40)], direction: .left, edge: .right)
            .flatMap { matcher.process($0, from: pad) }
        let environment = try #require(actions.first).environment
        #expect(environment["GESTURE_TYPE"] == "swipe")
        #expect(environment["GESTURE_PHASE"] == "end")
        #expect(environment["GESTURE_FINGERS"] == "3")
        #expect(environment["GESTURE_DIRECTION"] == "left")
        #expect(environment["GESTURE_DX_MM"] == "-30" && environment["GESTURE_DY_MM"] == "40")
        #expect(environment["GESTURE_DISTANCE_MM"] == "50")
        #expect(environment["GESTURE_EDGE"] == "right")
        #expect(environment["GESTURE_DEVICE"] == pad.name)
        #expect(environment["GESTURE_DEVICE_VENDOR"] == "0002" && environment["GESTURE_DEVICE_PRODUCT"] == "0007")
        #expect(environment["GESTURE_BINDING"] == "ws")
        #expect(environment["GESTURE_SCALE"] == nil && environment["GESTURE_STEP"] == nil)
    }

    @Test("bindings fire in file order; gestures on two devices are tracked apart")
    func orderAndDevices() throws {
        var matcher = BindingMatcher(
            configuration: try configuration(
                withBindings(
                    [
                        binding(#""gesture": "swipe", "fingers": 3"#, label: "a"),
                        continuous(#""gesture": "swipe", "direction": "left""#, every: 10, label: "c"),
                        binding(#""gesture": "swipe", "direction": "left""#, label: "b"),
                    ].joined(separator: ","))))
        let one = Stream.swipe(fingers: 3, steps: [(-10, 0), (-20, 0)], direction: .left)
        let two = Stream.swipe(fingers: 4, steps: [(-5, 0), (-10, 0)], direction: .left)
        // Interleave the two devices' events.
        var labels: [String] = []
        for index in 0..<max(one.count, two.count) {
            if index < one.count { labels += matcher.process(one[index], from: pad).map { "pad:" + $0.command[0] } }
            if index < two.count { labels += matcher.process(two[index], from: screen).map { "screen:" + $0.command[0] } }
        }
        #expect(labels == ["pad:c", "pad:c", "screen:c", "pad:a", "pad:b", "screen:b"])
        #expect(matcher.gesturesInProgress == 0)
    }

    @Test(
        "no scale, angle or distance makes a continuous binding trap: the firings per event stay bounded",
        arguments: [1e23, 1e300, .greatestFiniteMagnitude, .infinity, .nan, -1e300])
    func hugeTravelIsBounded(value: Double) throws {
        let json = withBindings(
            [
                continuous(#""gesture": "pinch", "direction": "out""#, every: 0.01, label: "out"),
                continuous(#""gesture": "pinch", "direction": "in""#, every: 0.01, label: "in"),
                continuous(#""gesture": "pinch", "direction": "clockwise""#, every: 1, label: "cw"),
                continuous(#""gesture": "swipe", "direction": "left""#, every: 0.5, label: "left"),
                continuous(#""gesture": "swipe""#, every: 0.5, label: "path"),
            ].joined(separator: ","))
        let pinch = Stream.pinch(fingers: 2, steps: [(value, value), (1, 0), (value, -value), (-value, value)])
        let swipe = Stream.swipe(fingers: 3, steps: [(-value, 0), (value, value), (0, -value)], direction: .left)
        let actions = try fired(pinch + swipe, json)
        #expect(actions.count <= 5 * 4 * BindingMatcher.maximumFiringsPerEvent)
    }
}

/// What `--explain` says of continuous bindings that did not fire: a gesture
/// that went another way is "not this direction", at any event; one that
/// ended short of a step says so.
@Suite("BindingMatcher: the verdicts of continuous bindings")
struct ContinuousVerdictTests {
    /// The verdict of each binding, by its command, for each event of `events`.
    private func verdicts(_ events: [GestureEvent], _ json: String) throws -> [[String: String]] {
        var matcher = BindingMatcher(configuration: try configuration(json))
        return events.map { event in
            let verdicts = matcher.explain(event, from: pad).verdicts
            return Dictionary(uniqueKeysWithValues: verdicts.map { ($0.binding, $0.reason) })
        }
    }

    @Test("a swipe that went another way is not this direction, on its updates and at its end")
    func swipeOfAnotherDirection() throws {
        let steps = (1...5).map { (-6.0 * Double($0), 0.5) }
        let events = Stream.swipe(fingers: 4, steps: steps, direction: .left)
        let json = withBindings(
            [
                #"{"name": "down", "gesture": "swipe", "fingers": 4, "direction": "down", "action": {"command": ["d"], "phase": "continuous", "every": 5}}"#,
                #"{"name": "left", "gesture": "swipe", "fingers": 4, "direction": "left", "action": {"command": ["l"], "phase": "continuous", "every": 5}}"#,
            ].joined(separator: ","))
        let all = try verdicts(events, json)
        #expect(all.first?["down"] == "waits for travel: 0 of a step of 5")
        for verdict in all.dropFirst() {
            #expect(verdict["down"] == "not this direction: it wants down, the gesture went left", "\(all)")
        }
        #expect(all.last?["left"] == "ended after 6 steps: 0 of the next step of 5", "\(all)")
    }

    @Test("a swipe that ends short of its next step says so, not that it waits")
    func endedShortOfAStep() throws {
        let events = Stream.swipe(fingers: 3, steps: [(-2, 0), (-3, 0)], direction: .left)
        let json = withBindings(
            [
                #"{"name": "left", "gesture": "swipe", "fingers": 3, "direction": "left", "action": {"command": ["l"], "phase": "continuous", "every": 5}}"#
            ].joined(separator: ","))
        let all = try verdicts(events, json)
        #expect(all[2]["left"] == "waits for travel: 3 of a step of 5")
        #expect(all.last?["left"] == "ended short of a step: 3 of a step of 5")
    }

    @Test("a pinch that went the other way is not this direction")
    func pinchOfAnotherDirection() throws {
        let events = Stream.pinch(fingers: 2, steps: [(1.2, 0), (1.5, 0)])
        let json = withBindings(
            [
                #"{"name": "in", "gesture": "pinch", "fingers": 2, "direction": "in", "action": {"command": ["i"], "phase": "continuous", "every": 0.1}}"#
            ].joined(separator: ","))
        let all = try verdicts(events, json)
        #expect(all.last?["in"] == "not this direction: it wants in, the gesture went out", "\(all)")
    }
}
