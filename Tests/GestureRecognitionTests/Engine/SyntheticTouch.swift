import Foundation
import GestureEvaluation

@testable import GestureRecognition

/// Builds synthetic touch frames for engine tests: fingers on a surface
/// (100 x 60 mm by default), each with a landing and lifting time and a path,
/// sampled at a frame rate with optional jitter from a seeded generator.
struct SyntheticTouch {
    /// One finger: when it touches (seconds from the start) and where it is.
    struct Finger {
        var id: Int
        var down: Double
        var up: Double
        var isPalm = false
        /// Where the finger is at a time in seconds from the start.
        var position: (Double) -> Point
        /// How firmly it presses at a time in seconds (device units), if the pad says.
        var pressure: ((Double) -> Double)? = nil
    }

    var fingers: [Finger] = []
    /// Frames per second.
    var frameRate: Double = 100
    /// Each coordinate gets uniform noise in -jitter...jitter, in millimetres.
    var jitterMillimeters: Double = 0
    /// Seeds the jitter.
    var seed: UInt64 = 1
    /// The time of the first frame.
    var origin: Duration = .seconds(1)
    /// Overrides the finger count of a frame at a time (fake fingers on pads
    /// with fewer slots than fingers).
    var fingerCount: ((Double, Int) -> Int)? = nil
    /// Whether a physical button is down at a time in seconds (none by default).
    var buttonDown: ((Double) -> Bool)? = nil

    /// The frames, ending with one that has no fingers.
    func frames() -> [GestureFrame] {
        var random = SplitMix64(seed: seed)
        func noise() -> Double {
            guard jitterMillimeters > 0 else { return 0 }
            let unit = Double(random.next() >> 11) / Double(1 << 53)
            return (unit * 2 - 1) * jitterMillimeters
        }
        let end = fingers.map(\.up).max() ?? 0
        let step = 1 / frameRate
        var frames: [GestureFrame] = []
        var index = 0
        while true {
            let t = Double(index) * step
            index += 1
            let contacts = fingers.filter { $0.down <= t && t < $0.up }.map { finger in
                let p = finger.position(t)
                return GestureFrame.Contact(
                    id: finger.id, position: Point(x: p.x + noise(), y: p.y + noise()),
                    isPalm: finger.isPalm, pressure: finger.pressure?(t))
            }
            let time = origin + .nanoseconds(Int64((t * 1e9).rounded()))
            let count = fingerCount?(t, contacts.count) ?? contacts.count
            frames.append(
                GestureFrame(
                    time: time, contacts: contacts, fingerCount: count,
                    isButtonDown: buttonDown?(t) ?? false))
            if t >= end { break }
        }
        return frames
    }
}

extension SyntheticTouch {
    /// The touchpad the tests use: 100 x 60 mm.
    static let pad = GestureSurface(kind: .touchpad, widthMillimeters: 100, heightMillimeters: 60)
    /// The touchscreen the tests use: 200 x 120 mm.
    static let screen = GestureSurface(kind: .touchscreen, widthMillimeters: 200, heightMillimeters: 120)

    /// Offsets of `count` fingers laid out like a hand: a row 12 mm apart,
    /// the middle ones a little higher.
    static func hand(_ count: Int) -> [Point] {
        (0..<count).map { i in
            let x = (Double(i) - Double(count - 1) / 2) * 12
            return Point(x: x, y: -abs(x) * 0.15)
        }
    }

    /// Landing times of `count` fingers spread evenly over `spread` seconds.
    static func landings(_ count: Int, spread: Double) -> [Double] {
        (0..<count).map { count == 1 ? 0 : spread * Double($0) / Double(count - 1) }
    }

    /// `count` fingers that land (spread over `landingSpread`), rest for
    /// `rest` seconds, move their centroid from `center` by `travel` over
    /// `moveDuration`, and lift 15 ms apart.
    static func swipe(
        fingers count: Int, from center: Point = Point(x: 50, y: 30), travel: Point,
        moveDuration: Double = 0.25, rest: Double = 0.06, landingSpread: Double = 0
    ) -> SyntheticTouch {
        let landing = landings(count, spread: landingSpread)
        let moveStart = landingSpread + rest
        let moveEnd = moveStart + moveDuration
        var touch = SyntheticTouch()
        for (i, offset) in hand(count).enumerated() {
            touch.fingers.append(
                Finger(id: 10 + i, down: landing[i], up: moveEnd + 0.02 + 0.015 * Double(i)) { t in
                    let progress = min(max((t - moveStart) / moveDuration, 0), 1)
                    return center + offset + travel * progress
                })
        }
        return touch
    }

