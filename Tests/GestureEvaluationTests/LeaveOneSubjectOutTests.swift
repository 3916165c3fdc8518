import Foundation
import GestureEvaluation
import GestureRecognition
import TestSupport
import Testing

@Suite("LeaveOneSubjectOut")
struct LeaveOneSubjectOutTests {
    /// A circle of radius 40, 60 points, shifted by `offset`.
    static func circle(_ offset: Double) -> [Point] {
        (0..<60).map { k in
            let angle = Double(k) / 59 * 2 * .pi
            return Point(x: 100 + offset + 40 * cos(angle), y: 100 + 40 * sin(angle))
        }
    }

    /// A caret 80 wide and 80 tall, shifted by `offset`.
    static func caret(_ offset: Double) -> [Point] {
        (0...40).map { k in
            let t = Double(k) / 40
            return Point(x: offset + 80 * t, y: 80 * abs(2 * t - 1))
        }
    }

    /// A square 80 on a side drawn anticlockwise from its top left, shifted by `offset`.
    static func square(_ offset: Double) -> [Point] {
        let corners = [(0.0, 0.0), (0, 80), (80, 80), (80, 0), (0, 0)]
        return (0..<4).flatMap { side in
            (0..<10).map { k in
                let t = Double(k) / 10, (x0, y0) = corners[side], (x1, y1) = corners[side + 1]
                return Point(x: offset + x0 + t * (x1 - x0), y: y0 + t * (y1 - y0))
            }
        } + [Point(x: offset, y: 0)]
    }

    /// Subjects a and b draw circles and carets; c draws circles and squares,
    /// which nobody else draws, so a library built without c cannot name them.
    static func samples() -> [UnistrokeEvaluation.Sample] {
        var samples: [UnistrokeEvaluation.Sample] = []
        for subject in ["a", "b", "c"] {
            for k in 0..<3 {
                samples.append(.init(gesture: "circle", subject: subject, speed: "m", points: circle(Double(k))))
                samples.append(
                    subject == "c"
                        ? .init(gesture: "square", subject: subject, speed: "m", points: square(Double(k)))
                        : .init(gesture: "caret", subject: subject, speed: "m", points: caret(Double(k))))
            }
        }
        return samples
    }

    /// A library of every training stroke, and who the builder was given.
    final class Builds: @unchecked Sendable {
        let lock = NSLock()
        var subjects: [Set<String>] = []
        func record(_ training: [UnistrokeEvaluation.Sample]) {
            lock.withLock { subjects.append(Set(training.map(\.subject))) }
        }
    }

    static func built(_ builds: Builds) -> LeaveOneSubjectOut.LibrarySource {
        .built { training in
            builds.record(training)
            var library = TemplateLibrary()
            for sample in training { try? library.add(name: sample.gesture, points: sample.points) }
            return library
        }
    }

    @Test("every subject is held out once, and its fold's library is built from the others only")
    func everySubjectIsHeldOutFromItsLibrary() {
        let builds = Builds()
        let report = LeaveOneSubjectOut(samples: Self.samples(), library: Self.built(builds)).run()
        #expect(report.folds.map(\.subject) == ["a", "b", "c"])
        #expect(report.isHeldOut)
        for fold in report.folds {
            #expect(fold.tally.strokes == 6)
            #expect(!fold.trainingSubjects.contains(fold.subject))
            #expect(Set(fold.trainingSubjects).count == 2)
        }
        // One build per fold without its subject, then the whole set.
        #expect(builds.subjects == [["b", "c"], ["a", "c"], ["a", "b"], ["a", "b", "c"]])
        #expect(report.wholeSet.strokes == 18)
        #expect(report.heldOut.strokes == 18)
    }

    @Test("a gesture only the held-out subject draws is never right in its fold, and right on the whole set")
    func aGestureNobodyElseDrewIsMissedWhenHeldOut() {
        let report = LeaveOneSubjectOut(samples: Self.samples(), library: Self.built(Builds())).run()
        let c = report.folds.first { $0.subject == "c" }!
        // c's three circles are right; its three squares cannot be: no other subject drew one.
        #expect(c.tally.bestRight == 3)
        #expect(c.tally.firedRight <= 3)
        // Every other fold's strokes are in its library; on the whole set the squares are too.
        #expect(report.folds.filter { $0.subject != "c" }.allSatisfy { $0.tally.bestRight == 6 })
        #expect(report.heldOut.bestRight == 15)
        #expect(report.wholeSet.bestRight == 18)
    }

    @Test("a fixed library is the same in every fold and says it was not held out")
    func fixedLibraryIsNotHeldOut() {
        var library = TemplateLibrary()
        try? library.add(name: "circle", points: Self.circle(0))
        try? library.add(name: "caret", points: Self.caret(0))
        let report = LeaveOneSubjectOut(samples: Self.samples(), library: .fixed(library)).run()
        #expect(!report.isHeldOut)
        #expect(report.folds.allSatisfy { $0.trainingSubjects.isEmpty })
        #expect(report.heldOut == report.wholeSet)
    }

    @Test(
        "on the shared $1 subjects every subject is held out: the bundled library per subject and cross-user with one template",
        .enabled(if: SharedData.dollarLogs != nil, "needs ../shared/data/dollar1/xml_logs"))
    func sharedSubjectsAreEachHeldOut() throws {
        let samples = try UnistrokeEvaluation.samples(under: SharedData.dollarLogs!)
        let subjects = Set(samples.map(\.subject))
        #expect(samples.count == 2400)
        #expect(subjects.count == 5)
        let report = LeaveOneSubjectOut(samples: samples, library: .fixed(.dollarShapes)).run()
        #expect(Set(report.folds.map(\.subject)) == subjects)
        #expect(report.folds.allSatisfy { $0.tally.strokes == 480 })
        #expect(report.wholeSet.strokes == 2400)
        // The bundled library is generated, not built from strokes: nothing is held out of it.
        #expect(!report.isHeldOut)
        #expect(report.heldOut == report.wholeSet)

        let iterations = 3
        let crossUser = UnistrokeEvaluation(samples: samples, configuration: .init(), protocol: .leaveOneSubjectOut)
            .run(templatesPerGesture: 1, iterations: iterations, seed: 1)
        #expect(Set(crossUser.byGroup.keys) == subjects)
        #expect(crossUser.byGroup.values.allSatisfy { $0.recognitions == iterations * 16 })
        #expect(crossUser.byGroup.values.map(\.recognitions).reduce(0, +) == crossUser.recognitions)
        #expect(crossUser.byGroup.values.map(\.correct).reduce(0, +) == crossUser.correct)
    }
}
