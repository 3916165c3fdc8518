import Foundation
import GestureBenchmarks
import Testing

/// The counting itself needs the library preloaded, which this test process
/// is not: `BenchCommandTests` checks the counts through the built tool,
/// which preloads it into itself.
@Suite struct AllocationCounterTests {
    @Test func withoutTheLibraryTheBodyRunsAndNothingIsCounted() throws {
        try #require(!AllocationCounter.isAvailable, "this test process has the counting library preloaded")
        let counted = AllocationCounter.counting { (0..<100).map { $0 * 3 } }
        #expect(counted.result == (0..<100).map { $0 * 3 })
        #expect(counted.count == nil)
    }

    @Test func theLibraryIsFoundBesideTheExecutable() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gestures-counter-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let executable = folder.appendingPathComponent("gestures")
        #expect(AllocationCounter.library(besideExecutable: executable) == nil)
        let library = folder.appendingPathComponent(AllocationCounter.libraryName)
        try Data().write(to: library)
        #expect(AllocationCounter.library(besideExecutable: executable) == library)
    }
}
