import Foundation
import GestureBenchmarks
import GestureRecognition
import InputChecks

extension BenchCommand {
    /// The figures of one `gestures bench` run, and their two printed forms: a
    /// readable table per section, and one JSON document.
    struct Report {
        var machine: BenchmarkMachine
        var quick: Bool
        var passes: Int
        var pipeline: PipelineBenchmark.Result?
        var traces: [TraceFormatBenchmark.Row]?
        var recognition: [RecognitionBenchmark.Row]?
        var memory: StreamingMemoryBenchmark.Result?
        var beginDelay: [BeginDelayBenchmark.Summary]?
        var forwarding: ForwardingBenchmark.Result?

        static var isReleaseBuild: Bool {
            #if DEBUG
                false
            #else
                true
            #endif
        }

        // MARK: text

        var text: String {
            var lines: [String] = []
            lines.append(
                "Machine: \(machine.processor), \(machine.cores) cores, \(machine.memoryBytes >> 30) GiB; "
                    + "\(Self.isReleaseBuild ? "release" : "DEBUG") build; fastest of \(passes) pass\(passes == 1 ? "" : "es")"
                    + (quick ? "; --quick (rough figures)" : ""))
            if let pipeline {
                lines.append("")
                lines.append(
                    "Kernel events to gestures: \(grouped(pipeline.frames)) generated frames of mixed gestures "
                        + "(\(grouped(pipeline.events)) events) on \(pipeline.deviceName)")
                lines += table(
                    ["", "M events/s", "M frames/s", "of the limit", "ns/frame", "allocations/frame", "bytes/frame", "allocating frames"],
                    [
                        ("read and sum (the limit)", pipeline.readAndSum), ("decoder", pipeline.decoder),
                        ("decoder + engine", pipeline.decoderAndEngine),
                    ].map { name, stage in
                        [
                            name, fixed(stage.eventsPerSecond / 1e6, 1), fixed(stage.framesPerSecond / 1e6, 2),
                            percent(stage.eventsPerSecond / pipeline.readAndSum.eventsPerSecond),
                            fixed(1e9 / stage.framesPerSecond, 0),
                            stage.allocationsPerFrame.map { fixed($0, 3) } ?? "n/a",
                            stage.allocatedBytesPerFrame.map { fixed($0, 1) } ?? "n/a",
                            stage.allocatingFrames.map { percent(Double($0) / Double(pipeline.countedFrames)) } ?? "n/a",
                        ]
                    })
            }
            if let traces {
                lines.append("")
                lines.append("Trace formats: \(grouped(traces.first?.events ?? 0)) events written and read back, MB/s")
                lines += table(
                    ["format", "MB", "write", "write bytes only", "share", "read", "read + split lines", "share"],
                    traces.map { row in
                        [
                            row.way.rawValue, fixed(Double(row.bytes) / 1e6, 1),
                            fixed(row.writeMegabytesPerSecond, 0), fixed(row.writeBaselineMegabytesPerSecond, 0),
                            percent(row.writeMegabytesPerSecond / row.writeBaselineMegabytesPerSecond),
                            fixed(row.readMegabytesPerSecond, 0), fixed(row.readBaselineMegabytesPerSecond, 0),
                            percent(row.readMegabytesPerSecond / row.readBaselineMegabytesPerSecond),
                        ]
                    })
            }
            if let recognition {
                lines.append("")
                lines.append(
                    "Recognition: one recognize call, generated strokes of the 16 $1 shapes, "
                        + "\(recognition.first?.recognitions ?? 0) candidates")
                lines += table(
                    ["matcher", "templates", "µs/recognition", "µs resample only", "ratio", "accuracy"],
                    recognition.map { row in
                        [
                            row.matcher.rawValue, grouped(row.templates), fixed(row.microsecondsPerRecognition, 1),
                            fixed(row.resampleMicroseconds, 2), fixed(row.microsecondsPerRecognition / row.resampleMicroseconds, 0) + "x",
                            percent(row.accuracy),
                        ]
                    })
            }
            if let memory {
                lines.append("")
                lines.append("Memory: a \(fixed(Double(memory.bytes) / 1e6, 0)) MB JSON trace (\(grouped(memory.events)) events), streamed")
                lines += table(
                    ["", "seconds", "MB/s", "peak resident MB"],
                    [
                        ["resident before", "", "", megabytes(memory.residentBeforeBytes)],
                        [
                            "generate and write", fixed(memory.writeSeconds, 1), fixed(Double(memory.bytes) / 1e6 / memory.writeSeconds, 0),
                            megabytes(memory.peakWhileWritingBytes),
                        ],
                        [
                            "read, decode, recognise", fixed(memory.replaySeconds, 1),
                            fixed(Double(memory.bytes) / 1e6 / memory.replaySeconds, 0),
                            megabytes(memory.peakWhileReplayingBytes),
                        ],
                    ])
                if !memory.peaksArePerStep { lines.append("(the kernel could not reset the peak: both peaks are the process's so far)") }
            }
            if let beginDelay {
                lines.append("")
                lines.append("Begin delay: frames from the fingers passing the threshold to the begin event")
                lines += table(
                    ["gesture", "begins", "mean frames", "mean ms", "max frames", "frames:count"],
                    beginDelay.map { summary in
                        [
                            summary.type.rawValue, String(summary.begins), fixed(summary.meanFrames, 2), fixed(summary.meanMilliseconds, 1),
                            String(summary.maximumFrames),
                            summary.histogram.keys.sorted().map { "\($0):\(summary.histogram[$0]!)" }.joined(separator: " "),
                        ]
                    })
            }
            if let forwarding {
                lines.append("")
                lines.append(
                    "Forwarding: \(grouped(forwarding.frames)) frames of one-finger motion on \(forwarding.deviceName), read to clone write, "
                        + "3-finger swipes claimed")
                lines += table(
                    ["", "ns/frame", "ns before the write", "allocations/frame"],
                    [
                        ("copy to the writer (a forwarder)", forwarding.copy), ("InterceptedDevice", forwarding.device),
                        ("DeviceLoop (the daemon)", forwarding.loop),
                    ].map { name, stage in
                        [
                            name, fixed(stage.nanosecondsPerFrame, 0), stage.nanosecondsBeforeWrite.map { fixed($0, 0) } ?? "n/a",
                            stage.allocationsPerFrame.map { fixed($0, 2) } ?? "n/a",
                        ]
                    })
            }
            return lines.joined(separator: "\n")
        }

