import Foundation
import Testing

@testable import GestureRecognition

/// A variant of a synthetic gesture: frame rate, jitter, landing spread, speed.
struct Variant: CustomTestStringConvertible, Sendable {
    var name: String
    var frameRate: Double
    var jitterMillimeters: Double
    var landingSpread: Double
    var moveDuration: Double
    var seed: UInt64

    var testDescription: String { name }

    static let clean = Variant(name: "clean 100 Hz", frameRate: 100, jitterMillimeters: 0, landingSpread: 0, moveDuration: 0.25, seed: 1)
    static let noisy = Variant(
        name: "jitter 0.3 mm, 140 Hz, landing 60 ms apart", frameRate: 140, jitterMillimeters: 0.3, landingSpread: 0.06, moveDuration: 0.25,
        seed: 7)
    static let slow = Variant(
        name: "slow 1.2 s at 80 Hz, jitter 0.3 mm", frameRate: 80, jitterMillimeters: 0.3, landingSpread: 0.04, moveDuration: 1.2, seed: 11)
    static let all = [clean, noisy, slow]

    func apply(_ touch: SyntheticTouch) -> [GestureFrame] {
        var touch = touch
        touch.frameRate = frameRate
        touch.jitterMillimeters = jitterMillimeters
        touch.seed = seed
        return touch.frames()
    }
}

@Suite("GestureEngine swipes")
struct GestureEngineSwipeTests {
    @Test("a swipe gives its direction, distance and finger count", arguments: SwipeDirection.clockwise, 2...5)
    func swipeIsRecognized(direction: SwipeDirection, fingers: Int) {
        for variant in Variant.all {
            let distance = 24.0
            let travel = direction.unitVector * distance
            let touch = SyntheticTouch.swipe(
                fingers: fingers, from: Point(x: 50, y: 30) - travel * 0.5, travel: travel,
                moveDuration: variant.moveDuration, landingSpread: variant.landingSpread)
            let (events, engine) = run(variant.apply(touch))
            let done = completions(events)
            #expect(done.count == 1, "\(variant.name): \(done)")
            guard let end = done.first else { continue }
            #expect(end.type == .swipe)
            #expect(end.phase == .end)
            #expect(end.cancelled == false)
            #expect(end.fingers == fingers)
            #expect(end.direction == direction, "\(variant.name): \(end)")
            #expect(abs((end.dxMillimeters ?? .nan) - travel.x) < 1.5, "\(variant.name): \(end)")
            #expect(abs((end.dyMillimeters ?? .nan) - travel.y) < 1.5, "\(variant.name): \(end)")
            #expect(end.edge == nil)
            #expect(events.first?.type == .swipe && events.first?.phase == .begin)
            #expect(isWellPaired(events))
            #expect(engine.diagnostics.isEmpty)
        }
    }

    @Test(
        "four-way classification names diagonal swipes by their main axis or none",
        arguments: [(Point(x: 30, y: -8), SwipeDirection.right), (Point(x: -5, y: 28), .down)])
    func fourWaySwipes(travel: Point, expected: SwipeDirection) {
        var configuration = GestureEngine.Configuration()
        configuration.swipeDirection = .init(ways: .four, minimumDistanceMillimeters: 1, deadZoneDegrees: 10)
        let touch = SyntheticTouch.swipe(fingers: 3, from: Point(x: 40, y: 20), travel: travel)
        let end = completions(run(touch.frames(), configuration: configuration).events)
        #expect(end.map(\.direction) == [expected])
    }