    /// `count` fingers on a circle of `radius` about `center` whose radius
    /// is multiplied by `scale` and which turns by `rotationDegrees`
    /// (clockwise positive) over `moveDuration`.
    static func pinch(
        fingers count: Int, center: Point = Point(x: 50, y: 30), radius: Double = 15,
        scale: Double = 1, rotationDegrees: Double = 0,
        moveDuration: Double = 0.3, rest: Double = 0.06, landingSpread: Double = 0
    ) -> SyntheticTouch {
        let landing = landings(count, spread: landingSpread)
        let moveStart = landingSpread + rest
        let moveEnd = moveStart + moveDuration
        var touch = SyntheticTouch()
        for i in 0..<count {
            let phase = 2 * Double.pi * Double(i) / Double(count) + 0.3
            touch.fingers.append(
                Finger(id: 20 + i, down: landing[i], up: moveEnd + 0.02 + 0.01 * Double(i)) { t in
                    let progress = min(max((t - moveStart) / moveDuration, 0), 1)
                    let r = radius * (1 + (scale - 1) * progress)
                    let angle = phase + rotationDegrees * Double.pi / 180 * progress
                    return center + Point(x: cos(angle), y: sin(angle)) * r
                })
        }
        return touch
    }

    /// `count` fingers that land (spread over `landingSpread`), stay still,
    /// and each lift `contact` seconds after landing.
    static func still(
        fingers count: Int, center: Point = Point(x: 50, y: 30), contact: Double, landingSpread: Double = 0
    ) -> SyntheticTouch {
        let landing = landings(count, spread: landingSpread)
        var touch = SyntheticTouch()
        for (i, offset) in hand(count).enumerated() {
            touch.fingers.append(Finger(id: 30 + i, down: landing[i], up: landing[i] + contact) { _ in center + offset })
        }
        return touch
    }

    /// One finger following `path` (points in millimetres) over `duration`.
    static func drawing(_ path: [Point], duration: Double) -> SyntheticTouch {
        var touch = SyntheticTouch()
        touch.fingers.append(
            Finger(id: 40, down: 0, up: duration + 0.01) { t in
                let position = min(max(t / duration, 0), 1) * Double(path.count - 1)
                let i = min(Int(position), path.count - 2)
                let f = position - Double(i)
                return path[i] + (path[i + 1] - path[i]) * f
            })
        return touch
    }
}

/// Runs `frames` through an engine and finishes it.
func run(
    _ frames: [GestureFrame], on surface: GestureSurface = SyntheticTouch.pad,
    configuration: GestureEngine.Configuration = .init(), templates: TemplateLibrary = TemplateLibrary()
) -> (events: [GestureEvent], engine: GestureEngine) {
    var engine = GestureEngine(surface: surface, configuration: configuration, templates: templates)
    var events: [GestureEvent] = []
    for frame in frames { events += engine.process(frame) }
    events += engine.finish()
    return (events, engine)
}

/// The events that complete a gesture (ends and single events).
func completions(_ events: [GestureEvent]) -> [GestureEvent] {
    events.filter(\.isCompletion)
}

/// Whether every begin has exactly one end of the same type and fingers,
/// with nothing else of another continuous gesture in between.
func isWellPaired(_ events: [GestureEvent]) -> Bool {
    var open: GestureEvent?
    for event in events {
        switch event.phase {
        case .begin?:
            guard open == nil else { return false }
            open = event
        case .update?:
            guard let begun = open, begun.type == event.type, begun.fingers == event.fingers else { return false }
        case .end?:
            guard let begun = open, begun.type == event.type, begun.fingers == event.fingers,
                event.cancelled != nil
            else { return false }
            open = nil
        case nil:
            break
        }
    }
    return open == nil
}