        /// Rows under a header, each column as wide as its widest cell; the first left-aligned, the others right.
        private func table(_ header: [String], _ rows: [[String]]) -> [String] {
            let all = [header] + rows
            let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
            return all.map { row in
                row.indices.map { column in
                    let padding = String(repeating: " ", count: widths[column] - row[column].count)
                    return column == 0 ? row[column] + padding : padding + row[column]
                }.joined(separator: "  ")
            }
        }

        private func fixed(_ value: Double, _ decimals: Int) -> String {
            value.isFinite ? String(format: "%.\(decimals)f", value) : "n/a"
        }

        private func percent(_ fraction: Double) -> String {
            guard fraction.isFinite else { return "n/a" }
            return fraction < 0.1 ? String(format: "%.1f %%", fraction * 100) : String(format: "%.0f %%", fraction * 100)
        }

        private func grouped(_ value: Int) -> String {
            let digits = String(value)
            var result = ""
            for (index, digit) in digits.enumerated() {
                if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
                result.append(digit)
            }
            return result
        }

        private func megabytes(_ bytes: Int?) -> String {
            bytes.map { fixed(Double($0) / 1e6, 1) } ?? "n/a"
        }

        // MARK: JSON

        var json: String {
            var fields: [String] = [
                "\"format\":\"gestures-bench\"", "\"version\":1",
                "\"machine\":{\"processor\":\(JSONText.quoted(machine.processor)),\"cores\":\(machine.cores),"
                    + "\"memory_bytes\":\(machine.memoryBytes),\"system\":\(JSONText.quoted(machine.system))}",
                "\"build\":\"\(Self.isReleaseBuild ? "release" : "debug")\"", "\"quick\":\(quick)", "\"passes\":\(passes)",
            ]
            if let pipeline {
                func stage(_ stage: PipelineBenchmark.Stage) -> String {
                    "{\"events_per_second\":\(number(stage.eventsPerSecond)),\"frames_per_second\":\(number(stage.framesPerSecond)),"
                        + "\"share_of_limit\":\(number(stage.eventsPerSecond / pipeline.readAndSum.eventsPerSecond)),"
                        + "\"allocations_per_frame\":\(optional(stage.allocationsPerFrame)),"
                        + "\"allocated_bytes_per_frame\":\(optional(stage.allocatedBytesPerFrame)),"
                        + "\"allocating_frames\":\(optional(stage.allocatingFrames)),\"output\":\(stage.output)}"
                }
                fields.append(
                    "\"pipeline\":{\"device\":\(JSONText.quoted(pipeline.deviceName)),\"events\":\(pipeline.events),"
                        + "\"frames\":\(pipeline.frames),\"read_and_sum\":\(stage(pipeline.readAndSum)),"
                        + "\"decoder\":\(stage(pipeline.decoder)),\"decoder_and_engine\":\(stage(pipeline.decoderAndEngine))}")
            }
            if let traces {
                let rows = traces.map { row in
                    "{\"format\":\"\(row.way.rawValue)\",\"bytes\":\(row.bytes),\"events\":\(row.events),"
                        + "\"write_mb_per_second\":\(number(row.writeMegabytesPerSecond)),"
                        + "\"write_baseline_mb_per_second\":\(number(row.writeBaselineMegabytesPerSecond)),"
                        + "\"read_mb_per_second\":\(number(row.readMegabytesPerSecond)),"
                        + "\"read_baseline_mb_per_second\":\(number(row.readBaselineMegabytesPerSecond))}"
                }
                fields.append("\"traces\":[\(rows.joined(separator: ","))]")
            }
            if let recognition {
                let rows = recognition.map { row in
                    "{\"matcher\":\"\(row.matcher.rawValue)\",\"templates\":\(row.templates),\"recognitions\":\(row.recognitions),"
                        + "\"microseconds\":\(number(row.microsecondsPerRecognition)),"
                        + "\"resample_microseconds\":\(number(row.resampleMicroseconds)),\"accuracy\":\(number(row.accuracy))}"
                }
                fields.append("\"recognition\":[\(rows.joined(separator: ","))]")
            }
            if let memory {
                fields.append(
                    "\"memory\":{\"bytes\":\(memory.bytes),\"frames\":\(memory.frames),\"events\":\(memory.events),"
                        + "\"gesture_events\":\(memory.gestureEvents),\"write_seconds\":\(number(memory.writeSeconds)),"
                        + "\"replay_seconds\":\(number(memory.replaySeconds)),"
                        + "\"resident_before_bytes\":\(optional(memory.residentBeforeBytes)),"
                        + "\"peak_while_writing_bytes\":\(optional(memory.peakWhileWritingBytes)),"
                        + "\"peak_while_replaying_bytes\":\(optional(memory.peakWhileReplayingBytes)),"
                        + "\"peaks_are_per_step\":\(memory.peaksArePerStep)}")
            }
            if let beginDelay {
                let rows = beginDelay.map { summary in
                    let histogram = summary.histogram.keys.sorted().map { "\"\($0)\":\(summary.histogram[$0]!)" }
                    return "{\"type\":\"\(summary.type.rawValue)\",\"begins\":\(summary.begins),"
                        + "\"mean_frames\":\(number(summary.meanFrames)),\"mean_milliseconds\":\(number(summary.meanMilliseconds)),"
                        + "\"maximum_frames\":\(summary.maximumFrames),\"histogram\":{\(histogram.joined(separator: ","))}}"
                }
                fields.append("\"begin_delay\":[\(rows.joined(separator: ","))]")
            }
            if let forwarding {
                func stage(_ stage: ForwardingBenchmark.Stage) -> String {
                    "{\"nanoseconds_per_frame\":\(number(stage.nanosecondsPerFrame)),"
                        + "\"nanoseconds_before_write\":\(optional(stage.nanosecondsBeforeWrite)),"
                        + "\"allocations_per_frame\":\(optional(stage.allocationsPerFrame)),\"output\":\(stage.output)}"
                }
                fields.append(
                    "\"forwarding\":{\"device\":\(JSONText.quoted(forwarding.deviceName)),\"frames\":\(forwarding.frames),"
                        + "\"copy\":\(stage(forwarding.copy)),\"intercepted_device\":\(stage(forwarding.device)),"
                        + "\"loop\":\(stage(forwarding.loop))}")
            }
            return "{" + fields.joined(separator: ",") + "}"
        }

        /// A JSON number with 6 significant digits, or null when not finite.
        private func number(_ value: Double) -> String {
            guard value.isFinite else { return "null" }
            return String(format: "%.6g", value)
        }

        private func optional(_ value: Double?) -> String { value.map(number) ?? "null" }
        private func optional(_ value: Int?) -> String { value.map(String.init) ?? "null" }
    }
}