    @Test(
        "a swipe that starts in an edge zone and moves inwards carries the edge",
        arguments: [
            (Point(x: 5, y: 30), Point(x: 30, y: 0), GestureEvent.Edge?.some(.left)),
            (Point(x: 95, y: 30), Point(x: -30, y: 0), .right),
            (Point(x: 50, y: 6), Point(x: 0, y: 25), .top),
            (Point(x: 50, y: 55), Point(x: 0, y: -25), .bottom),
            (Point(x: 50, y: 30), Point(x: 30, y: 0), nil),
            (Point(x: 5, y: 30), Point(x: 0, y: 20), nil),
        ])
    func edgeSwipes(start: Point, travel: Point, edge: GestureEvent.Edge?) {
        // Three fingers bunched 4 mm apart so that their centroid is where the hand starts.
        var touch = SyntheticTouch()
        for i in 0..<3 {
            let offset = Point(x: 0, y: Double(i - 1) * 4)
            let across = abs(travel.y) > abs(travel.x) ? Point(x: Double(i - 1) * 4, y: 0) : offset
            touch.fingers.append(
                .init(id: i, down: 0, up: 0.4) { t in
                    start + across + travel * min(max((t - 0.05) / 0.3, 0), 1)
                })
        }
        let events = run(touch.frames()).events
        let end = completions(events)
        #expect(end.count == 1)
        #expect(end.first?.type == .swipe)
        #expect(end.first?.edge == edge)
        #expect(events.first?.edge == edge)
    }

    @Test("plain one-finger pointer motion on a touchpad is no gesture", arguments: [0.0, 0.3])
    func pointerMotionIsNoGesture(jitter: Double) {
        var touch = SyntheticTouch.swipe(fingers: 1, from: Point(x: 20, y: 20), travel: Point(x: 50, y: 25), moveDuration: 0.6)
        touch.jitterMillimeters = jitter
        #expect(run(touch.frames()).events.isEmpty)
    }

    @Test("two-finger scrolling below the swipe threshold completes no gesture", arguments: [2.0, 4.0, 5.5])
    func tinyScrollIsNoGesture(distance: Double) {
        var touch = SyntheticTouch.swipe(fingers: 2, travel: Point(x: 0, y: distance), moveDuration: 0.15, rest: 0.02)
        touch.jitterMillimeters = 0.3
        let events = run(touch.frames()).events
        // It may begin (at swipeBeginThresholdMillimeters), and then ends cancelled.
        #expect(completions(events).allSatisfy { $0.cancelled == true }, "\(events)")
        #expect(events.allSatisfy { $0.type == .swipe && ($0.phase != .end || $0.cancelled == true) })
    }

    @Test("a two-finger scroll begins at the begin threshold and completes at the swipe threshold")
    func scrollBeginsEarlyAndCompletesAtTheThreshold() {
        let touch = SyntheticTouch.swipe(fingers: 2, travel: Point(x: 0, y: 20), moveDuration: 0.4)
        let events = run(touch.frames()).events
        let begin = events.first { $0.type == .swipe && $0.phase == .begin }
        let firstUpdate = events.first { $0.type == .swipe && $0.phase == .update }
        #expect(begin != nil)
        // Begun before the centroid travelled the 6 mm swipe threshold.
        #expect(abs(firstUpdate?.dyMillimeters ?? 99) < GestureEngine.Configuration().twoFingerSwipeThresholdMillimeters)
        #expect(completions(events).map(\.direction) == [.down])
    }

    @Test("fingers landing one after another while they move begin one swipe with all of them", arguments: [3, 4])
    func staggeredLandingBeginsOneSwipe(fingers count: Int) {
        // All but the last land together and move left at 60 mm/s at once;
        // the last lands 40 ms later (2.4 mm on), moving with them.
        var touch = SyntheticTouch()
        for i in 0..<count {
            touch.fingers.append(
                .init(id: i, down: i == count - 1 ? 0.04 : 0, up: 0.5) { t in
                    Point(x: 70 - 60 * t, y: 15 + 10 * Double(i))
                })
        }
        let events = run(touch.frames()).events
        #expect(events.filter { $0.phase == .begin }.map(\.fingers) == [count], "\(events)")
        #expect(completions(events).map(\.direction) == [.left])
        #expect(completions(events).map(\.cancelled) == [false])
    }

