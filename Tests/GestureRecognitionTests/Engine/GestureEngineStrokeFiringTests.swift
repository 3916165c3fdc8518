import Foundation
import Testing

@testable import GestureRecognition

/// On a touchscreen one finger also drags and scrolls: a stroke fires only
/// when it is unmistakable.
@Suite("GestureEngine strokes fire only when unmistakable")
struct GestureEngineStrokeFiringTests {
    /// One finger on the screen resting `rest` seconds, then following
    /// `path` over `duration`, sampled at 100 Hz with `jitter` mm of noise.
    static func drag(_ path: [Point], rest: Double = 0, duration: Double = 0.6, jitter: Double = 0.2, seed: UInt64 = 1) -> [GestureFrame] {
        var touch = SyntheticTouch()
        touch.fingers.append(
            .init(id: 1, down: 0, up: rest + duration + 0.01) { t in
                let position = min(max((t - rest) / duration, 0), 1) * Double(path.count - 1)
                let k = min(Int(position), path.count - 2)
                return path[k] + (path[k + 1] - path[k]) * (position - Double(k))
            })
        touch.jitterMillimeters = jitter
        touch.seed = seed
        return touch.frames()
    }

    static func strokes(_ frames: [GestureFrame]) -> [GestureEvent] {
        run(frames, on: SyntheticTouch.screen, templates: .dollarShapes).events.filter { $0.type == .stroke }
    }

    static let circle = GestureEngineStrokeSequenceTests.circle(center: Point(x: 100, y: 60), radius: 25)

    @Test("a drawn circle fires; the same circle drawn after resting still does not")
    func restingFirstIsNoStroke() {
        #expect(Self.strokes(Self.drag(Self.circle)).map(\.template) == ["circle"])
        let afterRest = run(Self.drag(Self.circle, rest: 0.4), on: SyntheticTouch.screen, templates: .dollarShapes).events
        #expect(!afterRest.contains { $0.type == .stroke }, "\(afterRest.map(\.jsonLine))")
        // The resting finger was a hold, and moving ended it cancelled.
        #expect(completions(afterRest).map(\.cancelled) == [true])
    }

    @Test("straight and curved drags in any direction are no stroke", arguments: Array(stride(from: 0.0, to: 360, by: 30)))
    func dragsAreNoStroke(degrees: Double) {
        let direction = Point(x: cos(degrees * .pi / 180), y: sin(degrees * .pi / 180))
        let side = Point(x: -direction.y, y: direction.x)
        for length in [20.0, 60.0, 110.0] {
            for bend in [0.0, 0.15, 0.3] {
                let path = (0...30).map { k -> Point in
                    let u = Double(k) / 30
                    return Point(x: 100, y: 60) + direction * (length * (u - 0.5)) + side * (length * bend * u * u)
                }
                #expect(Self.strokes(Self.drag(path, seed: UInt64(degrees))).isEmpty, "\(length) mm, bend \(bend)")
            }
        }
    }

    @Test("a drag there and back along a line is no stroke", arguments: Array(stride(from: 0.0, to: 360, by: 45)))
    func scrollThereAndBackIsNoStroke(degrees: Double) {
        for drift in [0.0, 0.1, 0.2] {
            for back in [0.5, 1.0] {
                let direction = Point(x: cos(degrees * .pi / 180), y: sin(degrees * .pi / 180))
                let side = Point(x: -direction.y, y: direction.x)
                let there = (0...20).map { Point(x: 100, y: 60) + direction * (2.0 * Double($0)) }
                let turn = there.last!
                let home = (1...20).map { turn - direction * (2.0 * back * Double($0)) + side * (2.0 * drift * Double($0)) }
                #expect(Self.strokes(Self.drag(there + home)).isEmpty, "drift \(drift), back \(back)")
            }
        }
    }

    @Test("a finger trembling in place, however long its path, is no stroke")
    func tremblingIsNoStroke() {
        // 2 s of a finger wandering within 3 mm: a path of tens of millimetres.
        let path = (0...200).map { k in Point(x: 100 + 1.5 * sin(Double(k) * 1.7), y: 60 + 1.5 * cos(Double(k) * 2.3)) }
        #expect(Self.strokes(Self.drag(path, duration: 2, jitter: 0.3)).isEmpty)
    }

    @Test("a shape that matches two templates about as well does not fire")
    func ambiguousShapeDoesNotFire() throws {
        // Among generated zigzags, those that fire with the margin off but
        // not with it are the ones whose best two names score within the margin.
        var noMargin = GestureEngine.Configuration()
        noMargin.strokeMinimumMargin = 0
        let recognizer = UnistrokeRecognizer(library: .dollarShapes)
        var held = 0
        for height in stride(from: 20.0, through: 80, by: 10) {
            for width in stride(from: 20.0, through: 80, by: 10) {
                for tail in [0.3, 0.6, 0.9] {
                    let path = [
                        Point(x: 60, y: 40), Point(x: 60 + width * 0.5, y: 40 + height),
                        Point(x: 60 + width, y: 40), Point(x: 60 + width * (1 - tail * 0.5), y: 40 + height * tail),
                    ]
                    let frames = Self.drag(path, jitter: 0)
                    let loose = run(frames, on: SyntheticTouch.screen, configuration: noMargin, templates: .dollarShapes)
                        .events.filter { $0.type == .stroke }
                    let strict = Self.strokes(frames)
                    if strict.isEmpty && !loose.isEmpty {
                        held += 1
                        let scores = recognizer.scores(for: path)
                        let best = try #require(scores.first)
                        let other = try #require(scores.first { $0.name != best.name })
                        #expect(best.score - other.score < 0.08, "\(best.name) \(best.score) vs \(other.name) \(other.score)")
                    } else {
                        #expect(strict.map(\.template) == loose.map(\.template))
                    }
                }
            }
        }
        #expect(held > 0, "no generated shape was ambiguous")
    }
}
