import Foundation
import Testing

@testable import GestureRecognition

/// Taps as real pads report them: positions that jump while the finger
/// lands and slide while it lifts, pressure that rises and falls.
@Suite("GestureEngine taps with landing and lifting jitter")
struct GestureEngineTapJitterTests {
    /// One finger at `at`, frames every `1 / rate` s until `contact` s,
    /// with the position and pressure of each frame from `frame(k, count)`.
    static func tap(
        rate: Double = 80, contact: Double = 0.09, start: Double = 0,
        _ frame: (_ k: Int, _ count: Int) -> (offset: Point, pressure: Double?)
    ) -> [GestureFrame] {
        let at = Point(x: 50, y: 30)
        let count = Int((contact * rate).rounded(.up))
        var frames: [GestureFrame] = []
        for k in 0..<count {
            let (offset, pressure) = frame(k, count)
            frames.append(
                GestureFrame(
                    time: .seconds(1 + start) + .nanoseconds(Int64(Double(k) / rate * 1e9)),
                    contacts: [.init(id: 1, position: at + offset, pressure: pressure)]))
        }
        frames.append(GestureFrame(time: .seconds(1 + start) + .nanoseconds(Int64(Double(count) / rate * 1e9)), contacts: []))
        return frames
    }

    static let surfaces: [GestureSurface] = [
        SyntheticTouch.pad,
        GestureSurface(kind: .touchpad, widthMillimeters: 70, heightMillimeters: 50, positionsAreApproximate: true),
        SyntheticTouch.screen,
    ]

    @Test(
        "a position that jumps several millimetres on the first frames and comes back is a tap",
        arguments: [2.0, 4.0, 6.0], [1, 2, 3])
    func landingJumpIsATap(jump: Double, frames jumpFrames: Int) {
        for surface in Self.surfaces {
            let frames = Self.tap { k, _ in (k >= 1 && k <= jumpFrames ? Point(x: jump * 0.6, y: -jump * 0.8) : .zero, nil) }
            let events = run(frames, on: surface).events
            #expect(events.map(\.type) == [.tap], "\(surface): \(events.map(\.jsonLine))")
        }
    }

    @Test("a finger that slides in its last frame as the pressure drops is a tap", arguments: [1.5, 2.5, 4.0])
    func liftSlideIsATap(slide: Double) {
        for withPressure in [true, false] {
            let frames = Self.tap { k, count in
                let lifting = k == count - 1
                let pressure: Double = k == 0 ? 20 : lifting ? 9 : 66 - Double(k % 2) * 3
                return (
                    lifting ? Point(x: slide * 0.4, y: slide * 0.9) : Point(x: 0.1 * Double(k % 2), y: 0), withPressure ? pressure : nil
                )
            }
            let events = run(frames).events
            #expect(events.map(\.type) == [.tap], "pressure \(withPressure): \(events.map(\.jsonLine))")
        }
    }

    @Test("a light landing frame away from where the finger presses is no motion")
    func lightLandingFrameIsNoMotion() {
        let frames = Self.tap { k, _ in (k == 0 ? Point(x: -2.5, y: 1.5) : .zero, k == 0 ? 15 : 70) }
        #expect(run(frames).events.map(\.type) == [.tap])
    }

    @Test("two quick taps are two taps")
    func doubleTapIsTwoTaps() {
        let slide: (Int, Int) -> (offset: Point, pressure: Double?) = { k, count in
            (k == count - 1 ? Point(x: 1, y: 2.3) : .zero, k == count - 1 ? 10 : 70)
        }
        let frames = Self.tap(contact: 0.075, slide) + Self.tap(contact: 0.075, start: 0.18, slide)
        let events = run(frames).events
        #expect(events.map(\.type) == [.tap, .tap], "\(events.map(\.jsonLine))")
        #expect(events.map(\.fingers) == [1, 1])
    }

    /// One finger moving `distance` mm in `direction` over `duration` s
    /// (after resting `rest` s), lifting as it arrives, at `rate` frames a second.
    static func motion(
        distance: Double, direction: Double, duration: Double, rest: Double, rate: Double,
        eased: Bool, pressure: Bool
    ) -> [GestureFrame] {
        let unit = Point(x: cos(direction), y: sin(direction))
        return tap(rate: rate, contact: rest + duration) { k, count in
            let t = Double(k) / rate
            var u = min(max((t - rest) / duration, 0), 1)
            if eased { u = u * u * (3 - 2 * u) }
            let light = k == 0 || k == count - 1
            return (unit * (distance * u), pressure ? (light ? 12 : 70) : nil)
        }
    }

    @Test("pointer motions and drags of 2.5 mm or more over 80 ms or more never tap", arguments: [2.5, 4.0, 8.0, 20.0])
    func pointerMotionNeverTaps(distance: Double) {
        var taps = 0, runs = 0
        for duration in [0.08, 0.12, 0.19, 0.4] {
            for direction in stride(from: 0.0, to: 2 * Double.pi, by: Double.pi / 4) {
                for (rest, rate) in [(0.0, 80.0), (0.03, 125.0)] {
                    for eased in [false, true] {
                        for pressure in [false, true] {
                            let frames = Self.motion(
                                distance: distance, direction: direction, duration: duration,
                                rest: rest, rate: rate, eased: eased, pressure: pressure)
                            for surface in Self.surfaces {
                                runs += 1
                                taps += run(frames, on: surface).events.filter { $0.type == .tap }.count
                            }
                        }
                    }
                }
            }
        }
        #expect(taps == 0, "\(taps) taps in \(runs) motions of \(distance) mm")
    }

    @Test("a finger that jumps away and stays there is no tap")
    func jumpAwayIsNoTap() {
        let frames = Self.tap(contact: 0.1) { k, _ in (k >= 2 ? Point(x: 3, y: 0) : .zero, nil) }
        #expect(run(frames).events.isEmpty)
    }
}