    @Test("fingers landing together begin short of the swipe threshold once their count has lasted the debounce")
    func earlyBeginWaitsForTheCountToSettle() throws {
        // 30 mm/s from the landing: past 1.5 mm after 50 ms, 6 mm after 200 ms.
        var touch = SyntheticTouch()
        for i in 0..<2 {
            touch.fingers.append(.init(id: i, down: 0, up: 0.6) { t in Point(x: 40 + 12 * Double(i), y: 15 + 30 * t) })
        }
        let events = run(touch.frames()).events
        let begin = try #require(events.first { $0.phase == .begin })
        let sinceLanding = begin.time - touch.origin
        #expect(sinceLanding >= GestureEngine.Configuration().fingerChangeDebounce)
        #expect(sinceLanding < .milliseconds(200))
        #expect(completions(events).map(\.direction) == [.down])
    }

    @Test("two-finger motion is left to scrolling when two-finger swipes are off")
    func twoFingerSwipesCanBeTurnedOff() {
        var configuration = GestureEngine.Configuration()
        configuration.twoFingerSwipes = false
        let touch = SyntheticTouch.swipe(fingers: 2, travel: Point(x: 0, y: 25))
        #expect(run(touch.frames(), configuration: configuration).events.isEmpty)
    }

    @Test("a two-finger vertical scroll back and forth is one vertical swipe")
    func backAndForthScrollIsOneSwipe() {
        var touch = SyntheticTouch()
        for i in 0..<2 {
            touch.fingers.append(
                .init(id: i, down: 0, up: 2.0) { t in
                    // Down 8 mm, up 10, down 8, up 10: ends 4 mm above the start.
                    let legs: [Double] = [8, -10, 8, -10]
                    var y = 0.0
                    for (k, leg) in legs.enumerated() {
                        let progress = min(max((t - 0.1 - Double(k) * 0.45) / 0.3, 0), 1)
                        y += leg * progress
                    }
                    return Point(x: 40 + Double(i) * 15, y: 25 + y)
                })
        }
        touch.jitterMillimeters = 0.2
        let events = run(touch.frames()).events
        let ends = completions(events)
        #expect(ends.count == 1)
        #expect(ends.first?.type == .swipe)
        #expect(ends.first?.fingers == 2)
        #expect(ends.first?.direction == .up)
        #expect(events.filter { $0.type == .hold }.isEmpty)
    }

    @Test("fingers landing while the first ones already move make one swipe with all of them")
    func lateFingersJoinTheSwipe() {
        // Like the Atmel maXTouch four-finger drag: landings at 0, 33, 33 and
        // 120 ms, moving down at 70 mm/s from 90 ms.
        var touch = SyntheticTouch()
        touch.frameRate = 67
        for (i, down) in [0.0, 0.033, 0.033, 0.12].enumerated() {
            touch.fingers.append(
                .init(id: i, down: down, up: 0.7) { t in
                    Point(x: 40 + Double(i) * 25, y: 20 + 70 * max(0, t - 0.09))
                })
        }
        let events = run(touch.frames(), on: SyntheticTouch.screen).events
        let ends = completions(events)
        #expect(ends.count == 1, "\(ends)")
        #expect(ends.first?.type == .swipe)
        #expect(ends.first?.fingers == 4)
        #expect(ends.first?.direction == .down)
        #expect(ends.first?.cancelled == false)
    }

    @Test("a lasting change of finger count cancels a swipe after the debounce", arguments: 2...4)
    func fingerChangeCancelsSwipe(fingers: Int) {
        var touch = SyntheticTouch.swipe(fingers: fingers, travel: Point(x: 30, y: 0), moveDuration: 0.5)
        // Another finger lands at 0.25 s and stays until the others lift.
        touch.fingers.append(.init(id: 99, down: 0.25, up: 0.5) { _ in Point(x: 50, y: 50) })
        let events = run(touch.frames()).events
        let ends = completions(events)
        #expect(ends.first?.type == .swipe)
        #expect(ends.first?.cancelled == true)
        #expect(ends.first?.fingers == fingers)
        #expect(ends.first.map { $0.time - .seconds(1) } == .milliseconds(350))
        #expect(isWellPaired(events))
    }

