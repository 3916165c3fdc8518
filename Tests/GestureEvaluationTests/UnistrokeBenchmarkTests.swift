import GestureEvaluation
import Testing

@Suite("UnistrokeBenchmark")
struct UnistrokeBenchmarkTests {
    @Test("libraries of each size are drawn evenly from every gesture, and the rest are the candidates")
    func librariesAndCandidates() {
        let samples = UnistrokeBenchmark.generatedSamples(perGesture: 6)
        #expect(samples.count == 96)
        #expect(Set(samples.map(\.gesture)).count == 16)
        let rows = UnistrokeBenchmark.measure(samples: samples, matcher: .protractor, librarySizes: [16, 48, 1600],
                                              maximumCandidates: 40, passes: 1)
        // 1,600 asks for 100 of each gesture: 5 of 6 is the most that leaves a candidate.
        #expect(rows.map(\.templates) == [16, 48, 80])
        // Every k-th of the rest, for at most 40: 80 -> 40, 48 -> 24, 16 -> 16.
        #expect(rows.map(\.recognitions) == [40, 24, 16])
        for row in rows {
            #expect(row.matcher == .protractor)
            #expect(row.meanMicroseconds > 0 && row.normalizeMicroseconds > 0)
            // Jittered copies of one shape: nearly every candidate is recognised.
            #expect(row.accuracy > 0.9, "\(row)")
        }
    }
}
