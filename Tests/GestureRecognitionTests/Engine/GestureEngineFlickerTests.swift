import Foundation
import Testing

@testable import GestureRecognition

/// What 2-slot and semi-MT pads do to a second finger: it vanishes for a
/// frame or two (its tracking id ends and a new one begins, the finger
/// count drops), and the remaining slot can jump to where it was.
@Suite("GestureEngine with flickering fingers")
struct GestureEngineFlickerTests {
    /// How the pad misreports the fingers around a flicker.
    enum Flicker: String, CaseIterable, Sendable {
        /// Slot 0 reports the second finger while it is gone, and keeps it
        /// when a new id comes back for the first.
        case swap
        /// Slot 0 reports the second finger while it is gone, then jumps back.
        case back
        /// Slot 0 jumps onto the second finger one frame before it goes.
        case collapse
        /// Slot 0 jumps back one frame after the second finger comes back,
        /// so both start again from the same place and spring apart.
        case lag
    }

    /// Two fingers following `a` and `b` (u in 0...1 -> mm) over `duration`
    /// seconds at 80 Hz after resting 40 ms, with `flicker` at each of
    /// `starts` seconds for `frames` frames.
    static func twoFingers(
        a: @escaping (Double) -> Point, b: @escaping (Double) -> Point, duration: Double = 0.6,
        flicker: Flicker, starts: [Double], frames gone: Int = 1
    ) -> [GestureFrame] {
        let rate = 80.0, rest = 0.04
        var ids = (first: 1, second: 2), nextID = 3
        var swapped = false
        var dips: Set<Int> = [], collapses: Set<Int> = [], lags: Set<Int> = []
        for start in starts {
            let k = Int((start * rate).rounded())
            for j in 0..<gone { dips.insert(k + j) }
            if flicker == .collapse { collapses.insert(k - 1) }
            if flicker == .lag { lags.insert(k + gone) }
        }
        var frames: [GestureFrame] = []
        var stale = Point.zero
        let count = Int(((rest + duration + 0.04) * rate).rounded())
        for k in 0...count {
            let t = Double(k) / rate
            var u = min(max((t - rest) / duration, 0), 1)
            u = u * u * (3 - 2 * u)
            let (pa, pb) = swapped ? (b(u), a(u)) : (a(u), b(u))
            let time = Duration.seconds(1) + .nanoseconds(Int64(t * 1e9))
            if dips.contains(k) {
                stale = pb
                frames.append(GestureFrame(time: time, contacts: [.init(id: ids.first, position: pb)], fingerCount: 1))
                if !dips.contains(k + 1) {
                    ids.second = nextID
                    nextID += 1
                    if flicker == .swap || flicker == .collapse { swapped.toggle() }
                }
            } else if lags.contains(k) {
                frames.append(
                    GestureFrame(time: time, contacts: [.init(id: ids.first, position: stale), .init(id: ids.second, position: pb)]))
            } else if collapses.contains(k) {
                frames.append(
                    GestureFrame(time: time, contacts: [.init(id: ids.first, position: pb), .init(id: ids.second, position: pb)]))
            } else {
                frames.append(
                    GestureFrame(time: time, contacts: [.init(id: ids.first, position: pa), .init(id: ids.second, position: pb)]))
            }
        }
        frames.append(GestureFrame(time: .seconds(1) + .nanoseconds(Int64(Double(count + 1) / rate * 1e9)), contacts: []))
        return frames
    }

    @Test(
        "a two-finger swipe with a flickering second finger is one swipe in its direction",
        arguments: Flicker.allCases, SwipeDirection.clockwise.filter { !$0.isDiagonal })
    func flickerKeepsSwipe(flicker: Flicker, direction: SwipeDirection) {
        let travel = direction.unitVector * 25
        // The fingers side by side across the motion, 20 mm apart.
        let across = Point(x: -direction.unitVector.y, y: direction.unitVector.x) * 10
        let center = Point(x: 50, y: 30) - travel * 0.5
        for (starts, gone) in [([0.12], 1), ([0.3], 2), ([0.1, 0.35, 0.5], 1)] {
            let frames = Self.twoFingers(
                a: { center - across + travel * $0 }, b: { center + across + travel * $0 },
                flicker: flicker, starts: starts, frames: gone)
            let events = run(frames).events
            let done = completions(events)
            #expect(done.count == 1, "\(flicker) at \(starts): \(events.filter { $0.phase != .update }.map(\.jsonLine))")
            #expect(done.first?.type == .swipe)
            #expect(done.first?.cancelled == false)
            #expect(done.first?.direction == direction)
            #expect(!events.contains { $0.type == .pinch })
            #expect(isWellPaired(events))
        }
    }

    @Test(
        "a flickering pinch never jumps: no update changes the scale by more than the jump ratio",
        arguments: Flicker.allCases)
    func flickerNeverJumpsAPinch(flicker: Flicker) {
        let frames = Self.twoFingers(
            a: { Point(x: 45 - 10 * $0, y: 30) }, b: { Point(x: 55 + 10 * $0, y: 31) }, duration: 0.4,
            flicker: flicker, starts: [0.1, 0.26, 0.34])
        let events = run(frames).events
        // The updates from the first on (the pinch begins past its thresholds).
        let scales = events.filter { $0.type == .pinch && $0.phase == .update }.compactMap(\.scale)
        let ratio = GestureEngine.Configuration().jumpScaleRatio
        for (before, after) in zip(scales, scales.dropFirst()) {
            #expect(after / before < ratio && before / after < ratio, "\(before) -> \(after)")
        }
        let done = completions(events)
        #expect(done.count == 1)
        #expect(done.first?.type == .pinch)
        #expect((done.first?.scale ?? 0) > 1.5)
        #expect(abs(done.first?.angleDegrees ?? 90) < 15)
    }

    @Test("two fingers resting while one flickers are no pinch and no swipe", arguments: Flicker.allCases)
    func flickerAloneIsNoMotion(flicker: Flicker) {
        let frames = Self.twoFingers(
            a: { _ in Point(x: 40, y: 30) }, b: { _ in Point(x: 62, y: 32) }, duration: 0.1,
            flicker: flicker, starts: [0.06])
        let events = run(frames).events
        #expect(!events.contains { $0.type == .pinch || $0.type == .swipe }, "\(events.map(\.jsonLine))")
    }

    @Test("a two-finger tap whose second finger flickers is one two-finger tap", arguments: Flicker.allCases)
    func flickerKeepsTap(flicker: Flicker) {
        let frames = Self.twoFingers(
            a: { _ in Point(x: 40, y: 30) }, b: { _ in Point(x: 60, y: 31) }, duration: 0.01,
            flicker: flicker, starts: [0.05])
        let events = run(frames).events
        #expect(events.map(\.type) == [.tap], "\(events.map(\.jsonLine))")
        #expect(events.first?.fingers == 2)
    }

    @Test("a finger that lifts and lands again later than the debounce makes no tap")
    func lateReturnIsNoTap() {
        var touch = SyntheticTouch.still(fingers: 2, contact: 0.15)
        touch.fingers[1] = .init(id: 31, down: 0, up: 0.03) { _ in Point(x: 62, y: 30) }
        touch.fingers.append(.init(id: 32, down: 0.14, up: 0.15) { _ in Point(x: 62, y: 30) })
        #expect(run(touch.frames()).events.isEmpty)
    }
}
