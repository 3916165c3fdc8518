import Foundation
import Testing

/// `gestures bench` end to end: a short run gives every section, in JSON a
/// program can read, with progress on standard error. Figures are checked
/// for being measured (finite, positive), never for their size.
@Suite struct BenchCommandTests {
    @Test func aQuickRunReportsEverySectionInJSON() throws {
        let run = try ToolRunner.run(["bench", "--quick", "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("bench: ") }, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(report["format"] as? String == "gestures-bench")
        #expect(report["quick"] as? Bool == true)

        let pipeline = try #require(report["pipeline"] as? [String: Any])
        #expect(pipeline["frames"] as? Int == 20_000)
        for stage in ["read_and_sum", "decoder", "decoder_and_engine"] {
            let figures = try #require(pipeline[stage] as? [String: Any], "\(stage)")
            #expect((figures["events_per_second"] as? Double ?? 0) > 0, "\(stage)")
            #expect((figures["frames_per_second"] as? Double ?? 0) > 0, "\(stage)")
            #expect(figures["allocations_per_frame"] is Double, "\(stage): counted (the tool preloads the counting library)")
        }
        if report["build"] as? String == "release" {
            // Optimised, the loops allocate nothing per frame once running; a frame of a
            // gesture allocates nothing either, so only the frames where touches start and end
            // may (a debug build allocates where the optimiser would not, even in the counting
            // loop: `swift test -c release` checks these).
            for stage in ["read_and_sum", "decoder"] {
                #expect((pipeline[stage] as? [String: Any])?["allocations_per_frame"] as? Double == 0, "\(stage)")
            }
            let engine = try #require(pipeline["decoder_and_engine"] as? [String: Any])
            let allocating = try #require(engine["allocating_frames"] as? Int)
            #expect(allocating * 10 < (pipeline["frames"] as? Int ?? 0), "\(allocating) frames allocated")
        }

        let traces = try #require(report["traces"] as? [[String: Any]])
        #expect(traces.compactMap { $0["format"] as? String } == ["json", "json-streamed", "evemu", "libinput"])
        for row in traces {
            for key in ["write_mb_per_second", "write_baseline_mb_per_second", "read_mb_per_second", "read_baseline_mb_per_second"] {
                #expect((row[key] as? Double ?? 0) > 0, "\(row["format"] ?? ""): \(key)")
            }
        }

        let recognition = try #require(report["recognition"] as? [[String: Any]])
        #expect(recognition.compactMap { $0["templates"] as? Int } == [16, 160, 1600, 16, 160, 1600, 16, 160, 1600])
        #expect(Set(recognition.compactMap { $0["matcher"] as? String }) == ["dollar1", "protractor", "elastic"])
        #expect(recognition.allSatisfy { ($0["microseconds"] as? Double ?? 0) > 0 && ($0["resample_microseconds"] as? Double ?? 0) > 0 })

        let memory = try #require(report["memory"] as? [String: Any])
        #expect((memory["bytes"] as? Int ?? 0) >= 4_000_000)
        #expect((memory["peak_while_replaying_bytes"] as? Int ?? 0) > 0)

        let delays = try #require(report["begin_delay"] as? [[String: Any]])
        #expect(delays.compactMap { $0["type"] as? String } == ["swipe", "pinch"])

        let forwarding = try #require(report["forwarding"] as? [String: Any])
        #expect(forwarding["frames"] as? Int == 2_000)
        let stages = try ["copy", "intercepted_device", "loop"].map { try #require(forwarding[$0] as? [String: Any], "\($0)") }
        #expect(stages.allSatisfy { ($0["nanoseconds_per_frame"] as? Double ?? 0) > 0 })
        // One-finger motion is never claimed: the loop writes every event the session alone does.
        #expect((stages[2]["output"] as? Int ?? 0) > 0 && stages[2]["output"] as? Int == stages[1]["output"] as? Int)
    }

    @Test func theTableNamesEachBaseline() throws {
        let run = try ToolRunner.run([
            "bench", "--quick", "--only", "pipeline", "--only", "traces", "--frames", "2000", "--trace-frames", "200",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("read and sum (the limit)"))
        #expect(run.stdout.contains("decoder + engine"))
        #expect(run.stdout.contains("read + split lines"))
        #expect(!run.stdout.contains("Recognition"), "--only runs only the sections named")
    }

    @Test(
        "sizes that would exhaust memory or disk are refused before anything runs",
        arguments: [["--frames", "10000001"], ["--trace-frames", "1000001"], ["--trace-size", "100001"], ["--passes", "0"]])
    func outOfRangeSizesAreRefused(option: [String]) throws {
        let run = try ToolRunner.run(["bench", "--only", "pipeline"] + option)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains(option[0]), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }
}
