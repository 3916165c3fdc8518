import Foundation
import GestureRecognition
import Testing

@testable import GestureTraces

/// The engine's rules for firing a stroke (see `strokeMinimumMargin`,
/// `strokeMinimumWidthRatio` and the prompt start in Docs/GestureEngine.md),
/// measured on the real strokes of the $1 study drawn on a touchscreen.
@Suite(
    "Strokes the engine fires on the $1 study's real strokes",
    .enabled(if: SharedRecordings.dollarLogs != nil, "needs ../shared/data/dollar1/xml_logs"))
struct StrokeFiringMeasurementTests {
    /// A logged stroke as one finger on a touchscreen: its points (pixels of
    /// a tablet screen, about 0.26 mm each) at their logged times.
    static func frames(_ log: DollarGestureLog) -> [GestureFrame] {
        let start = log.times.first ?? 0
        var frames = zip(log.points, log.times).map { point, time in
            GestureFrame(
                time: .microseconds(Int64((time - start) * 1000)),
                contacts: [.init(id: 1, position: Point(x: point.x * 0.26, y: point.y * 0.26))])
        }
        frames.append(GestureFrame(time: .microseconds(Int64(((log.times.last ?? 0) - start + 10) * 1000)), contacts: []))
        return frames
    }

    struct Tally { var strokes = 0, fired = 0, correct = 0 }

    static func tally(_ configuration: GestureEngine.Configuration) throws -> Tally {
        let surface = GestureSurface(kind: .touchscreen, widthMillimeters: 250, heightMillimeters: 150)
        var tally = Tally()
        for (_, log) in try DollarGestureLog.logs(under: SharedRecordings.dollarLogs!) {
            var engine = GestureEngine(surface: surface, configuration: configuration, templates: .dollarShapes)
            var events: [GestureEvent] = []
            for frame in frames(log) { events += engine.process(frame) }
            events += engine.finish()
            tally.strokes += 1
            if let stroke = events.first(where: { $0.type == .stroke }) {
                tally.fired += 1
                if stroke.template == log.gestureName { tally.correct += 1 }
            }
        }
        return tally
    }

    @Test("most real strokes fire, and fire as what was drawn")
    func realStrokesFire() throws {
        let tally = try Self.tally(GestureEngine.Configuration())
        // Measured: 2,283 of the 2,400 fire (95.1 %), 5 of them as another
        // shape (0.2 %). With one template per shape, a width ratio of 0.25
        // and a margin of 0.05 in score: 1,897 (79 %), 35 of them wrongly (1.8 %).
        #expect(tally.strokes == 2400)
        #expect(Double(tally.correct) >= 0.93 * Double(tally.strokes), "\(tally)")
        #expect(Double(tally.fired - tally.correct) <= 0.01 * Double(tally.fired), "\(tally)")
    }

    /// What `gestures recognize --no-config` says of each log: the engine's
    /// stroke rule judging the logged points (pixels, taken as millimetres)
    /// against the bundled library.
    static func verdicts() throws -> [(name: String, verdict: StrokeVerdict)] {
        let configuration = GestureEngine.Configuration()
        let recognizer = UnistrokeRecognizer(library: .dollarShapes, configuration: configuration.strokeRecognition)
        return try DollarGestureLog.logs(under: SharedRecordings.dollarLogs!).map { _, log in
            (log.gestureName, configuration.strokeRule.judge(log.points, with: recognizer))
        }
    }

    @Test("the bundled library fires at least 97 % of the study's strokes as what was drawn, by the daemon's rule")
    func bundledLibraryFiresWhatWasDrawn() throws {
        let verdicts = try Self.verdicts()
        let right = verdicts.filter { $0.verdict.acceptedMatch?.name == $0.name }.count
        let wrong = verdicts.filter { $0.verdict.isAccepted }.count - right
        var missed: [String: Int] = [:]
        for (name, verdict) in verdicts where verdict.acceptedMatch?.name != name { missed[name, default: 0] += 1 }
        // Measured: 2,352 of the 2,400 (98.0 %), 5 fired as another name
        // (with one template per shape, a width ratio of 0.25 and a margin
        // of 0.05 in score: 1,917, 79.9 %). The floor is the figure reached,
        // rounded down to a multiple of 10: 98 % less a stroke or two.
        #expect(verdicts.count == 2400)
        #expect(right >= 2350, "\(right) right, \(wrong) wrong; unfired or wrong by shape: \(missed.sorted { $0.key < $1.key })")
        #expect(wrong <= 12, "\(wrong) fired as another name")
        // No shape is left behind: each of the 16 fires at least 90 % of its 150.
        for (name, count) in missed { #expect(count <= 15, "\(name): \(count) of 150 missed") }
    }
}
