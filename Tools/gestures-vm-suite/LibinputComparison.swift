import EvdevInput
import Foundation
import GestureTraces
import TestSupport
import TouchInput

/// The side-by-side comparison with libinput (`Tools/compare-libinput`):
/// each labelled trace is played, with its recorded timing, into a virtual
/// device made from its own description, which `libinput debug-events
/// --enable-tap` and `gestures watch` both read; what each reported is
/// judged against the label (``RecordingLabel``, ``StackReport``) and
/// printed as a Markdown table, each line after the marker `VMCOMPARE `
/// (the console also carries the kernel's messages). A disagreement is a
/// finding, not a failure: only a trace that cannot be played is an error.
struct LibinputComparison {
    /// The synthetic traces' devices compared: a 2-slot Synaptics (fingers
    /// beyond two only in BTN_TOOL_*), the 5-slot RMI4 clickpad and the
    /// 16-slot Apple trackpad, whose traces are the noisy ones.
    static let syntheticDevices = ["x1carbon", "rmi4", "magic"]

    /// The synthetic traces in `directory` to compare: those of
    /// ``syntheticDevices`` with a label, by name.
    static func syntheticTraces(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { name in
                name.hasSuffix(".jsonl") && !name.hasSuffix(".expected.jsonl")
                    && syntheticDevices.contains(String(name.prefix { $0 != "." }))
                    && label(of: directory + "/" + name) != nil
            }
            .sorted()
    }

    /// The label of the trace at `path` (`RecordingLabel`, the grammar the
    /// tests read names with), or nil when it gives none to compare: a swipe
    /// must name its direction, since libinput's is compared with it.
    static func label(of path: String) -> RecordingLabel? {
        guard let label = RecordingLabel(fileAt: URL(fileURLWithPath: path)) else { return nil }
        if case .swipe(_, let directions) = label.expected, directions.isEmpty { return nil }
        return label
    }

    /// The time `gestures watch` and libinput may stay silent before a trace's output counts as complete.
    static let quiet: Int64 = 500_000 /* µs */

    /// One row of the table.
    struct Row {
        var trace: String
        var label: RecordingLabel
        var libinput: StackReport
        var libinputDelay: Int64?
        var gestures: StackReport
        var gesturesDelay: Int64?
        var note: String?
    }

    /// Compares every trace under `directory` (the synthetic `.jsonl` ones
    /// and the `.events` recordings) whose path contains `filter`; prints the
    /// table and returns 0, or 1 when a trace could not be played.
    ///
    /// Traces of the same device (the same description) are played one after
    /// another into one virtual device, read by one libinput and one watch,
    /// with a quiet time between them, as a user's gestures follow each
    /// other: starting both readers costs seconds under emulation.
    static func run(directory: String, filter: String?) -> Int32 {
        var paths: [String] = []
        let walker = FileManager.default.enumerator(atPath: directory)
        while let relative = walker?.nextObject() as? String {
            guard relative.hasSuffix(".jsonl") || relative.hasSuffix(".events") else { continue }
            if let filter, !relative.contains(filter) { continue }
            paths.append(directory + "/" + relative)
        }
        paths.sort()
        say("VMCOMPARE BEGIN \(paths.count) traces")
        var broken = 0
        var groups: [(device: DeviceDescription, traces: [(path: String, label: RecordingLabel, trace: Trace)])] = []
        for path in paths {
            guard let label = Self.label(of: path) else {
                say("VMCOMPARE INFO \(shortName(path)) has no label; skipped")
                continue
            }
            do {
                let trace = try Trace.load(contentsOf: URL(fileURLWithPath: path))
                guard trace.devices.count == 1, let device = trace.devices.first else {
                    throw CheckFailure("the trace describes \(trace.devices.count) devices; one is needed")
                }
                if let index = groups.firstIndex(where: { $0.device == device }) {
                    groups[index].traces.append((path, label, trace))
                } else {
                    groups.append((device, [(path, label, trace)]))
                }
            } catch {
                broken += 1
                say("VMCOMPARE ERROR \(shortName(path)): \(String(describing: error).replacingOccurrences(of: "\n", with: " "))")
            }
        }
        say("VMCOMPARE | Trace | Label | libinput 1.22 | ok | ms | gestures | ok | ms |")
        say("VMCOMPARE | --- | --- | --- | --- | --- | --- | --- | --- |")
        var rows: [Row] = []
        let started = VMSuite.nowMicroseconds()
        for group in groups {
            do {
                let session = try Session(group.device)
                defer { session.stop() }
                try session.warmUp(group.traces.map(\.trace).min { $0.durationMicroseconds < $1.durationMicroseconds }!)
                for (path, label, trace) in group.traces {
                    do {
                        let row = try session.compare(trace, named: shortName(path), label: label)
                        rows.append(row)
                        say("VMCOMPARE " + line(row))
                    } catch {
                        broken += 1
                        say("VMCOMPARE ERROR \(shortName(path)): \(String(describing: error).replacingOccurrences(of: "\n", with: " "))")
                    }
                }
            } catch {
                broken += group.traces.count
                say(
                    "VMCOMPARE ERROR \(group.device.name) (\(group.traces.count) traces): \(String(describing: error).replacingOccurrences(of: "\n", with: " "))"
                )
            }
        }
        for summaryLine in summary(rows) { say("VMCOMPARE " + summaryLine) }
        say(
            "VMCOMPARE DONE \(rows.count) compared, \(broken) could not be played, \((VMSuite.nowMicroseconds() - started) / 1_000_000) s in the VM"
        )
        return broken == 0 ? 0 : 1
    }

