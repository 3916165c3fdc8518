import GestureBenchmarks
import GestureRecognition
import Testing

@Suite struct RecognitionBenchmarkTests {
    @Test func generatedStrokesGoRoundTheShapes() {
        let strokes = RecognitionBenchmark.generatedStrokes(perShape: 2)
        let names = TemplateLibrary.dollarShapes.names
        #expect(strokes.map(\.name) == names + names)
        #expect(strokes.allSatisfy { (30..<120).contains($0.points.count) })
        #expect(RecognitionBenchmark.generatedStrokes(perShape: 2).map(\.points) == strokes.map(\.points), "seeded")
    }

    @Test func everyMatcherIsTimedAtEverySize() {
        let rows = RecognitionBenchmark.run(librarySizes: [16, 32], candidates: 32, passes: 1)
        #expect(rows.map(\.matcher) == [.dollar1, .dollar1, .protractor, .protractor, .elastic, .elastic])
        #expect(rows.map(\.templates) == [16, 32, 16, 32, 16, 32])
        for row in rows {
            #expect(row.recognitions == 32)
            #expect(row.microsecondsPerRecognition > 0 && row.resampleMicroseconds > 0)
            // Generated strokes stay close to their shapes: most are recognised.
            #expect(row.accuracy >= 0.75, "\(row.matcher) with \(row.templates) templates: \(row.accuracy)")
        }
    }
}
