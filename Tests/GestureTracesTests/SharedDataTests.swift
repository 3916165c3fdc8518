import Foundation
import TestSupport
import Testing

/// The one switch that hides the shared data from every test (`GESTURES_SHARED_DATA=none`),
/// and where the data is found otherwise.
@Suite("SharedData: where the tests find ../shared/data")
struct SharedDataTests {
    /// A repository folder with, when asked, a `shared/data` folder beside it.
    static func layout(withSharedData: Bool) throws -> (repository: URL, data: URL) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("shared-data-\(UUID().uuidString)")
        let repository = base.appendingPathComponent("gestures")
        let data = base.appendingPathComponent("shared/data")
        try FileManager.default.createDirectory(at: repository, withIntermediateDirectories: true)
        if withSharedData { try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true) }
        return (repository, data)
    }

    @Test("none hides the data even when it is beside the repository")
    func noneHidesIt() throws {
        let (repository, _) = try Self.layout(withSharedData: true)
        defer { try? FileManager.default.removeItem(at: repository.deletingLastPathComponent()) }
        #expect(SharedData.locate(environment: ["GESTURES_SHARED_DATA": "none"], repositoryRoot: repository) == .hidden)
    }

    @Test("without the variable, ../shared/data beside the repository is found")
    func besideTheRepository() throws {
        let (repository, data) = try Self.layout(withSharedData: true)
        defer { try? FileManager.default.removeItem(at: repository.deletingLastPathComponent()) }
        #expect(
            SharedData.locate(environment: [:], repositoryRoot: repository).url?.standardizedFileURL.path == data.standardizedFileURL.path)
        #expect(SharedData.locate(environment: ["GESTURES_SHARED_DATA": ""], repositoryRoot: repository).url != nil)
    }

    @Test("a fresh clone, with nothing beside it, has none, and says where it looked")
    func freshClone() throws {
        let (repository, data) = try Self.layout(withSharedData: false)
        defer { try? FileManager.default.removeItem(at: repository.deletingLastPathComponent()) }
        let location = SharedData.locate(environment: [:], repositoryRoot: repository)
        #expect(location.url == nil)
        #expect(location.description.contains(data.path))
    }

    @Test("GESTURES_SHARED_DATA=DIR reads DIR, and a missing DIR is absent, not an error")
    func elsewhere() throws {
        let (repository, data) = try Self.layout(withSharedData: true)
        defer { try? FileManager.default.removeItem(at: repository.deletingLastPathComponent()) }
        let nowhere = repository.appendingPathComponent("nowhere").path
        #expect(
            SharedData.locate(environment: ["GESTURES_SHARED_DATA": data.path], repositoryRoot: URL(fileURLWithPath: "/")).url?.path
                == data.path)
        #expect(
            SharedData.locate(environment: ["GESTURES_SHARED_DATA": nowhere], repositoryRoot: repository)
                == .absent(URL(fileURLWithPath: nowhere, isDirectory: true)))
    }

    @Test(
        "when this run hides the data, every accessor the tests use is nil",
        .enabled(
            if: ProcessInfo.processInfo.environment["GESTURES_SHARED_DATA"] == SharedData.hiddenValue, "only with GESTURES_SHARED_DATA=none"
        ))
    func hiddenRunSeesNothing() {
        #expect(SharedData.location == .hidden)
        #expect(SharedData.directory == nil)
        #expect(SharedData.dollarLogs == nil)
        #expect(SharedData.recordings == nil)
    }
}