    /// The file name without the folders and the extension.
    static func shortName(_ path: String) -> String {
        let name = (path as NSString).lastPathComponent
        return name.hasSuffix(".jsonl") || name.hasSuffix(".events") ? (name as NSString).deletingPathExtension : name
    }

    /// One virtual device read by `libinput debug-events --enable-tap` and
    /// `gestures watch`, into which traces are played one after another.
    final class Session {
        let device: VirtualDevice
        let node: String
        let watch: VMChild
        let libinput: VMLibinput

        /// Creates the device, registers it as a touchpad or touchscreen for
        /// libinput, and starts both readers (waiting until both read it).
        init(_ info: DeviceDescription) throws {
            device = try VirtualDevice(info)
            do {
                guard let node = device.devnode else { throw CheckFailure("uinput gave no devnode") }
                self.node = node
                try VMLibinput.register(node, as: [info.kind == .touchscreen ? "touchscreen" : "touchpad"])
                watch = try VMChild(["watch", "--device", node])
                do {
                    libinput = try VMLibinput(node: node)
                    do {
                        try watch.waitUntil("gestures watch reading \(node)") { $0.isReading(node, after: 0) }
                    } catch {
                        _ = libinput.stop()
                        throw error
                    }
                } catch {
                    _ = watch.stop(SIGKILL)
                    throw error
                }
            } catch {
                device.destroy()
                throw error
            }
        }

        /// Stops both readers and destroys the device.
        func stop() {
            _ = libinput.stop()
            _ = watch.stop(SIGTERM)
            device.destroy()
        }

        /// Plays `trace` (the group's shortest) once without judging: both readers' first frames
        /// pay one-time costs (tens of ms under emulation) that could make the
        /// kernel drop events for a reader that fell behind.
        /// What watch warned about then (dropped events: its warning comes
        /// at most once in 10 s, so a later drop may go unsaid) is printed as INFO.
        func warmUp(_ trace: Trace) throws {
            let stderrSeen = watch.stderr.count
            _ = try LibinputComparison.play(trace, into: device)
            libinput.waitUntilQuiet(LibinputComparison.quiet)
            LibinputComparison.waitUntilQuiet(watch)
            for warning in watch.stderr.dropFirst(stderrSeen).split(separator: "\n") where !warning.contains("reading /") {
                say("VMCOMPARE INFO warm-up on \(node): watch: \(warning)")
            }
        }

        /// Plays `trace` and judges what each stack reported while it played
        /// and until both were quiet. A play where libinput says it handled
        /// events too late for its timers ("your system is too slow": the
        /// emulated CPU is shared by the writer, libinput and watch) says
        /// nothing about libinput; it is played again, up to three times.
        func compare(_ trace: Trace, named name: String, label: RecordingLabel) throws -> Row {
            let presses = trace.frames.contains { frame in
                frame.events.contains { $0.type == EV.KEY && [BTN.LEFT, BTN.RIGHT, BTN.MIDDLE].contains($0.code) && $0.value == 1 }
            }
            var attempt = 0
            while true {
                attempt += 1
                let libinputSeen = libinput.timedLines.count, watchSeen = watch.lines.count, stderrSeen = watch.stderr.count
                let (start, late) = try LibinputComparison.play(trace, into: device)
                libinput.waitUntilQuiet(LibinputComparison.quiet)
                LibinputComparison.waitUntilQuiet(watch)
                let libinputLines = Array(libinput.timedLines.dropFirst(libinputSeen))
                let tooSlow = libinputLines.contains { $0.line.contains("too slow") }
                if tooSlow && attempt < 3 { continue }
                let libinputReport = StackReport(libinput: libinputLines, tracePresses: presses)
                let gesturesReport = StackReport(gestures: Array(watch.lines.dropFirst(watchSeen)))
                var notes: [String] = []
                if attempt > 1 { notes.append("played \(attempt) times") }
                if tooSlow { notes.append("libinput: too slow") }
                if late > 20_000 { notes.append("frames up to \(late / 1000) ms late") }
                let warnings = watch.stderr.dropFirst(stderrSeen).split(separator: "\n").filter { !$0.contains("reading /") }
                if !warnings.isEmpty { notes.append("watch: " + warnings.joined(separator: " ")) }
                return Row(
                    trace: name, label: label,
                    libinput: libinputReport, libinputDelay: libinputReport.delay(after: start),
                    gestures: gesturesReport, gesturesDelay: gesturesReport.delay(after: start),
                    note: notes.isEmpty ? nil : notes.joined(separator: "; "))
            }
        }
    }