    @Test("a finger touching for less than the debounce does not cancel a swipe")
    func briefFingerDoesNotCancel() {
        var touch = SyntheticTouch.swipe(fingers: 3, travel: Point(x: 30, y: 0), moveDuration: 0.5)
        touch.fingers.append(.init(id: 99, down: 0.25, up: 0.3) { _ in Point(x: 50, y: 50) })
        let ends = completions(run(touch.frames()).events)
        #expect(ends.count == 1)
        #expect(ends.first?.cancelled == false)
        #expect(ends.first?.direction == .right)
    }

    @Test("a resting palm does not break a three-finger swipe", arguments: [0.0, 0.2])
    func palmDoesNotBreakSwipe(palmLanding: Double) {
        var touch = SyntheticTouch.swipe(fingers: 3, travel: Point(x: -30, y: 0), moveDuration: 0.4)
        touch.fingers.append(.init(id: 77, down: palmLanding, up: 0.6, isPalm: true) { t in Point(x: 80, y: 55 + t) })
        touch.jitterMillimeters = 0.3
        let (events, engine) = run(touch.frames())
        let ends = completions(events)
        #expect(ends.count == 1)
        #expect(ends.first?.type == .swipe)
        #expect(ends.first?.fingers == 3)
        #expect(ends.first?.cancelled == false)
        #expect(ends.first?.direction == .left)
        #expect(engine.diagnostics.isEmpty)
    }
}

@Suite("GestureEngine pinches and rotations")
struct GestureEnginePinchTests {
    @Test("pinching in and out gives the scale", arguments: 2...5, [0.5, 1.8])
    func pinchIsRecognized(fingers: Int, scale: Double) {
        for variant in Variant.all {
            let touch = SyntheticTouch.pinch(
                fingers: fingers, radius: 15, scale: scale,
                moveDuration: variant.moveDuration, landingSpread: variant.landingSpread)
            let events = run(variant.apply(touch)).events
            // A slow pinch rests long enough for a hold, which the motion
            // cancels (as in libinput); the pinch then begins.
            let ends = completions(events).filter { !($0.type == .hold && $0.cancelled == true) }
            #expect(ends.count == 1, "\(variant.name): \(ends)")
            guard let end = ends.first else { continue }
            #expect(end.type == .pinch)
            #expect(end.cancelled == false)
            #expect(end.fingers == fingers)
            #expect(abs((end.scale ?? .nan) / scale - 1) < 0.08, "\(variant.name): \(end)")
            #expect(abs(end.angleDegrees ?? .nan) < 5)
            #expect(isWellPaired(events))
        }
    }

    @Test("rotating either way gives the angle, clockwise positive", arguments: 2...5, [60.0, -60.0])
    func rotationIsRecognized(fingers: Int, degrees: Double) {
        for variant in Variant.all {
            let touch = SyntheticTouch.pinch(
                fingers: fingers, radius: 15, rotationDegrees: degrees,
                moveDuration: variant.moveDuration, landingSpread: variant.landingSpread)
            let ends = completions(run(variant.apply(touch)).events)
            #expect(ends.count == 1, "\(variant.name): \(ends)")
            guard let end = ends.first else { continue }
            #expect(end.type == .pinch)
            #expect(end.fingers == fingers)
            #expect(abs((end.angleDegrees ?? .nan) - degrees) < 5, "\(variant.name): \(end)")
            #expect(abs((end.scale ?? .nan) - 1) < 0.08)
        }
    }
}
