import CommandLineKit
import Foundation
import GestureTraces
import TouchInput

/// `gestures bench-input`: measures the multitouch decoder and the JSON trace reader.
enum BenchInputCommand: Command {
    static let name = "bench-input"
    static let abstract = "Measure decoder throughput (events/s) and trace reading speed (MB/s)."
    static let discussion = """
        Generates a two-finger trace of N events (default 10000000) on the
        Lenovo X1 Carbon touchpad described in x1carbon.jsonl of the --devices
        folder, streams it to a JSON trace file (a temporary file unless --file
        is given), reads it back with TraceReader and reports MB/s and the peak
        memory while reading, then decodes the same events held in memory with
        MultitouchDecoder and reports events/s. Build with -c release.
        """
    static let events = Option("--events", valueName: "N", .integer(in: 1000...), default: 10_000_000, help: "How many events to generate.")
    static let file = Option("--file", valueName: "PATH", .file, help: "Where to write the generated trace (kept afterwards).")
    static let options = [events.spec, file.spec, DeviceFiles.option.spec]

    /// How much to generate, and where.
    struct Options {
        var eventCount: Int
        var path: String?
        var devices: String?
    }

    static func parse(_ arguments: ParsedArguments) -> Options {
        Options(eventCount: arguments[events], path: arguments[file], devices: arguments[DeviceFiles.option])
    }

    /// The device file of the Lenovo X1 Carbon touchpad (2 slots, BTN_TOOL up to QUINTTAP).
    static let deviceName = "x1carbon"

    /// Calls `body` with each generated frame: two fingers scrolling, lifted
    /// and put down again every 400 frames, 8 ms apart.
    static func generate(events count: Int, _ body: (inout [InputEvent]) throws -> Void) rethrows {
        var produced = 0
        var frame: [InputEvent] = []
        var index = 0
        var trackingID: Int32 = 0
        while produced < count {
            frame.removeAll(keepingCapacity: true)
            let time = 1_000_000 + Int64(index) * 8000
            func add(_ type: UInt16, _ code: UInt16, _ value: Int32) {
                frame.append(InputEvent(type: type, code: code, value: value, microseconds: time))
            }
            let phase = index % 400
            if phase == 399 {
                add(EV.ABS, ABS.MT_SLOT, 0); add(EV.ABS, ABS.MT_TRACKING_ID, -1)
                add(EV.ABS, ABS.MT_SLOT, 1); add(EV.ABS, ABS.MT_TRACKING_ID, -1)
                add(EV.KEY, BTN.TOUCH, 0); add(EV.KEY, BTN.TOOL_DOUBLETAP, 0)
            } else {
                let y = Int32(1500 + phase * 7)
                add(EV.ABS, ABS.MT_SLOT, 0)
                if phase == 0 { trackingID &+= 1; add(EV.ABS, ABS.MT_TRACKING_ID, trackingID) }
                add(EV.ABS, ABS.MT_POSITION_X, 2500 + Int32(phase % 5)); add(EV.ABS, ABS.MT_POSITION_Y, y)
                add(EV.ABS, ABS.MT_SLOT, 1)
                if phase == 0 { trackingID &+= 1; add(EV.ABS, ABS.MT_TRACKING_ID, trackingID) }
                add(EV.ABS, ABS.MT_POSITION_X, 3500 - Int32(phase % 5)); add(EV.ABS, ABS.MT_POSITION_Y, y + 40)
                if phase == 0 { add(EV.KEY, BTN.TOUCH, 1); add(EV.KEY, BTN.TOOL_DOUBLETAP, 1) }
            }
            add(EV.SYN, SYN.REPORT, 0)
            produced += frame.count
            index += 1
            try body(&frame)
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The peak resident memory of this process in MB (VmHWM), or nil off Linux.
    static func peakMemoryMegabytes() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kilobytes / 1024
    }

    static func run(_ options: Options) throws -> Int32 {
        let count = options.eventCount
        let device = try DeviceFiles(directory: options.devices).device(deviceName)
        let keep = options.path != nil
        let url = URL(fileURLWithPath: options.path
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("gestures-bench-\(getpid()).jsonl").path)
        defer { if !keep { try? FileManager.default.removeItem(at: url) } }
        let clock = ContinuousClock()

        // 1. Stream the generated trace to a file.
        // Progress every 256 frames: a comparison a frame, off the measured path's critical work.
        let writer = try TraceWriter(url: url, devices: [device])
        let writing = Progress("bench-input: writing", total: count, unit: "events")
        var written = 0
        var writtenFrames = 0
        let writeTime = try clock.measure {
            try generate(events: count) { events in
                try writer.write(Trace.Frame(device: 0, events: events))
                written += events.count
                writtenFrames += 1
                if writtenFrames & 255 == 0 { writing.update(written) }
            }
            try writer.finish()
        }
        writing.update(written)
        writing.finish()
        let bytes = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        let megabytes = Double(bytes) / 1e6
        print(String(format: "trace: %d events, %.1f MB, written in %.2f s (%.0f MB/s)",
                     count, megabytes, seconds(writeTime), megabytes / seconds(writeTime)))

        // 2. Read it back, streaming.
        let memoryBefore = peakMemoryMegabytes()
        var readEvents = 0
        var checksum: Int64 = 0
        let reading = Progress("bench-input: reading", total: count, unit: "events")
        var readFrames = 0
        let readTime = try clock.measure {
            let reader = try TraceReader(contentsOf: url)
            while let frame = try reader.nextFrame() {
                readEvents += frame.events.count
                checksum &+= Int64(frame.events[frame.events.count - 1].microseconds)
                readFrames += 1
                if readFrames & 255 == 0 { reading.update(readEvents) }
            }
        }
        reading.update(readEvents)
        reading.finish()
        let memoryAfter = peakMemoryMegabytes()
        print(String(format: "read: %d events in %.2f s: %.0f MB/s, %.1f million events/s",
                     readEvents, seconds(readTime), megabytes / seconds(readTime), Double(readEvents) / seconds(readTime) / 1e6))
        if let memoryBefore, let memoryAfter {
            print(String(format: "read: peak memory %.1f MB before reading, %.1f MB after (file %.1f MB)", memoryBefore, memoryAfter, megabytes))
        }

        // 3. Decode the events held in memory.
        var events: [InputEvent] = []
        events.reserveCapacity(count + 16)
        generate(events: count) { frame in events.append(contentsOf: frame) }
        var frames = 0
        var contacts = 0
        let decodeTime = clock.measure {
            var decoder = MultitouchDecoder(device: device)
            for event in events {
                if let frame = decoder.process(event) {
                    frames += 1
                    contacts &+= frame.contacts.count &+ frame.fingerCount
                }
            }
        }
        print(String(format: "decode: %d events -> %d frames in %.3f s: %.1f million events/s (checksum %d)",
                     events.count, frames, seconds(decodeTime), Double(events.count) / seconds(decodeTime) / 1e6, contacts &+ Int(truncatingIfNeeded: checksum)))
        return 0
    }
}