    /// Writes the frames with their recorded spacing; returns the time
    /// (µs, CLOCK_MONOTONIC) just before the first was written and how late
    /// the latest frame was written (µs; the emulated CPU is shared).
    static func play(_ trace: Trace, into device: VirtualDevice) throws -> (start: Int64, late: Int64) {
        let first = trace.frames.first?.events.first?.microseconds ?? 0
        let start = VMSuite.nowMicroseconds()
        var late: Int64 = 0
        for frame in trace.frames {
            let due = start + (frame.events.first?.microseconds ?? first) - first
            let wait = due - VMSuite.nowMicroseconds()
            if wait > 0 { usleep(UInt32(min(wait, 5_000_000))) }
            late = max(late, VMSuite.nowMicroseconds() - due)
            try device.writeFrame(frame.events)
        }
        return (start, late)
    }

    /// Waits until `child` printed nothing for ``quiet`` (at most 10 s).
    static func waitUntilQuiet(_ child: VMChild) {
        let started = VMSuite.nowMicroseconds()
        while VMSuite.nowMicroseconds() - started < 10_000_000 {
            let last = max(started, child.lines.last?.arrived ?? 0)
            if VMSuite.nowMicroseconds() - last >= quiet { return }
            usleep(20_000)
        }
    }

    /// A row of the Markdown table.
    static func line(_ row: Row) -> String {
        func mark(_ agrees: Bool) -> String { agrees ? "yes" : "**no**" }
        func milliseconds(_ delay: Int64?) -> String { delay.map { String($0 / 1000) } ?? "-" }
        let trace = row.note.map { "\(row.trace) (\($0))" } ?? row.trace
        return
            "| \(trace) | \(row.label) | \(row.libinput) | \(mark(row.libinput.agrees(with: row.label))) | \(milliseconds(row.libinputDelay)) "
            + "| \(row.gestures) | \(mark(row.gestures.agrees(with: row.label))) | \(milliseconds(row.gesturesDelay)) |"
    }

    /// The summary: agreement per stack, overall and per kind of label, and
    /// the median delay to the begin where both stacks agree.
    static func summary(_ rows: [Row]) -> [String] {
        func count(_ rows: [Row], _ stack: (Row) -> StackReport) -> Int { rows.filter { stack($0).agrees(with: $0.label) }.count }
        let both = rows.filter { $0.libinput.agrees(with: $0.label) && $0.gestures.agrees(with: $0.label) }
        func median(_ values: [Int64]) -> String {
            let sorted = values.sorted()
            return sorted.isEmpty ? "-" : "\(sorted[sorted.count / 2] / 1000) ms"
        }
        var lines = [
            "",
            "Agreement with the label: libinput \(count(rows, \.libinput)) of \(rows.count), gestures \(count(rows, \.gestures)) of \(rows.count). "
                + "Median delay from the first frame to the begin, over the \(both.count) traces both got right: "
                + "libinput \(median(both.compactMap(\.libinputDelay))), gestures \(median(both.compactMap(\.gesturesDelay))).",
            "", "| Label kind | Traces | libinput agrees | gestures agrees |", "| --- | --- | --- | --- |",
        ]
        var kinds: [String] = []
        for row in rows where !kinds.contains(row.label.kind) { kinds.append(row.label.kind) }
        for kind in kinds.sorted() {
            let group = rows.filter { $0.label.kind == kind }
            lines.append("| \(kind) | \(group.count) | \(count(group, \.libinput)) | \(count(group, \.gestures)) |")
        }
        return lines
    }
}
