import Foundation
import GestureTraces
import Testing

@Suite("whole-trace reads stay small: 32 MiB of JSON or evemu, 16 MiB of libinput record YAML; streaming keeps 4 GiB")
struct WholeTraceLimitsTests {
    /// A JSON trace of `bytes` or a little more: one device, frames of one event.
    static func jsonTrace(atLeast bytes: Int) -> Data {
        var text =
            #"{"format":"gestures-trace","version":1,"devices":[{"name":"pad","id":[3,1,1,1],"codes":{"0":[0],"3":[0]},"absinfo":{"0":[0,1000,0,0,10]}}]}"#
        text += "\n"
        var frames = 0
        var data = Data(text.utf8)
        let frame = Data(#"{"d":0,"t":1000,"e":[[3,0,500],[0,0,0]]}"#.utf8 + [0x0A])
        data.reserveCapacity(bytes + 64)
        while data.count < bytes {
            data.append(frame)
            frames += 1
        }
        data.append(Data("{\"end\":{\"frames\":\(frames),\"events\":\(2 * frames)}}\n".utf8))
        return data
    }

    @Test("a JSON trace just over 32 MiB is refused whole, with the size and the limit, and streams")
    func jsonOverTheWholeLimit() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("whole-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("big.jsonl")
        let data = Self.jsonTrace(atLeast: (32 << 20) + 1)
        try data.write(to: url)
        do {
            _ = try Trace.load(contentsOf: url)
            Issue.record("a trace over the whole-read limit was read whole")
        } catch let error as TraceError {
            #expect("\(error)".contains("over the limit of 33554432 bytes (32 MiB)"), "\(error)")
            #expect("\(error)".contains(url.path), "\(error)")
        }
        // Streamed, the same file reads to its end.
        let reader = try TraceReader(contentsOf: url)
        var frames = 0
        while try reader.nextFrame() != nil { frames += 1 }
        #expect(frames > 800_000)
        // And under the limit it is read whole.
        let smaller = directory.appendingPathComponent("small.jsonl")
        try Self.jsonTrace(atLeast: 1 << 20).write(to: smaller)
        #expect(try Trace.load(contentsOf: smaller).frames.count > 20_000)
    }

    @Test("libinput record YAML over 16 MiB is refused before it is parsed")
    func yamlOverItsLimit() throws {
        var text = "version: 1\nndevices: 1\nlibinput:\n  version: \"1.25.0\"\n"
        let filler = "# " + String(repeating: "x", count: 1000) + "\n"
        while text.utf8.count <= 16 << 20 { text += filler }
        do {
            _ = try Trace.decode(Data(text.utf8), format: .libinput)
            Issue.record("accepted")
        } catch let error as TraceError {
            #expect("\(error)".contains("over the limit of 16777216 bytes (16 MiB)"), "\(error)")
        }
        #expect(TraceReader.Limits.wholeTrace.maximumFileBytes == 32 << 20)
        #expect(TraceReader.Limits().maximumFileBytes == 4 << 30, "the streaming reader keeps its 4 GiB")
    }
}
